#include "distributions/distribution_bytes.hpp"

#include <memory>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "distributions/representation.hpp"

namespace distributions {

namespace {

using distributed::Reader;
using distributed::Writer;

void put_doubles(Writer& out, const std::vector<double>& values) { out.put_all(std::span<const double>(values)); }

void put_node(Writer& out, const detail::Node& node) {
  out.put<std::uint32_t>(static_cast<std::uint32_t>(node.value.index()));
  std::visit(
      [&out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, detail::Deterministic>) {
          out.put(v.value);
        } else if constexpr (std::is_same_v<T, detail::Exponential>) {
          out.put(v.rate);
        } else if constexpr (std::is_same_v<T, detail::Erlang>) {
          out.put(v.phases);
          out.put(v.rate);
        } else if constexpr (std::is_same_v<T, detail::Hypoexponential>) {
          put_doubles(out, v.rates);
          out.put(v.max_of_exponentials_rate);
        } else if constexpr (std::is_same_v<T, detail::Hyperexponential>) {
          put_doubles(out, v.probabilities);
          put_doubles(out, v.rates);
        } else if constexpr (std::is_same_v<T, detail::Uniform>) {
          out.put(v.low);
          out.put(v.high);
        } else if constexpr (std::is_same_v<T, detail::TruncatedNormal> || std::is_same_v<T, detail::LogNormal>) {
          out.put(v.mu);
          out.put(v.sigma);
        } else if constexpr (std::is_same_v<T, detail::Weibull>) {
          out.put(v.shape);
          out.put(v.scale);
        } else if constexpr (std::is_same_v<T, detail::Pareto>) {
          out.put(v.alpha);
          out.put(v.scale);
        } else if constexpr (std::is_same_v<T, detail::PhaseType>) {
          out.put<std::uint64_t>(v.size);
          put_doubles(out, v.alpha);
          put_doubles(out, v.subgenerator);
          out.put(v.atom_at_zero);
        } else if constexpr (std::is_same_v<T, detail::Mixture>) {
          put_doubles(out, v.weights);
          out.put<std::uint64_t>(v.components.size());
          for (const Distribution& component : v.components) put_node(out, component.node());
        } else if constexpr (std::is_same_v<T, detail::Shifted>) {
          out.put(v.offset);
          put_node(out, v.base.node());
        } else {
          static_assert(std::is_same_v<T, detail::Numerical>);
          out.put(v.origin);
          out.put(v.step);
          put_doubles(out, v.lower);
          put_doubles(out, v.upper);
          out.put(v.slack);
        }
      },
      node.value);
}

Distribution get_node(Reader& in);

// The get_* functions read what put_node wrote for one kind of node, after its index.

detail::PhaseType get_phase_type(Reader& in) {
  const auto size = static_cast<std::size_t>(in.get<std::uint64_t>());
  auto alpha = in.get_all<double>();
  auto subgenerator = in.get_all<double>();
  return detail::PhaseType{size, std::move(alpha), std::move(subgenerator), in.get<double>()};
}

detail::Mixture get_mixture(Reader& in) {
  detail::Mixture mixture;
  mixture.weights = in.get_all<double>();
  const auto count = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < count; ++i) mixture.components.push_back(get_node(in));
  return mixture;
}

// A law of two parameters, in the order put_node wrote them.
template <class Law>
Law get_pair(Reader& in) {
  const double first = in.get<double>();
  return Law{first, in.get<double>()};
}

detail::Numerical get_numerical(Reader& in) {
  detail::Numerical numerical;
  numerical.origin = in.get<double>();
  numerical.step = in.get<double>();
  numerical.lower = in.get_all<double>();
  numerical.upper = in.get_all<double>();
  numerical.slack = in.get<double>();
  return numerical;
}

Distribution get_node(Reader& in) {
  auto node = std::make_shared<detail::Node>();
  switch (in.get<std::uint32_t>()) {
    case 0: node->value = detail::Deterministic{in.get<double>()}; break;
    case 1: node->value = detail::Exponential{in.get<double>()}; break;
    case 2: {
      const auto phases = in.get<std::int64_t>();
      node->value = detail::Erlang{phases, in.get<double>()};
      break;
    }
    case 3: {
      auto rates = in.get_all<double>();
      node->value = detail::Hypoexponential{std::move(rates), in.get<double>()};
      break;
    }
    case 4: {
      auto probabilities = in.get_all<double>();
      node->value = detail::Hyperexponential{std::move(probabilities), in.get_all<double>()};
      break;
    }
    case 5: {
      const double low = in.get<double>();
      node->value = detail::Uniform{low, in.get<double>()};
      break;
    }
    case 6: {
      const double mu = in.get<double>();
      node->value = detail::TruncatedNormal{mu, in.get<double>()};
      break;
    }
    case 7: node->value = get_phase_type(in); break;
    case 8: node->value = get_mixture(in); break;
    case 9: {
      const double offset = in.get<double>();
      node->value = detail::Shifted{offset, get_node(in)};
      break;
    }
    case 10: node->value = get_numerical(in); break;
    case 11: node->value = get_pair<detail::LogNormal>(in); break;
    case 12: node->value = get_pair<detail::Weibull>(in); break;
    case 13: node->value = get_pair<detail::Pareto>(in); break;
    default: throw std::runtime_error("get_distribution: not a distribution's bytes");
  }
  return Distribution(std::move(node));
}

}  // namespace

void put_distribution(Writer& out, const Distribution& distribution) { put_node(out, distribution.node()); }

Distribution get_distribution(Reader& in) { return get_node(in); }

}  // namespace distributions
