// Series-parallel operations: exact closed-form fast paths first, the numerical grid otherwise.
#include <algorithm>
#include <cmath>
#include <limits>

#include "distributions/internal.hpp"
#include "distributions/errors.hpp"
#include "distributions/lattice.hpp"

namespace distributions {

using detail::make;
using detail::Node;

namespace {

// A sum of exponential stages stays a closed form while it has at most this many stages.
constexpr std::size_t kMaxClosedStages = 64;
// parallel_power(exponential) stays closed (as p stages) up to this p.
constexpr std::int64_t kMaxClosedMaxOfExponentials = 1'000'000;
// Phases of the largest Erlang a sum keeps closed. Boost.Math's incomplete gamma function
// (the Erlang's cdf and quantiles) gives up ("series evaluation exceeded 1000000 iterations")
// for shapes from about 1e11 near the mean; to 1e10 it holds at every point a grid uses
// (ErlangGridMatchesTheIncompleteGammaFunction). Longer sums go through the numerical grid,
// whose staged FFT power handles any count.
constexpr std::int64_t kMaxClosedErlangPhases = 10'000'000'000;

template <class T>
const T* as(const Distribution& d) {
  return std::get_if<T>(&d.node().value);
}

Distribution numerical(detail::Numerical n) { return make(std::move(n)); }

// Erlang or exponential as (phases, rate).
bool as_erlang(const Distribution& d, std::int64_t* phases, double* rate) {
  if (const auto* e = as<detail::Exponential>(d)) {
    *phases = 1;
    *rate = e->rate;
    return true;
  }
  if (const auto* e = as<detail::Erlang>(d)) {
    *phases = e->phases;
    *rate = e->rate;
    return true;
  }
  if (const auto* h = as<detail::Hypoexponential>(d)) {
    if (std::all_of(h->rates.begin(), h->rates.end(), [&](double r) { return r == h->rates.front(); })) {
      *phases = static_cast<std::int64_t>(h->rates.size());
      *rate = h->rates.front();
      return true;
    }
  }
  return false;
}

Distribution erlang_of(std::int64_t phases, double rate) {
  if (phases == 1) return make(detail::Exponential{rate});
  return make(detail::Erlang{phases, rate});
}

Distribution stages_of(std::vector<double> rates) {
  if (std::all_of(rates.begin(), rates.end(), [&](double r) { return r == rates.front(); })) {
    return erlang_of(static_cast<std::int64_t>(rates.size()), rates.front());
  }
  return make(detail::Hypoexponential{std::move(rates), 0.0});
}

void check_count(std::string_view where, std::string_view name, std::int64_t value, std::int64_t minimum) {
  if (value < minimum) {
    throw InvalidDistribution(std::string(where) + ": " + std::string(name) + " must be >= " + std::to_string(minimum) +
                              ", got " + std::to_string(value));
  }
}

}  // namespace

Distribution discretise(const Distribution& d, const GridOptions& options) {
  detail::require_valid("discretise", options);
  return numerical(detail::to_numerical(d, options));
}

Distribution from_samples(std::span<const double> samples, const GridOptions& options) {
  detail::require_valid("from_samples", options);
  if (samples.empty()) throw InvalidDistribution("from_samples: samples must not be empty");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    detail::require_finite_non_negative("from_samples", "samples[" + std::to_string(i) + "]", samples[i]);
  }
  const std::vector<double> weights(samples.size(), 1.0);
  return numerical(detail::lattice_from_points(samples, weights, options));
}

Distribution from_histogram(std::span<const double> values, std::span<const double> weights,
                            const GridOptions& options) {
  detail::require_valid("from_histogram", options);
  if (values.empty()) throw InvalidDistribution("from_histogram: values must not be empty");
  if (values.size() != weights.size()) {
    throw InvalidDistribution("from_histogram: values and weights must have the same size, got " +
                              std::to_string(values.size()) + " and " + std::to_string(weights.size()));
  }
  double total = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    detail::require_finite_non_negative("from_histogram", "values[" + std::to_string(i) + "]", values[i]);
    detail::require_finite_non_negative("from_histogram", "weights[" + std::to_string(i) + "]", weights[i]);
    total += weights[i];
  }
  if (!(total > 0.0) || !std::isfinite(total)) {
    detail::fail("from_histogram", "weights must have a positive finite total", total);
  }
  return numerical(detail::lattice_from_points(values, weights, options));
}

Distribution shift(const Distribution& a, double offset) {
  detail::require_finite("shift", "offset", offset);
  if (offset == 0.0) return a;
  if (const auto* d = as<detail::Deterministic>(a)) return make(detail::Deterministic{d->value + offset});
  if (const auto* d = as<detail::Uniform>(a)) {
    return make(detail::Uniform{d->low + offset, d->high + offset});
  }
  if (const auto* d = as<detail::Shifted>(a)) return shift(d->base, d->offset + offset);
  if (const auto* d = as<detail::Numerical>(a)) {
    detail::Numerical moved = *d;
    moved.origin += offset;
    return numerical(std::move(moved));
  }
  return make(detail::Shifted{offset, a});
}

Distribution scale(const Distribution& a, double factor) {
  detail::require_finite_positive("scale", "factor", factor);
  if (factor == 1.0) return a;
  return std::visit(
      [&](const auto& d) -> Distribution {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, detail::Deterministic>) {
          return make(detail::Deterministic{d.value * factor});
        } else if constexpr (std::is_same_v<T, detail::Exponential>) {
          return make(detail::Exponential{d.rate / factor});
        } else if constexpr (std::is_same_v<T, detail::Erlang>) {
          return make(detail::Erlang{d.phases, d.rate / factor});
        } else if constexpr (std::is_same_v<T, detail::Hypoexponential>) {
          detail::Hypoexponential s = d;
          for (double& r : s.rates) r /= factor;
          s.max_of_exponentials_rate /= factor;
          return make(std::move(s));
        } else if constexpr (std::is_same_v<T, detail::Hyperexponential>) {
          detail::Hyperexponential s = d;
          for (double& r : s.rates) r /= factor;
          return make(std::move(s));
        } else if constexpr (std::is_same_v<T, detail::Uniform>) {
          return make(detail::Uniform{d.low * factor, d.high * factor});
        } else if constexpr (std::is_same_v<T, detail::TruncatedNormal>) {
          return make(detail::TruncatedNormal{d.mu * factor, d.sigma * factor});
        } else if constexpr (std::is_same_v<T, detail::LogNormal>) {
          return make(detail::LogNormal{d.mu + std::log(factor), d.sigma});  // ln(cX) = ln c + ln X
        } else if constexpr (std::is_same_v<T, detail::Weibull>) {
          return make(detail::Weibull{d.shape, d.scale * factor});
        } else if constexpr (std::is_same_v<T, detail::Pareto>) {
          return make(detail::Pareto{d.alpha, d.scale * factor});
        } else if constexpr (std::is_same_v<T, detail::PhaseType>) {
          detail::PhaseType s = d;
          for (double& t : s.subgenerator) t /= factor;
          return make(std::move(s));
        } else if constexpr (std::is_same_v<T, detail::Mixture>) {
          detail::Mixture s = d;
          for (auto& c : s.components) c = scale(c, factor);
          return make(std::move(s));
        } else if constexpr (std::is_same_v<T, detail::Shifted>) {
          return make(detail::Shifted{d.offset * factor, scale(d.base, factor)});
        } else {
          detail::Numerical s = d;
          s.origin *= factor;
          s.step *= factor;
          s.slack *= factor;
          return numerical(std::move(s));
        }
      },
      a.node().value);
}

Distribution series(const Distribution& a, const Distribution& b, const GridOptions& options) {
  detail::require_valid("series", options);
  if (const auto* d = as<detail::Deterministic>(a)) return shift(b, d->value);
  if (const auto* d = as<detail::Deterministic>(b)) return shift(a, d->value);
  if (const auto* d = as<detail::Shifted>(a)) return shift(series(d->base, b, options), d->offset);
  if (const auto* d = as<detail::Shifted>(b)) return shift(series(a, d->base, options), d->offset);
  std::int64_t ka = 0;
  std::int64_t kb = 0;
  double ra = 0.0;
  double rb = 0.0;
  if (as_erlang(a, &ka, &ra) && as_erlang(b, &kb, &rb) && ra == rb && ka <= kMaxClosedErlangPhases - kb) {
    return erlang_of(ka + kb, ra);
  }
  std::vector<double> stages_a;
  std::vector<double> stages_b;
  if (detail::stage_rates(a.node(), &stages_a) && detail::stage_rates(b.node(), &stages_b) &&
      stages_a.size() + stages_b.size() <= kMaxClosedStages) {
    stages_a.insert(stages_a.end(), stages_b.begin(), stages_b.end());
    return stages_of(std::move(stages_a));
  }
  return numerical(detail::lattice_series(detail::to_numerical(a, options), detail::to_numerical(b, options), options));
}

Distribution series_power(const Distribution& a, std::int64_t n, const GridOptions& options) {
  detail::require_valid("series_power", options);
  check_count("series_power", "n", n, 0);
  if (n == 0) return deterministic(0.0);
  if (n == 1) return a;
  const auto nd = static_cast<double>(n);
  if (const auto* d = as<detail::Deterministic>(a)) return make(detail::Deterministic{nd * d->value});
  if (const auto* d = as<detail::Shifted>(a)) {
    return shift(series_power(d->base, n, options), nd * d->offset);
  }
  std::int64_t k = 0;
  double rate = 0.0;
  if (as_erlang(a, &k, &rate) && k <= kMaxClosedErlangPhases / n) {
    return erlang_of(k * n, rate);
  }
  std::vector<double> stages;
  if (detail::stage_rates(a.node(), &stages) && stages.size() * static_cast<std::size_t>(n) <= kMaxClosedStages) {
    std::vector<double> all;
    for (std::int64_t i = 0; i < n; ++i) all.insert(all.end(), stages.begin(), stages.end());
    return stages_of(std::move(all));
  }
  return numerical(detail::lattice_series_power(detail::to_numerical(a, options), n, options));
}

Distribution parallel(const Distribution& a, const Distribution& b, const GridOptions& options) {
  detail::require_valid("parallel", options);
  const auto* da = as<detail::Deterministic>(a);
  const auto* db = as<detail::Deterministic>(b);
  if (da && db) return make(detail::Deterministic{std::max(da->value, db->value)});
  if (!as<detail::Numerical>(a) && !as<detail::Numerical>(b)) {
    // max(v, X) is X when X >= v surely, and v when X <= v surely.
    if (da && detail::closed_support_min(b.node()) >= da->value) return b;
    if (db && detail::closed_support_min(a.node()) >= db->value) return a;
    if (da && detail::closed_support_max(b.node()) <= da->value) return a;
    if (db && detail::closed_support_max(a.node()) <= db->value) return b;
    const auto* sa = as<detail::Shifted>(a);
    const auto* sb = as<detail::Shifted>(b);
    if (sa && sb && sa->offset == sb->offset) {
      return shift(parallel(sa->base, sb->base, options), sa->offset);
    }
  }
  return numerical(detail::lattice_max(detail::to_numerical(a, options), detail::to_numerical(b, options), options));
}

Distribution parallel_power(const Distribution& a, std::int64_t p, const GridOptions& options) {
  detail::require_valid("parallel_power", options);
  check_count("parallel_power", "p", p, 1);
  if (p == 1 || as<detail::Deterministic>(a)) return a;
  if (const auto* d = as<detail::Shifted>(a)) {
    return shift(parallel_power(d->base, p, options), d->offset);
  }
  if (const auto* d = as<detail::Exponential>(a); d && p <= kMaxClosedMaxOfExponentials) {
    // Order statistics of exponentials: the maximum of p is a sum of stages of rates
    // p*rate, (p-1)*rate, ..., rate (memorylessness), mean H_p / rate.
    detail::Hypoexponential stages{std::vector<double>(static_cast<std::size_t>(p)), d->rate};
    for (std::int64_t j = 0; j < p; ++j) {
      stages.rates[static_cast<std::size_t>(j)] = static_cast<double>(p - j) * d->rate;
    }
    return make(std::move(stages));
  }
  return numerical(detail::lattice_max_power(detail::to_numerical(a, options), p, options));
}

Distribution minimum(const Distribution& a, const Distribution& b, const GridOptions& options) {
  detail::require_valid("minimum", options);
  const auto* da = as<detail::Deterministic>(a);
  const auto* db = as<detail::Deterministic>(b);
  if (da && db) return make(detail::Deterministic{std::min(da->value, db->value)});
  const auto* ea = as<detail::Exponential>(a);
  const auto* eb = as<detail::Exponential>(b);
  if (ea && eb) return make(detail::Exponential{ea->rate + eb->rate});
  if (!as<detail::Numerical>(a) && !as<detail::Numerical>(b)) {
    if (da && detail::closed_support_min(b.node()) >= da->value) return a;
    if (db && detail::closed_support_min(a.node()) >= db->value) return b;
    if (da && detail::closed_support_max(b.node()) <= da->value) return b;
    if (db && detail::closed_support_max(a.node()) <= db->value) return a;
    const auto* sa = as<detail::Shifted>(a);
    const auto* sb = as<detail::Shifted>(b);
    if (sa && sb && sa->offset == sb->offset) {
      return shift(minimum(sa->base, sb->base, options), sa->offset);
    }
  }
  return numerical(detail::lattice_min(detail::to_numerical(a, options), detail::to_numerical(b, options), options));
}

}  // namespace distributions
