#include "distributions/fingerprint.hpp"

#include <bit>
#include <type_traits>
#include <variant>

#include "distributions/representation.hpp"

namespace distributions {

namespace {

// Two different multiply-rotate mixes (the 64-bit constants of MurmurHash3 and of xxHash):
// a word that collides in one does not collide in the other by the same accident.
std::uint64_t mix(std::uint64_t state, std::uint64_t word, std::uint64_t multiplier, int rotation) {
  state ^= word * multiplier;
  state = std::rotl(state, rotation);
  return state * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

}  // namespace

void Fingerprint::add(std::uint64_t word) {
  first_ = mix(first_, word, 0x87c37b91114253d5ULL, 31);
  second_ = mix(second_, word ^ 0xa5a5a5a5a5a5a5a5ULL, 0xc2b2ae3d27d4eb4fULL, 27);
}

void Fingerprint::add(double value) { add(std::bit_cast<std::uint64_t>(value == 0.0 ? 0.0 : value)); }

void Fingerprint::add(std::string_view text) {
  add(static_cast<std::uint64_t>(text.size()));
  for (char c : text) add(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
}

void Fingerprint::add(const Distribution& distribution) {
  const detail::Node& node = distribution.node();
  add(static_cast<std::uint64_t>(node.value.index()));
  const auto numbers = [this](const std::vector<double>& values) {
    add(static_cast<std::uint64_t>(values.size()));
    for (double v : values) add(v);
  };
  std::visit(
      [&](const auto& law) {
        using Law = std::decay_t<decltype(law)>;
        if constexpr (std::is_same_v<Law, detail::Deterministic>) {
          add(law.value);
        } else if constexpr (std::is_same_v<Law, detail::Exponential>) {
          add(law.rate);
        } else if constexpr (std::is_same_v<Law, detail::Erlang>) {
          add(static_cast<std::uint64_t>(law.phases));
          add(law.rate);
        } else if constexpr (std::is_same_v<Law, detail::Hypoexponential>) {
          numbers(law.rates);
          add(law.max_of_exponentials_rate);
        } else if constexpr (std::is_same_v<Law, detail::Hyperexponential>) {
          numbers(law.probabilities);
          numbers(law.rates);
        } else if constexpr (std::is_same_v<Law, detail::Uniform>) {
          add(law.low);
          add(law.high);
        } else if constexpr (std::is_same_v<Law, detail::TruncatedNormal> || std::is_same_v<Law, detail::LogNormal>) {
          add(law.mu);
          add(law.sigma);
        } else if constexpr (std::is_same_v<Law, detail::Weibull>) {
          add(law.shape);
          add(law.scale);
        } else if constexpr (std::is_same_v<Law, detail::Pareto>) {
          add(law.alpha);
          add(law.scale);
        } else if constexpr (std::is_same_v<Law, detail::PhaseType>) {
          add(static_cast<std::uint64_t>(law.size));
          numbers(law.alpha);
          numbers(law.subgenerator);
          add(law.atom_at_zero);
        } else if constexpr (std::is_same_v<Law, detail::Mixture>) {
          numbers(law.weights);
          for (const Distribution& component : law.components) add(component);
        } else if constexpr (std::is_same_v<Law, detail::Shifted>) {
          add(law.offset);
          add(law.base);
        } else {
          static_assert(std::is_same_v<Law, detail::Numerical>);
          add(law.origin);
          add(law.step);
          numbers(law.lower);
          numbers(law.upper);
          add(law.slack);
        }
      },
      node.value);
}

}  // namespace distributions
