// Fast sampling of a Distribution for Monte Carlo, header-only so that the per-sample code
// inlines into the simulator's loop.
//
// The constructor turns the distribution into a flat plan (a method tag, a few parameters and
// tables); operator() is a switch on the tag, with no virtual call, no std::variant visit and
// no std::*_distribution object per sample. Methods:
//   Erlang, k <= 16      -log(u_1 * ... * u_k) / rate          (one log per sample)
//   Erlang, k > 16       Marsaglia-Tsang gamma(k) / rate
//   hypoexponential      sum of -log(u_i) / rate_i; the maximum of p iid exponentials (what
//                        parallel_power(exponential) gives) by inversion in O(1)
//   hyperexponential,    Walker alias table for the branch, then the branch's sampler
//   mixture
//   truncated normal     rejection from the normal, or Robert's exponential proposal in the tail
//   lognormal            exp(mu + sigma z), z a standard normal
//   Weibull, Pareto      inversion: scale (-log u)^(1/shape), scale u^(-1/alpha)
//   phase-type           simulate the absorbing chain
//   numerical grid       alias table over the central estimate (lower and upper lattices, each
//                        shifted half the gap towards the other, see docs/distributions.md),
//                        plus a uniform jitter within the cell
// Rng is any 64-bit uniform random bit generator (e.g. distributions::Xoshiro256pp). The same
// generator state always gives the same sequence.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/representation.hpp"

namespace distributions {

class Sampler {
 public:
  explicit Sampler(const Distribution& d) { build(d.node()); }

  template <class Rng>
  double operator()(Rng& rng) const {
    static_assert(Rng::max() - Rng::min() == std::numeric_limits<std::uint64_t>::max(),
                  "Sampler needs a 64-bit uniform random bit generator");
    switch (method_) {
      case Method::constant: return a_;
      case Method::exponential: return -std::log(uniform_open_closed(rng)) * a_;
      case Method::erlang_product: {
        double product = uniform_open_closed(rng);
        for (std::int64_t i = 1; i < k_; ++i) product *= uniform_open_closed(rng);
        return -std::log(product) * a_;
      }
      case Method::erlang_gamma: return marsaglia_tsang(rng) * a_;
      case Method::stages: {
        double total = 0.0;
        for (double inverse_rate : values_) total -= std::log(uniform_open_closed(rng)) * inverse_rate;
        return total;
      }
      case Method::max_of_exponentials: {
        // F(x) = (1 - e^{-rate x})^p  =>  x = -log(1 - u^{1/p}) / rate.
        const double u = uniform_open(rng);
        return -std::log(-std::expm1(std::log(u) * b_)) * a_;
      }
      case Method::uniform: return a_ + b_ * uniform_closed_open(rng);
      case Method::normal_rejection: {
        for (;;) {
          const double z = standard_normal(rng);
          if (z >= c_) return a_ + b_ * z;
        }
      }
      case Method::normal_tail: {
        // Robert (1995): exponential proposal of rate lambda* on [c, inf).
        for (;;) {
          const double z = c_ - std::log(uniform_open_closed(rng)) * d_;
          const double excess = z - 1.0 / d_;
          if (uniform_open_closed(rng) <= std::exp(-0.5 * excess * excess)) return a_ + b_ * z;
        }
      }
      case Method::lognormal: return std::exp(a_ + b_ * standard_normal(rng));
      case Method::weibull: return a_ * std::exp(b_ * std::log(-std::log(uniform_open(rng))));
      case Method::pareto: return a_ * std::pow(uniform_open_closed(rng), b_);
      case Method::phase_type: return sample_phase_type(rng);
      case Method::branches: {
        const std::size_t branch = alias_pick(rng);
        return children_[branch](rng);
      }
      case Method::shifted: return a_ + children_.front()(rng);
      case Method::table: {
        const std::size_t cell = alias_pick(rng);
        return values_[cell] + b_ * (uniform_closed_open(rng) - 0.5);
      }
    }
    return 0.0;  // unreachable
  }

 private:
  enum class Method : std::uint8_t {
    constant,
    exponential,
    erlang_product,
    erlang_gamma,
    stages,
    max_of_exponentials,
    uniform,
    normal_rejection,
    normal_tail,
    lognormal,
    weibull,
    pareto,
    phase_type,
    branches,
    shifted,
    table,
  };

  // A uniform double in (0, 1).
  template <class Rng>
  static double uniform_open(Rng& rng) {
    return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
  }

  template <class Rng>
  static double standard_normal(Rng& rng) {
    // Marsaglia polar method; the second variate is dropped to keep the sampler stateless.
    for (;;) {
      const double x = 2.0 * uniform_closed_open(rng) - 1.0;
      const double y = 2.0 * uniform_closed_open(rng) - 1.0;
      const double s = x * x + y * y;
      if (s > 0.0 && s < 1.0) return x * std::sqrt(-2.0 * std::log(s) / s);
    }
  }

  // Gamma(shape k, scale 1) for k > 1 (Marsaglia & Tsang 2000); d_ = k - 1/3, c_ = 1/sqrt(9 d).
  template <class Rng>
  double marsaglia_tsang(Rng& rng) const {
    for (;;) {
      double x;
      double v;
      do {
        x = standard_normal(rng);
        v = 1.0 + c_ * x;
      } while (v <= 0.0);
      v = v * v * v;
      const double u = uniform_open_closed(rng);
      if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d_ * v;
      if (std::log(u) < 0.5 * x * x + d_ * (1.0 - v + std::log(v))) return d_ * v;
    }
  }

  // Walker alias table: one 64-bit draw picks a column (high 32 bits) and tests its
  // threshold (low 32 bits).
  template <class Rng>
  std::size_t alias_pick(Rng& rng) const {
    const std::uint64_t r = rng();
    const std::uint64_t column = ((r >> 32) * alias_threshold_.size()) >> 32;
    const auto threshold = static_cast<std::uint32_t>(r);
    return threshold < alias_threshold_[column] ? column : alias_other_[column];
  }

  template <class Rng>
  double sample_phase_type(Rng& rng) const {
    // values_: inverse exit rates per state; row_cdf_: for the start (row n) and each state,
    // the cumulative probabilities of the next state (column n = absorption).
    const std::size_t n = values_.size();
    std::size_t state = pick_row(n, uniform_closed_open(rng));
    double total = 0.0;
    while (state < n) {
      total -= std::log(uniform_open_closed(rng)) * values_[state];
      state = pick_row(state, uniform_closed_open(rng));
    }
    return total;
  }
  std::size_t pick_row(std::size_t row, double u) const {
    const std::size_t n = values_.size();
    const double* cumulative = row_cdf_.data() + row * (n + 1);
    for (std::size_t j = 0; j < n; ++j) {
      if (u < cumulative[j]) return j;
    }
    return n;
  }

  void build_alias(const std::vector<double>& weights) {
    const std::size_t n = weights.size();
    double total = 0.0;
    for (double w : weights) total += w;
    std::vector<double> scaled(n);
    for (std::size_t i = 0; i < n; ++i) scaled[i] = weights[i] / total * static_cast<double>(n);
    alias_threshold_.assign(n, 0);
    alias_other_.assign(n, 0);
    std::vector<std::size_t> small;
    std::vector<std::size_t> large;
    for (std::size_t i = 0; i < n; ++i) (scaled[i] < 1.0 ? small : large).push_back(i);
    auto threshold_of = [](double p) -> std::uint32_t {
      if (p >= 1.0) return std::numeric_limits<std::uint32_t>::max();
      return static_cast<std::uint32_t>(p * 4294967296.0);
    };
    while (!small.empty() && !large.empty()) {
      const std::size_t s = small.back();
      small.pop_back();
      const std::size_t l = large.back();
      alias_threshold_[s] = threshold_of(scaled[s]);
      alias_other_[s] = static_cast<std::uint32_t>(l);
      scaled[l] -= 1.0 - scaled[s];
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    // Leftovers are 1 up to rounding: always take the column itself.
    for (std::size_t i : large) {
      alias_threshold_[i] = std::numeric_limits<std::uint32_t>::max();
      alias_other_[i] = static_cast<std::uint32_t>(i);
    }
    for (std::size_t i : small) {
      alias_threshold_[i] = std::numeric_limits<std::uint32_t>::max();
      alias_other_[i] = static_cast<std::uint32_t>(i);
    }
  }

  void build(const detail::Node& node) {
    std::visit([this](const auto& d) { this->build_from(d); }, node.value);
  }

  void build_from(const detail::Deterministic& d) {
    method_ = Method::constant;
    a_ = d.value;
  }
  void build_from(const detail::Exponential& d) {
    method_ = Method::exponential;
    a_ = 1.0 / d.rate;
  }
  void build_from(const detail::Erlang& d) {
    a_ = 1.0 / d.rate;
    k_ = d.phases;
    if (d.phases == 1) {
      method_ = Method::exponential;
    } else if (d.phases <= 16) {
      // 16 uniforms >= 2^-53 multiply to >= 2^-848: no underflow.
      method_ = Method::erlang_product;
    } else {
      method_ = Method::erlang_gamma;
      d_ = static_cast<double>(d.phases) - 1.0 / 3.0;
      c_ = 1.0 / std::sqrt(9.0 * d_);
    }
  }
  void build_from(const detail::Hypoexponential& d) {
    if (d.max_of_exponentials_rate > 0.0) {
      method_ = Method::max_of_exponentials;
      a_ = 1.0 / d.max_of_exponentials_rate;
      b_ = 1.0 / static_cast<double>(d.rates.size());
      return;
    }
    method_ = Method::stages;
    values_.clear();
    for (double rate : d.rates) values_.push_back(1.0 / rate);
  }
  void build_from(const detail::Hyperexponential& d) {
    method_ = Method::branches;
    build_alias(d.probabilities);
    for (double rate : d.rates) children_.emplace_back(exponential(rate));
  }
  void build_from(const detail::Uniform& d) {
    method_ = Method::uniform;
    a_ = d.low;
    b_ = d.high - d.low;
  }
  void build_from(const detail::TruncatedNormal& d) {
    a_ = d.mu;
    b_ = d.sigma;
    c_ = -d.mu / d.sigma;  // standardised truncation point
    if (c_ < 0.5) {
      method_ = Method::normal_rejection;  // acceptance probability >= 0.3
    } else {
      method_ = Method::normal_tail;
      const double optimal_rate = 0.5 * (c_ + std::sqrt(c_ * c_ + 4.0));
      d_ = 1.0 / optimal_rate;
    }
  }
  void build_from(const detail::LogNormal& d) {
    method_ = Method::lognormal;
    a_ = d.mu;
    b_ = d.sigma;
  }
  void build_from(const detail::Weibull& d) {
    method_ = Method::weibull;
    a_ = d.scale;
    b_ = 1.0 / d.shape;
  }
  void build_from(const detail::Pareto& d) {
    method_ = Method::pareto;  // u in (0, 1]: at least the scale, never infinite
    a_ = d.scale;
    b_ = -1.0 / d.alpha;
  }
  void build_from(const detail::PhaseType& d) {
    method_ = Method::phase_type;
    const std::size_t n = d.size;
    values_.assign(n, 0.0);
    row_cdf_.assign((n + 1) * (n + 1), 1.0);
    auto fill_row = [&](std::size_t row, auto probability_of) {
      double cumulative = 0.0;
      for (std::size_t j = 0; j < n; ++j) {
        cumulative += probability_of(j);
        row_cdf_[row * (n + 1) + j] = cumulative;
      }
      row_cdf_[row * (n + 1) + n] = 1.0;
    };
    for (std::size_t i = 0; i < n; ++i) {
      const double exit_total = -d.subgenerator[i * n + i];
      values_[i] = 1.0 / exit_total;
      fill_row(i, [&](std::size_t j) { return j == i ? 0.0 : d.subgenerator[i * n + j] / exit_total; });
    }
    fill_row(n, [&](std::size_t j) { return d.alpha[j]; });
  }
  void build_from(const detail::Mixture& d) {
    method_ = Method::branches;
    build_alias(d.weights);
    for (const auto& component : d.components) children_.emplace_back(component);
  }
  void build_from(const detail::Shifted& d) {
    method_ = Method::shifted;
    a_ = d.offset;
    children_.emplace_back(d.base);
  }
  void build_from(const detail::Numerical& d) {
    method_ = Method::table;
    const std::size_t n = d.lower.size();
    double mean_lower = 0.0;
    double mean_upper = 0.0;
    double total_lower = 0.0;
    double total_upper = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double x = d.origin + static_cast<double>(i) * d.step;
      mean_lower += d.lower[i] * x;
      mean_upper += d.upper[i] * x;
      total_lower += d.lower[i];
      total_upper += d.upper[i];
    }
    const double half_gap = 0.5 * (mean_upper / total_upper - mean_lower / total_lower);
    std::vector<double> weights;
    weights.reserve(2 * n);
    values_.clear();
    values_.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = d.origin + static_cast<double>(i) * d.step;
      if (d.lower[i] > 0.0) {
        weights.push_back(d.lower[i] / total_lower);
        values_.push_back(x + half_gap);
      }
      if (d.upper[i] > 0.0) {
        weights.push_back(d.upper[i] / total_upper);
        values_.push_back(x - half_gap);
      }
    }
    b_ = d.step;
    build_alias(weights);
  }

  Method method_ = Method::constant;
  double a_ = 0.0;
  double b_ = 0.0;
  double c_ = 0.0;
  double d_ = 0.0;
  std::int64_t k_ = 0;
  std::vector<double> values_;
  std::vector<double> row_cdf_;
  std::vector<std::uint32_t> alias_threshold_;
  std::vector<std::uint32_t> alias_other_;
  std::vector<Sampler> children_;
};

}  // namespace distributions
