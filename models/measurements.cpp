#include "models/measurements.hpp"

#include "models/measured_tail.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace models {

const char* to_string(Smoothing smoothing) {
  switch (smoothing) {
    case Smoothing::Empirical: return "EMPIRICAL";
    case Smoothing::Smoothed: return "SMOOTHED";
    case Smoothing::Tail: return "TAIL";
  }
  return "EMPIRICAL";
}

std::optional<double> microseconds_per(std::string_view unit) {
  if (unit == "ns") return 1e-3;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1.0;  // us, µs (micro sign), μs (mu)
  if (unit == "ms") return 1e3;
  if (unit == "s") return 1e6;
  return std::nullopt;
}

SampleSummary summarise(const std::vector<double>& values, const std::vector<double>& weights) {
  SampleSummary s;
  s.count = values.size();
  if (values.empty()) return s;
  const auto weight = [&](std::size_t i) { return weights.empty() ? 1.0 : weights[i]; };
  double total = 0.0, squares = 0.0, sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    total += weight(i);
    squares += weight(i) * weight(i);
    sum += weight(i) * values[i];
  }
  s.total_weight = total;
  s.effective_count = squares > 0.0 ? total * total / squares : 0.0;
  s.mean = total > 0.0 ? sum / total : 0.0;
  double deviations = 0.0;  // two passes: no cancellation for tightly clustered runtimes
  for (std::size_t i = 0; i < values.size(); ++i) deviations += weight(i) * (values[i] - s.mean) * (values[i] - s.mean);
  s.variance = total > 0.0 ? deviations / total : 0.0;
  s.cv = s.mean > 0.0 ? std::sqrt(s.variance) / s.mean : 0.0;
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  s.minimum = *low;
  s.maximum = *high;
  return s;
}

namespace {

// The weighted q-quantile (lower), for the interquartile range.
double weighted_quantile(std::vector<std::pair<double, double>> points, double total, double q) {
  std::sort(points.begin(), points.end());
  double cumulative = 0.0;
  for (const auto& [value, weight] : points) {
    cumulative += weight;
    if (cumulative >= q * total) return value;
  }
  return points.back().first;
}

}  // namespace

double kernel_half_width(const std::vector<double>& values, const std::vector<double>& weights) {
  const SampleSummary s = summarise(values, weights);
  if (s.count < 2 || s.variance <= 0.0 || s.effective_count <= 1.0) return 0.0;
  std::vector<std::pair<double, double>> points;
  points.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) points.emplace_back(values[i], weights.empty() ? 1.0 : weights[i]);
  const double iqr = weighted_quantile(points, s.total_weight, 0.75) - weighted_quantile(points, s.total_weight, 0.25);
  const double sd = std::sqrt(s.variance);
  // Ties (a histogram with few rows) can make the IQR 0: then the sd alone sets the scale.
  const double spread = iqr > 0.0 ? std::min(sd, iqr / 1.34) : sd;
  const double h = 0.9 * spread * std::pow(s.effective_count, -0.2);
  return std::min(std::sqrt(6.0) * h, s.minimum);
}

namespace {

// The body below the threshold as its samples, the generalised Pareto tail beyond it: one
// mixture of closed forms, each distinct sample a DETERMINISTIC atom (a grid would cut the
// tail to the grid's span: distributions::mixture grids the whole mixture when a part is one).
distributions::Distribution with_fitted_tail(const Measurements& measurements) {
  namespace d = distributions;
  const TailFitOutcome tail = fit_tail(measurements);
  if (!tail.fit) throw std::invalid_argument("NUMERICAL('" + measurements.file + "', TAIL): " + tail.error);
  const TailFit& fit = *tail.fit;
  std::vector<double> sorted = measurements.values;
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  std::vector<double> weights;
  std::vector<d::Distribution> parts;
  for (std::size_t i = 0; i < sorted.size() && sorted[i] <= fit.threshold;) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    weights.push_back(static_cast<double>(j - i) / n);
    parts.push_back(d::deterministic(sorted[i]));
    i = j;
  }
  // Below 1e-6 the Pareto form's offset u - sigma/xi would lose the threshold to rounding.
  const d::Distribution excess = fit.xi > 1e-6
                                     ? d::shift(d::pareto(1.0 / fit.xi, fit.sigma / fit.xi), -fit.sigma / fit.xi)
                                     : d::exponential(1.0 / fit.sigma);
  weights.push_back(fit.share);
  parts.push_back(d::shift(excess, fit.threshold));
  return d::mixture(std::move(weights), std::move(parts));
}

}  // namespace

distributions::Distribution measured_distribution(const Measurements& measurements, Smoothing smoothing,
                                                  const distributions::GridOptions& grid) {
  namespace d = distributions;
  if (smoothing == Smoothing::Tail) return with_fitted_tail(measurements);
  const d::Distribution empirical = measurements.weights.empty()
                                        ? d::from_samples(measurements.values, grid)
                                        : d::from_histogram(measurements.values, measurements.weights, grid);
  if (smoothing == Smoothing::Empirical) return empirical;
  const double w = kernel_half_width(measurements.values, measurements.weights);
  if (!(w > 0.0)) return empirical;
  // U(0, w) + U(0, w) - w is the triangular kernel on [-w, w]; the shift comes first so that
  // every operand stays >= 0 (w is at most the smallest value).
  const d::Distribution noise = d::uniform(0.0, w);
  const d::Distribution widened = d::series(d::series(d::shift(empirical, -w), noise, grid), noise, grid);
  // Shrink towards the mean by a = sd / sqrt(sd^2 + w^2/6): the kernel's variance is taken
  // back, so the smoothed law has the data's mean and variance (Jones' variance correction).
  // (Written so that a variance that overflows, values near 1e170 and beyond, gives a = 1.)
  const SampleSummary s = summarise(measurements.values, measurements.weights);
  const double a = 1.0 / std::sqrt(1.0 + w * w / (6.0 * s.variance));
  if (!(a < 1.0)) return widened;
  return d::shift(d::scale(widened, a), (1.0 - a) * s.mean);
}

}  // namespace models
