#include "models/measured_tail.hpp"

#include <boost/math/tools/minima.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "models/measurements.hpp"

namespace models {

namespace {

// The profile log-likelihood of the excesses y at theta = xi / sigma (Grimshaw): for theta > 0,
// xi(theta) = mean(log(1 + theta y)), sigma = xi / theta, and log L / k = -log(sigma) - xi - 1;
// at theta = 0 the exponential tail, sigma = mean(y), log L / k = -log(sigma) - 1.
std::pair<double, double> profile(const std::vector<double>& excesses, double theta) {
  double sum = 0.0;
  for (double y : excesses) sum += theta > 0.0 ? std::log1p(theta * y) : y;
  const double mean = sum / static_cast<double>(excesses.size());
  if (!(theta > 0.0)) return {0.0, mean};
  return {mean, mean / theta};
}

double per_excess_log_likelihood(const std::pair<double, double>& xi_sigma) {
  return -std::log(xi_sigma.second) - xi_sigma.first - 1.0;
}

// theta over a log scale from 1e-8 to 1e8 excess means (xi from about 0 to 18), by Brent's
// method, against the exponential tail (theta = 0).
std::pair<double, double> maximum_likelihood(const std::vector<double>& excesses, double mean_excess) {
  const auto negative = [&](double log_theta) {
    return -per_excess_log_likelihood(profile(excesses, std::exp(log_theta) / mean_excess));
  };
  const auto [best, value] = boost::math::tools::brent_find_minima(negative, std::log(1e-8), std::log(1e8), 40);
  const std::pair<double, double> exponential = profile(excesses, 0.0);
  if (-value <= per_excess_log_likelihood(exponential)) return exponential;
  return profile(excesses, std::exp(best) / mean_excess);
}

}  // namespace

TailFitOutcome fit_tail(const Measurements& measurements) {
  TailFitOutcome outcome;
  if (!measurements.weights.empty()) {
    outcome.error = "a fitted TAIL needs the samples themselves, not a histogram";
    return outcome;
  }
  std::vector<double> sorted = measurements.values;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const auto at = static_cast<std::size_t>(std::ceil(kTailQuantile * static_cast<double>(n)));
  const double u = at == 0 ? 0.0 : sorted[at - 1];
  std::vector<double> excesses;
  for (double x : sorted) {
    if (x > u) excesses.push_back(x - u);
  }
  if (excesses.size() < kTailMinimumExceedances) {
    outcome.error = fmt::format(
        "a fitted TAIL needs at least {} samples above the data's 90% quantile, and {} of the {} measured "
        "runtimes lie above it ({:g}): give 200 samples or more, or use EMPIRICAL",
        kTailMinimumExceedances, excesses.size(), n, u);
    return outcome;
  }
  double mean_excess = 0.0;
  for (double y : excesses) mean_excess += y / static_cast<double>(excesses.size());
  const auto [xi, sigma] = maximum_likelihood(excesses, mean_excess);
  const double k = static_cast<double>(excesses.size());
  if (xi >= 0.5) {
    outcome.error = fmt::format(
        "the generalised Pareto tail fitted above the 90% quantile ({:g}) has shape xi = {:.3g} >= 1/2 (+- {:.2g}, "
        "{} samples): its variance is infinite, which no law of the tool can represent; the data's own tail "
        "(EMPIRICAL) is all that can be said",
        u, xi, (1.0 + xi) / std::sqrt(k), excesses.size());
    return outcome;
  }
  outcome.fit = TailFit{u, k / static_cast<double>(n), xi, sigma, (1.0 + xi) / std::sqrt(k), excesses.size()};
  return outcome;
}

}  // namespace models
