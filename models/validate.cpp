#include "models/validate.hpp"
#include "distributions/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "distributions/distribution.hpp"
#include "models/limits.hpp"

namespace models {

namespace {

constexpr double kTolerance = 1e-9;

bool is_integer(double x) { return std::isfinite(x) && std::floor(x) == x; }

// A time that may be 0 (a value, a bound of a support): 0 or in [kSmallestTime, kLargestTime].
// Empty when it is; `what` names it, e.g. "DETERMINISTIC: the value".
std::string time_or_zero(const std::string& what, double x) {
  if (x == 0.0 || (x >= kSmallestTime && x <= kLargestTime)) return {};
  return fmt::format("{} must be 0 or lie in [{:g}, {:g}], got {}", what, kSmallestTime, kLargestTime, x);
}

// A time that must be positive (a mean, a spread): in [kSmallestTime, kLargestTime].
std::string positive_time(const std::string& what, double x) {
  if (x >= kSmallestTime && x <= kLargestTime) return {};
  return fmt::format("{} must lie in [{:g}, {:g}], got {}", what, kSmallestTime, kLargestTime, x);
}

// The largest over the smallest of `values` (all > 0) at most kLargestStageRatio.
std::string stage_ratio(const std::string& what, const std::vector<double>& values) {
  if (values.empty()) return {};
  const auto [smallest, largest] = std::minmax_element(values.begin(), values.end());
  if (*largest <= kLargestStageRatio * *smallest) return {};
  return fmt::format("{} differ by a factor of {:.3g} ({} and {}), more than {:g}", what, *largest / *smallest,
                     *smallest, *largest, kLargestStageRatio);
}

// PHASETYPE's derived mean α(−S)⁻¹1, which the rates alone do not bound (a nearly closed
// cycle of moves makes it huge).
std::string phase_type_mean(std::size_t n, std::span<const double> v) {
  std::vector<double> alpha(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<std::vector<double>> subgenerator(n);
  for (std::size_t r = 0; r < n; ++r) {
    const auto row = v.begin() + static_cast<std::ptrdiff_t>(n + r * n);
    subgenerator[r].assign(row, row + static_cast<std::ptrdiff_t>(n));
  }
  double mean = 0.0;
  try {
    mean = distributions::mean(distributions::phase_type(std::move(alpha), std::move(subgenerator)));
  } catch (const distributions::InvalidDistribution& error) {
    return fmt::format("PHASETYPE: {}", error.what());
  }
  if (mean == 0.0) return {};
  return positive_time("PHASETYPE: the mean α(−S)⁻¹1", mean);
}

// Empty when `v` has the `expected` number of parameters of distribution `name`; `what`
// lists them for the message.
std::string parameter_count(const char* name, std::span<const double> v, std::size_t expected, const char* what) {
  if (v.size() == expected) return {};
  return fmt::format("{} takes {} parameter{} ({}), got {}", name, expected, expected == 1 ? "" : "s", what, v.size());
}

std::string check_erlang(const char* name, std::span<const double> v) {
  if (auto e = parameter_count(name, v, 2, "phase count k, mean of a phase"); !e.empty()) return e;
  if (!is_integer(v[0]) || v[0] < 1 || v[0] > std::numeric_limits<int>::max()) {
    return fmt::format("ERLANG: the phase count k must be an integer >= 1, got {}", v[0]);
  }
  if (v[1] <= 0) return fmt::format("ERLANG: the mean of a phase must be > 0, got {}", v[1]);
  if (auto e = positive_time("ERLANG: the mean of a phase", v[1]); !e.empty()) return e;
  return positive_time("ERLANG: the mean k·s", v[0] * v[1]);
}

std::string check_general_erlang(std::span<const double> v) {
  if (v.empty()) return "GERLANG takes the mean of every stage, got none";
  double total = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] <= 0) return fmt::format("GERLANG: the mean of stage {} must be > 0, got {}", i + 1, v[i]);
    if (auto e = positive_time(fmt::format("GERLANG: the mean of stage {}", i + 1), v[i]); !e.empty()) return e;
    total += v[i];
  }
  if (auto e = stage_ratio("GERLANG: the stage means", {v.begin(), v.end()}); !e.empty()) return e;
  return positive_time("GERLANG: the mean (the sum of the stage means)", total);
}

std::string check_hyperexponential(std::span<const double> v) {
  if (v.size() < 2 || v.size() % 2 != 0) {
    return fmt::format("HYPEREXPONENTIAL takes pairs (probability, mean), got {} parameters", v.size());
  }
  double total = 0;
  for (std::size_t i = 0; i < v.size(); i += 2) {
    if (v[i] < 0 || v[i] > 1) {
      return fmt::format("HYPEREXPONENTIAL: probability {} must lie in [0, 1], got {}", i / 2 + 1, v[i]);
    }
    if (v[i + 1] <= 0) {
      return fmt::format("HYPEREXPONENTIAL: mean {} must be > 0, got {}", i / 2 + 1, v[i + 1]);
    }
    if (auto e = positive_time(fmt::format("HYPEREXPONENTIAL: mean {}", i / 2 + 1), v[i + 1]); !e.empty()) return e;
    total += v[i];
  }
  if (std::fabs(total - 1) > kTolerance) {
    return fmt::format("HYPEREXPONENTIAL: the probabilities sum to {}, not 1", total);
  }
  return {};
}

std::string check_uniform(const char* name, std::span<const double> v) {
  if (auto e = parameter_count(name, v, 2, "low, high"); !e.empty()) return e;
  if (v[0] < 0) return fmt::format("UNIFORM: low must be >= 0, got {}", v[0]);
  if (v[1] < v[0]) return fmt::format("UNIFORM: high ({}) must be >= low ({})", v[1], v[0]);
  if (auto e = time_or_zero("UNIFORM: low", v[0]); !e.empty()) return e;
  return time_or_zero("UNIFORM: high", v[1]);
}

// LOGNORMAL(median, sigma[, shift]), WEIBULL(shape, scale[, shift]), PARETO(alpha, scale): each
// with a finite variance and a mean within the times the tool takes.
std::string check_skewed(DistKind kind, std::span<const double> v) {
  const char* name = to_string(kind);
  const bool pareto = kind == DistKind::Pareto;
  const char* what = kind == DistKind::LogNormal ? "median, sigma[, shift]"
                     : pareto                    ? "alpha, scale"
                                                 : "shape k, scale[, shift]";
  if (v.size() < 2 || v.size() > (pareto ? 2u : 3u)) {
    return fmt::format("{} takes {} parameters ({}), got {}", name, pareto ? "2" : "2 or 3", what, v.size());
  }
  const double time = kind == DistKind::LogNormal ? v[0] : v[1];
  if (auto e = positive_time(fmt::format("{}: the {}", name, kind == DistKind::LogNormal ? "median" : "scale"), time);
      !e.empty()) {
    return e;
  }
  double mean = 0.0;
  if (kind == DistKind::LogNormal) {
    if (!(v[1] > 0 && v[1] <= 4)) return fmt::format("LOGNORMAL: sigma must lie in (0, 4], got {}", v[1]);
    mean = v[0] * std::exp(0.5 * v[1] * v[1]);
  } else if (kind == DistKind::Weibull) {
    if (!(v[0] >= 0.1 && v[0] <= 1000))
      return fmt::format("WEIBULL: the shape k must lie in [0.1, 1000], got {}", v[0]);
    mean = v[1] * std::tgamma(1.0 + 1.0 / v[0]);
  } else {
    if (!(v[0] > 2 && v[0] <= 1000)) {
      return fmt::format("PARETO: alpha must lie in (2, 1000] (a finite variance), got {}", v[0]);
    }
    mean = v[0] * v[1] / (v[0] - 1.0);
  }
  if (auto e = positive_time(fmt::format("{}: the mean", name), mean); !e.empty()) return e;
  return v.size() == 3 ? time_or_zero(fmt::format("{}: the shift", name), v[2]) : std::string{};
}

std::string check_normal(const char* name, std::span<const double> v) {
  if (auto e = parameter_count(name, v, 2, "mu, sigma"); !e.empty()) return e;
  if (v[1] <= 0) return fmt::format("NORMAL: sigma must be > 0, got {}", v[1]);
  if (auto e = positive_time("NORMAL: sigma", v[1]); !e.empty()) return e;
  if (std::abs(v[0]) > kLargestTime) {
    return fmt::format("NORMAL: mu must lie in [{:g}, {:g}], got {}", -kLargestTime, kLargestTime, v[0]);
  }
  if (v[0] / v[1] > kLargestNormalRatio || v[0] / v[1] < kSmallestNormalRatio) {
    return fmt::format("NORMAL: mu/sigma must lie in [{:g}, {:g}], got {:.3g} (mu {}, sigma {})", kSmallestNormalRatio,
                       kLargestNormalRatio, v[0] / v[1], v[0], v[1]);
  }
  return {};
}

// The subgenerator S of PHASETYPE of order n, stored row by row after α in `v`.
std::string check_phase_type_subgenerator(std::size_t n, std::span<const double> v) {
  for (std::size_t r = 0; r < n; ++r) {
    double row = 0;
    for (std::size_t c = 0; c < n; ++c) {
      const double x = v[n + r * n + c];
      row += x;
      if (r == c && x >= 0) {
        return fmt::format("PHASETYPE: the diagonal S[{}][{}] must be < 0, got {}", r + 1, c + 1, x);
      }
      if (r != c && x < 0) {
        return fmt::format("PHASETYPE: S[{}][{}] off the diagonal must be >= 0, got {}", r + 1, c + 1, x);
      }
      if (x != 0.0 && (std::abs(x) < kSmallestMagnitude || std::abs(x) > kLargestMagnitude)) {
        return fmt::format("PHASETYPE: S[{}][{}] must be 0 or a rate of magnitude in [{:g}, {:g}], got {}", r + 1,
                           c + 1, kSmallestMagnitude, kLargestMagnitude, x);
      }
    }
    if (row > kTolerance) return fmt::format("PHASETYPE: row {} of S sums to {} > 0", r + 1, row);
  }
  return {};
}

std::string check_phase_type(std::size_t order, std::span<const double> v) {
  const std::size_t n = order;
  if (n == 0 || v.size() != n + n * n) {
    return fmt::format("PHASETYPE needs an initial vector of n values and an n x n subgenerator");
  }
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (v[i] < 0) return fmt::format("PHASETYPE: alpha[{}] must be >= 0, got {}", i + 1, v[i]);
    if (v[i] > 1) return fmt::format("PHASETYPE: alpha[{}] must be <= 1, got {}", i + 1, v[i]);
    total += v[i];
  }
  if (total > 1 + kTolerance) return fmt::format("PHASETYPE: alpha sums to {}, more than 1", total);
  if (auto e = check_phase_type_subgenerator(n, v); !e.empty()) return e;
  std::vector<double> diagonal;
  for (std::size_t r = 0; r < n; ++r) diagonal.push_back(-v[n + r * n + r]);
  if (auto e = stage_ratio("PHASETYPE: the diagonal rates -S[i][i]", diagonal); !e.empty()) return e;
  return phase_type_mean(n, v);
}

std::string check_mixture(std::span<const double> v) {
  if (v.empty()) return "MIXTURE takes pairs (weight, distribution), got none";
  double total = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0) return fmt::format("MIXTURE: weight {} must be >= 0, got {}", i + 1, v[i]);
    total += v[i];
  }
  if (std::fabs(total - 1) > kTolerance) return fmt::format("MIXTURE: the weights sum to {}, not 1", total);
  return {};
}

std::string check_samples(std::span<const double> v) {
  if (v.empty()) return "SAMPLES takes at least one measured runtime";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0) return fmt::format("SAMPLES: sample {} must be >= 0, got {}", i + 1, v[i]);
    if (auto e = time_or_zero(fmt::format("SAMPLES: sample {}", i + 1), v[i]); !e.empty()) return e;
  }
  return {};
}

std::string check_histogram(std::span<const double> v) {
  if (v.size() < 2 || v.size() % 2 != 0) {
    return fmt::format("HISTOGRAM takes pairs (value, weight), got {} parameters", v.size());
  }
  double total = 0;
  for (std::size_t i = 0; i < v.size(); i += 2) {
    if (v[i] < 0) return fmt::format("HISTOGRAM: value {} must be >= 0, got {}", i / 2 + 1, v[i]);
    if (v[i + 1] < 0) return fmt::format("HISTOGRAM: weight {} must be >= 0, got {}", i / 2 + 1, v[i + 1]);
    if (auto e = time_or_zero(fmt::format("HISTOGRAM: value {}", i / 2 + 1), v[i]); !e.empty()) return e;
    if (v[i + 1] > kLargestMagnitude) {
      return fmt::format("HISTOGRAM: weight {} must be at most {:g}, got {}", i / 2 + 1, kLargestMagnitude, v[i + 1]);
    }
    total += v[i + 1];
  }
  if (total <= 0) return "HISTOGRAM: the weights sum to 0";
  return {};
}

}  // namespace

std::string check_parameters(DistKind kind, std::size_t order, std::span<const double> v) {
  const char* name = to_string(kind);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) return fmt::format("{}: parameter {} is not finite", name, i + 1);
  }
  switch (kind) {
    case DistKind::Deterministic:
      if (auto e = parameter_count(name, v, 1, "value"); !e.empty()) return e;
      if (v[0] < 0) return fmt::format("DETERMINISTIC: the value must be >= 0, got {}", v[0]);
      return time_or_zero("DETERMINISTIC: the value", v[0]);
    case DistKind::Exponential:
      if (auto e = parameter_count(name, v, 1, "mean"); !e.empty()) return e;
      if (v[0] <= 0) return fmt::format("EXPONENTIAL: the mean must be > 0, got {}", v[0]);
      return positive_time("EXPONENTIAL: the mean", v[0]);
    case DistKind::Erlang: return check_erlang(name, v);
    case DistKind::GeneralErlang: return check_general_erlang(v);
    case DistKind::HyperExponential: return check_hyperexponential(v);
    case DistKind::Uniform: return check_uniform(name, v);
    case DistKind::Normal: return check_normal(name, v);
    case DistKind::LogNormal:
    case DistKind::Weibull:
    case DistKind::Pareto: return check_skewed(kind, v);
    case DistKind::PhaseType: return check_phase_type(order, v);
    case DistKind::Mixture: return check_mixture(v);
    case DistKind::Samples: return check_samples(v);
    case DistKind::Histogram: return check_histogram(v);
    case DistKind::Numerical: return {};
  }
  return {};
}

}  // namespace models
