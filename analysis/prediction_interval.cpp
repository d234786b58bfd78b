#include "analysis/prediction_interval.hpp"

#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "analysis/run_model.hpp"
#include "distributions/distribution.hpp"

namespace analysis {

bool PredictionIntervalOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (!(level > 0.0 && level < 1.0)) return fail("the interval's level must be in (0, 1)");
  if (parameter_draws < 10 || parameter_draws > 100000) return fail("the parameter draws must be in [10, 100000]");
  if (spread_points < 1 || spread_points > 1000) return fail("the spread points must be in [1, 1000]");
  return series_parallel.IsValid(why);
}

namespace {

template <typename T>
Outcome<T> refused(const Failure& failure) {
  Outcome<T> outcome;
  outcome.failure = failure;
  return outcome;
}

// The approximate model's runtime law of `setting` with the parameters at `values`.
Outcome<solvers::Result> solve_with(const MachineInput& setting, std::int64_t p,
                                    const ParameterUncertainty& uncertainty, const std::vector<double>& values,
                                    solvers::SeriesParallelOptions options) {
  options.keep_distribution = true;
  const Outcome<MachineInput> fitted = with_values(setting, uncertainty.names, values);
  if (!fitted.ok()) return refused<solvers::Result>(*fitted.failure);
  Outcome<solvers::Result> solved = solve_approximate(*fitted.value, p, options);
  if (solved.ok() && !solved.value->distribution) {
    return refused<solvers::Result>(Failure::of_value(0, "the model's runtime law could not be kept"));
  }
  return solved;
}

// The q-quantile of sorted values, interpolated between order statistics (Hyndman and Fan's
// type 7, numpy's default).
double sample_quantile(const std::vector<double>& sorted, double q) {
  const double h = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(h));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

// A square root A of the covariance (A A^T = C), from its eigen-decomposition so that a
// covariance that rounding made slightly indefinite still gives one (negative eigenvalues as 0).
Eigen::MatrixXd square_root(const std::vector<std::vector<double>>& covariance) {
  const auto k = static_cast<Eigen::Index>(covariance.size());
  Eigen::MatrixXd c(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    for (Eigen::Index j = 0; j < k; ++j) c(i, j) = covariance[i][j];
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(c);
  return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
}

// P(X_b exp(u z - u^2/2) <= x) averaged over the draws b and the normal points z.
double mixture_cdf(const std::vector<distributions::CdfTable>& laws, const std::vector<double>& factors, double x) {
  double sum = 0.0;
  for (const distributions::CdfTable& law : laws) {
    for (const double factor : factors) sum += law.cdf(x / factor);
  }
  return sum / static_cast<double>(laws.size() * factors.size());
}

// The q-quantile of the mixture, by bisection on its cdf to a relative 1e-7. It lies between the
// smallest and the largest q-quantile of its components, law b times factor j.
double mixture_quantile(const std::vector<distributions::CdfTable>& laws, const std::vector<double>& factors,
                        double q) {
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (const distributions::CdfTable& law : laws) {
    const double component = law.quantile(q);
    low = std::min(low, component * factors.front());
    high = std::max(high, component * factors.back());
  }
  while (high - low > 1e-7 * high) {
    const double middle = 0.5 * (low + high);
    (mixture_cdf(laws, factors, middle) < q ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// The runtime laws at options.parameter_draws values of the parameters drawn from their log
// covariance, and the parameters' part of the interval from the draws' means; the failure of a
// draw, if any.
std::optional<Failure> draw_parameters(const MachineInput& setting, std::int64_t p,
                                       const ParameterUncertainty& uncertainty,
                                       const PredictionIntervalOptions& options, std::uint64_t stream, double tail,
                                       std::vector<distributions::CdfTable>& laws, PredictionInterval& interval) {
  const Eigen::MatrixXd root = square_root(uncertainty.log_covariance);
  const auto k = static_cast<Eigen::Index>(uncertainty.values.size());
  std::seed_seq seeds{static_cast<std::uint32_t>(options.seed), static_cast<std::uint32_t>(options.seed >> 32),
                      static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)};
  std::mt19937_64 random(seeds);
  std::normal_distribution<double> normal;
  std::vector<double> means;
  for (int draw = 0; draw < options.parameter_draws; ++draw) {
    Eigen::VectorXd z(k);
    for (Eigen::Index i = 0; i < k; ++i) z(i) = normal(random);
    const Eigen::VectorXd shift = root * z;
    std::vector<double> values = uncertainty.values;
    for (Eigen::Index i = 0; i < k; ++i) values[static_cast<std::size_t>(i)] *= std::exp(shift(i));
    const Outcome<solvers::Result> solved = solve_with(setting, p, uncertainty, values, options.series_parallel);
    if (!solved.ok()) return *solved.failure;
    means.push_back(solved.value->mean);
    laws.emplace_back(*solved.value->distribution);
  }
  double sum = 0.0, squares = 0.0;
  for (const double mean : means) sum += mean;
  const double average = sum / static_cast<double>(means.size());
  for (const double mean : means) squares += (mean - average) * (mean - average);
  interval.parameter_standard_error = std::sqrt(squares / static_cast<double>(means.size() - 1));
  std::sort(means.begin(), means.end());
  interval.parameter_low = sample_quantile(means, tail);
  interval.parameter_high = sample_quantile(means, 1.0 - tail);
  return std::nullopt;
}

// The factors exp(w z - u^2/2), w^2 = u^2 + discrepancy^2, at `points` normal points z: the
// unexplained spread u (mean 1) and the model's error beyond the calibrated range (median 1),
// independent; {1} without either.
std::vector<double> spread_factors(double unexplained, double discrepancy, int points) {
  std::vector<double> factors{1.0};
  if (unexplained > 0.0 || discrepancy > 0.0) {
    const boost::math::normal standard;
    const double u = unexplained;
    const double w = std::hypot(unexplained, discrepancy);
    factors.clear();
    for (int point = 0; point < points; ++point) {
      const double z = boost::math::quantile(standard, (point + 0.5) / points);
      factors.push_back(std::exp(w * z - u * u / 2.0));
    }
  }
  return factors;
}

}  // namespace

std::uint64_t setting_stream(std::int64_t p, const std::vector<double>& values) {
  std::uint64_t hash = 14695981039346656037ULL;
  auto mix = [&hash](const unsigned char* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      hash ^= bytes[i];
      hash *= 1099511628211ULL;
    }
  };
  mix(reinterpret_cast<const unsigned char*>(&p), sizeof p);
  for (const double value : values) mix(reinterpret_cast<const unsigned char*>(&value), sizeof value);
  return hash;
}

ParameterUncertainty uncertainty_of(const CalibrationResult& fit) {
  ParameterUncertainty uncertainty;
  for (const FittedParameter& parameter : fit.parameters) {
    uncertainty.names.push_back(parameter.name);
    uncertainty.values.push_back(parameter.value);
  }
  uncertainty.log_covariance = fit.log_covariance;
  uncertainty.unexplained = fit.unexplained;
  uncertainty.range = fit.range;
  return uncertainty;
}

Outcome<PredictionInterval> predict_interval(const MachineInput& setting, std::int64_t p,
                                             const ParameterUncertainty& uncertainty,
                                             const PredictionIntervalOptions& options, std::uint64_t stream) {
  std::string why;
  if (!options.IsValid(&why)) return refused<PredictionInterval>(Failure::of_value(0, why));
  const double tail = (1.0 - options.level) / 2.0;
  const Outcome<solvers::Result> central =
      solve_with(setting, p, uncertainty, uncertainty.values, options.series_parallel);
  if (!central.ok()) return refused<PredictionInterval>(*central.failure);
  PredictionInterval interval;
  const distributions::Distribution& law = *central.value->distribution;
  interval.mean = central.value->mean;
  interval.task_low = distributions::quantile(law, tail);
  interval.task_high = distributions::quantile(law, 1.0 - tail);
  interval.parameter_low = interval.parameter_high = interval.mean;
  interval.unexplained = uncertainty.unexplained;

  std::vector<distributions::CdfTable> laws;
  if (uncertainty.log_covariance.empty()) {
    laws.emplace_back(law);
  } else if (const auto failure = draw_parameters(setting, p, uncertainty, options, stream, tail, laws, interval)) {
    return refused<PredictionInterval>(*failure);
  }
  if (uncertainty.range) interval.placement = place(*uncertainty.range, setting, p);
  const double discrepancy = interval.placement ? interval.placement->discrepancy : 0.0;
  const std::vector<double> factors = spread_factors(uncertainty.unexplained, discrepancy, options.spread_points);
  if (laws.size() == 1 && factors.size() == 1) {
    interval.low = interval.task_low;
    interval.high = interval.task_high;
  } else {
    interval.low = mixture_quantile(laws, factors, tail);
    interval.high = mixture_quantile(laws, factors, 1.0 - tail);
  }
  Outcome<PredictionInterval> outcome;
  outcome.value = interval;
  return outcome;
}

}  // namespace analysis
