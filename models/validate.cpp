#include "models/validate.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace models {

namespace {

constexpr double kTolerance = 1e-9;

bool is_integer(double x) { return std::isfinite(x) && std::floor(x) == x; }

}  // namespace

std::string check_parameters(DistKind kind, std::size_t order, std::span<const double> v) {
  const char* name = to_string(kind);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) return fmt::format("{}: parameter {} is not finite", name, i + 1);
  }
  const auto count = [&](std::size_t expected, const char* what) -> std::string {
    if (v.size() == expected) return {};
    return fmt::format("{} takes {} parameter{} ({}), got {}", name, expected,
                       expected == 1 ? "" : "s", what, v.size());
  };
  switch (kind) {
    case DistKind::Deterministic:
      if (auto e = count(1, "value"); !e.empty()) return e;
      if (v[0] < 0) return fmt::format("DETERMINISTIC: the value must be >= 0, got {}", v[0]);
      return {};
    case DistKind::Exponential:
      if (auto e = count(1, "mean"); !e.empty()) return e;
      if (v[0] <= 0) return fmt::format("EXPONENTIAL: the mean must be > 0, got {}", v[0]);
      return {};
    case DistKind::Erlang:
      if (auto e = count(2, "phase count k, mean of a phase"); !e.empty()) return e;
      if (!is_integer(v[0]) || v[0] < 1 || v[0] > std::numeric_limits<int>::max()) {
        return fmt::format("ERLANG: the phase count k must be an integer >= 1, got {}", v[0]);
      }
      if (v[1] <= 0) return fmt::format("ERLANG: the mean of a phase must be > 0, got {}", v[1]);
      return {};
    case DistKind::GeneralErlang:
      if (v.empty()) return "GERLANG takes the mean of every stage, got none";
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] <= 0) return fmt::format("GERLANG: the mean of stage {} must be > 0, got {}", i + 1, v[i]);
      }
      return {};
    case DistKind::HyperExponential: {
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
        total += v[i];
      }
      if (std::fabs(total - 1) > kTolerance) {
        return fmt::format("HYPEREXPONENTIAL: the probabilities sum to {}, not 1", total);
      }
      return {};
    }
    case DistKind::Uniform:
      if (auto e = count(2, "low, high"); !e.empty()) return e;
      if (v[0] < 0) return fmt::format("UNIFORM: low must be >= 0, got {}", v[0]);
      if (v[1] < v[0]) return fmt::format("UNIFORM: high ({}) must be >= low ({})", v[1], v[0]);
      return {};
    case DistKind::Normal:
      if (auto e = count(2, "mu, sigma"); !e.empty()) return e;
      if (v[1] <= 0) return fmt::format("NORMAL: sigma must be > 0, got {}", v[1]);
      return {};
    case DistKind::PhaseType: {
      const std::size_t n = order;
      if (n == 0 || v.size() != n + n * n) {
        return fmt::format("PHASETYPE needs an initial vector of n values and an n x n subgenerator");
      }
      double total = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (v[i] < 0) return fmt::format("PHASETYPE: alpha[{}] must be >= 0, got {}", i + 1, v[i]);
        total += v[i];
      }
      if (total > 1 + kTolerance) return fmt::format("PHASETYPE: alpha sums to {}, more than 1", total);
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
        }
        if (row > kTolerance) return fmt::format("PHASETYPE: row {} of S sums to {} > 0", r + 1, row);
      }
      return {};
    }
    case DistKind::Mixture: {
      if (v.empty()) return "MIXTURE takes pairs (weight, distribution), got none";
      double total = 0;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] < 0) return fmt::format("MIXTURE: weight {} must be >= 0, got {}", i + 1, v[i]);
        total += v[i];
      }
      if (std::fabs(total - 1) > kTolerance) return fmt::format("MIXTURE: the weights sum to {}, not 1", total);
      return {};
    }
    case DistKind::Samples:
      if (v.empty()) return "SAMPLES takes at least one measured runtime";
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] < 0) return fmt::format("SAMPLES: sample {} must be >= 0, got {}", i + 1, v[i]);
      }
      return {};
    case DistKind::Histogram: {
      if (v.size() < 2 || v.size() % 2 != 0) {
        return fmt::format("HISTOGRAM takes pairs (value, weight), got {} parameters", v.size());
      }
      double total = 0;
      for (std::size_t i = 0; i < v.size(); i += 2) {
        if (v[i] < 0) return fmt::format("HISTOGRAM: value {} must be >= 0, got {}", i / 2 + 1, v[i]);
        if (v[i + 1] < 0) return fmt::format("HISTOGRAM: weight {} must be >= 0, got {}", i / 2 + 1, v[i + 1]);
        total += v[i + 1];
      }
      if (total <= 0) return "HISTOGRAM: the weights sum to 0";
      return {};
    }
    case DistKind::Numerical:
      return {};
  }
  return {};
}

}  // namespace models
