// NEIGHBOR and NEIGHBOR-TORUS: w columns in contiguous blocks; between instances a column
// depends on its neighbours of the previous one (wrapping around for NEIGHBOR-TORUS).
// Exact: column c on the processor of its block, each processor its block left to right (or
// alternating, NeighborOrder) every instance; the neighbour arcs come from the concatenation
// (ExactBuilder::unit_instance), and a boundary no arc carries is exchanged right after the
// instance (ExactBuilder::send_boundaries). Approximate: each processor's block in series then
// its exchange (boundary_messages sends and receives), open; the neighbour synchronisation
// becomes a barrier (Kleinöder: an upper bound).
#include <algorithm>
#include <cstdint>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

std::int64_t boundary_messages(std::int64_t units, std::int64_t p) {
  const std::int64_t with_units = std::min(p, units);
  if (with_units >= 3) return 2;
  // Two processors with columns: one message each way, or two when a concatenation wraps
  // around (both boundaries go to the other processor) unless each holds one column.
  if (with_units == 2) return units >= 3 ? 2 : 1;
  return 0;
}

void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase) {
  UnitInstance instance = builder.unit_instance_of(phase);
  instance.scheduling = models::Scheduling::Block;
  instance.alternating = builder.neighbor_order() == NeighborOrder::Alternating;
  instance.torus = phase.scheme == models::Scheme::NeighborTorus;
  instance.message = UnitMessage::Boundary;
  builder.unit_instance(phase, instance);
}

Piece approximate_neighbor(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  // Each processor with columns sends its boundary to each neighbouring processor and receives
  // theirs: every processor is charged the most any processor sends and receives, so that the
  // exchange bounds the exact model's from above.
  const std::int64_t neighbours =
      boundary_messages(builder.count(*phase.units, phase.location, "number of tasks"), builder.processors());
  // Columns on one processor only: no neighbour, no message.
  return builder.unit_phase(phase, [neighbours](std::int64_t, double volume) {
    return ApproximateBuilder::UnitMessages{neighbours == 0 ? 0.0 : volume, neighbours, neighbours};
  });
}

}  // namespace scaling::detail
