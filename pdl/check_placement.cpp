// A NODE's placement given as a list of each node's ranks (docs/machine.md, "Nodes").
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "pdl/check_detail.hpp"

namespace pdl::detail {

namespace {

// One rank of a PLACEMENT list: a whole constant from 0 to 2^31 - 2.
std::optional<std::int64_t> placement_rank(const ast::Expression& at, const Scope& constants,
                                           const models::Environment& environment, Reporter& reporter) {
  Scope scope = constants;
  scope.context = "in a PLACEMENT list, which may use the machine's constants";
  const std::size_t errors = reporter.errors();
  const models::Expr expr = detail::convert(at, scope, reporter, nullptr);
  if (reporter.errors() != errors) return std::nullopt;
  const auto value = detail::constant_value(expr, environment, at, reporter);
  if (!value) return std::nullopt;
  if (!(*value >= 0 && *value <= 2147483646.0 && *value == std::floor(*value))) {
    reporter.error(at, fmt::format("a processor of a PLACEMENT list must be a whole number from 0 to 2147483646, "
                                   "got {}",
                                   *value));
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*value);
}

}  // namespace

bool check_placement_list(const ast::PlacementList& list, double k, const Scope& constants,
                          const models::Environment& environment, Reporter& reporter, models::Nodes& nodes) {
  const std::size_t errors = reporter.errors();
  std::map<std::int64_t, std::size_t> node_of;  // rank -> its node
  for (const ast::PlacementGroup& group : list) {
    const std::size_t node = nodes.listed.size();
    nodes.listed.emplace_back();
    if (static_cast<double>(group.size()) > k) {
      reporter.error(group, fmt::format("node {} lists {} processors, more than the node's PROCESSORS ({})", node,
                                        group.size(), k));
    }
    for (const ast::Expression& rank_at : group) {
      const auto rank = placement_rank(rank_at, constants, environment, reporter);
      if (!rank) continue;
      if (const auto [it, fresh] = node_of.emplace(*rank, node); !fresh) {
        reporter.error(rank_at, fmt::format("processor {} is placed twice (first on node {})", *rank, it->second));
        continue;
      }
      nodes.listed.back().push_back(*rank);
    }
  }
  std::int64_t expected = 0;
  for (const auto& [rank, node] : node_of) {
    if (rank != expected) break;
    ++expected;
  }
  if (reporter.errors() == errors && expected != static_cast<std::int64_t>(node_of.size())) {
    reporter.error(list, fmt::format("processor {} is on no node: a PLACEMENT list names each of the processors 0 "
                                     "to N - 1 once",
                                     expected));
  }
  return reporter.errors() == errors;
}

}  // namespace pdl::detail
