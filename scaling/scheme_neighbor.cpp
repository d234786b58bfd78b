// NEIGHBOR and NEIGHBOR-TORUS: w columns in contiguous blocks; between instances a column
// depends on its neighbours of the previous one (wrapping around for NEIGHBOR-TORUS).
// Exact: column c on the processor of its block, each processor its block left to right (or
// alternating, NeighborOrder) every instance; the neighbour arcs come from the concatenation
// (ExactBuilder::unit_instance), and a boundary no arc carries is exchanged right after the
// instance (ExactBuilder::send_boundaries). Approximate: each processor's block in series then
// its exchange (boundary_messages sends and receives), open; the neighbour synchronisation
// becomes a barrier (Kleinöder: an upper bound). DECOMPOSITION IS 2D: a GRID's points in
// blocks over a processor grid (grid_layout.hpp), each block's edges sent to its up to four
// neighbours after its last point.
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "scaling/grid_layout.hpp"
#include "scaling/scheme_builders.hpp"
#include "scaling/step_transfers.hpp"

namespace scaling::detail {

std::int64_t boundary_messages(std::int64_t units, std::int64_t p) {
  const std::int64_t with_units = std::min(p, units);
  if (with_units >= 3) return 2;
  // Two processors with columns: one message each way, or two when a concatenation wraps
  // around (both boundaries go to the other processor) unless each holds one column.
  if (with_units == 2) return units >= 3 ? 2 : 1;
  return 0;
}

namespace {

// The phase's GRID on the builder's processors (DECOMPOSITION IS 2D).
template <class Builder>
GridLayout layout_of(const Builder& builder, const models::WorkPhase& phase) {
  const models::ProblemSize& size = *phase.problem_size;
  return grid_layout(builder.count(size.extents[0], size.location, "grid height"),
                     builder.count(size.extents[1], size.location, "grid width"), builder.processors());
}

// 2-D, approximate (docs/semantics.md N7): every processor with points runs them, then pays the
// most send overheads any processor pays, the longest message's transfer and the most receive
// overheads any processor pays; the NEIGHBOR joint closes the instance.
Piece approximate_grid(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const GridLayout layout = layout_of(builder, phase);
  const double volume = builder.value(phase.volume, phase.location, "communication volume");
  std::vector<double> sends(static_cast<std::size_t>(layout.processors()), 0.0);
  std::vector<double> receives(sends.size(), 0.0);
  double longest = 0.0;
  const std::vector<GridMessage> edges = grid_messages(layout);
  // The instance's edge messages are one step.
  const double sharing =
      builder.shares_bandwidth() && builder.processors() > 1 ? builder.sharing(grid_transfers(edges)) : 1.0;
  std::map<std::int64_t, double> overhead_of;  // per edge length: a layout's 4p edges have a handful
  for (const GridMessage& m : edges) {
    const double bytes = static_cast<double>(m.points) * volume;
    auto known = overhead_of.find(m.points);
    if (known == overhead_of.end()) {
      known = overhead_of.emplace(m.points, builder.overhead_seconds(bytes, phase.location, sharing)).first;
    }
    const double o = known->second;
    sends[static_cast<std::size_t>(m.from)] += o;
    receives[static_cast<std::size_t>(m.to)] += o;
    longest = std::max(longest, bytes);
  }
  const double exchange = *std::max_element(sends.begin(), sends.end()) +
                          builder.communication_seconds(longest, phase.location, sharing) +
                          *std::max_element(receives.begin(), receives.end());
  const std::size_t messages = exchange > 0.0 ? builder.leaf("boundary exchange", graph::NodeKind::Communication,
                                                             distributions::deterministic(exchange))
                                              : kZero;
  const distributions::Distribution task = builder.runtime(*phase.runtime);
  const std::size_t one = builder.leaf(phase.name + " task", graph::NodeKind::Task, task);
  std::map<std::int64_t, std::size_t> made;  // per point count: the work of a processor
  Work work;
  for (std::int64_t k = 0; k < layout.processors(); ++k) {
    const std::int64_t c = layout.points_of(k);
    auto found = made.find(c);
    if (found == made.end()) {
      found = made.emplace(c, c == 0 ? kZero : builder.series({builder.power(one, c), messages})).first;
    }
    if (!work.empty() && work.back().tree == found->second)
      work.back().end = k + 1;
    else
      work.push_back({k, k + 1, found->second});
  }
  const std::int64_t points = builder.count(*phase.units, phase.location, "number of tasks");
  const std::size_t delay = builder.contention(static_cast<double>(points) * distributions::mean(task), phase.location);
  if (delay != kZero) work = builder.then(work, builder.uniform(delay));
  return builder.open_phase(phase, std::move(work));
}

}  // namespace

bool grid_exchanges(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  if (builder.processors() == 1 || builder.value(phase.volume, phase.location, "communication volume") == 0.0) {
    return false;
  }
  return !grid_messages(layout_of(builder, phase)).empty();
}

void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase) {
  if (phase.decomposition == models::Decomposition::TwoD) {
    UnitInstance instance = builder.unit_instance_of(phase);
    instance.message = UnitMessage::Boundary;
    builder.grid_instance(phase, instance, layout_of(builder, phase));
    return;
  }
  UnitInstance instance = builder.unit_instance_of(phase);
  instance.scheduling = models::Scheduling::Block;
  instance.alternating = builder.neighbor_order() == NeighborOrder::Alternating;
  instance.torus = phase.scheme == models::Scheme::NeighborTorus;
  instance.message = UnitMessage::Boundary;
  builder.unit_instance(phase, instance);
}

Piece approximate_neighbor(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  if (phase.decomposition == models::Decomposition::TwoD) return approximate_grid(builder, phase);
  // Each processor with columns sends its boundary to each neighbouring processor and receives
  // theirs: every processor is charged the most any processor sends and receives, so that the
  // exchange bounds the exact model's from above.
  const std::int64_t units = builder.count(*phase.units, phase.location, "number of tasks");
  const std::int64_t neighbours = boundary_messages(units, builder.processors());
  // The exchange's messages are one step (N3).
  const double sharing = builder.shares_bandwidth()
                             ? builder.sharing(neighbor_exchange_transfers(
                                   units, builder.processors(), phase.scheme == models::Scheme::NeighborTorus))
                             : 1.0;
  // Columns on one processor only: no neighbour, no message.
  return builder.unit_phase(phase, [neighbours, sharing](std::int64_t, double volume) {
    return ApproximateBuilder::UnitMessages{neighbours == 0 ? 0.0 : volume, neighbours, neighbours, sharing};
  });
}

}  // namespace scaling::detail
