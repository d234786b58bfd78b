// NEIGHBOR and NEIGHBOR-TORUS: w columns in contiguous blocks; between instances a column
// depends on its neighbours of the previous one (wrapping around for NEIGHBOR-TORUS).
// Exact: column c on the processor of its block, each processor its block left to right (or
// alternating, NeighborOrder) every instance; the neighbour arcs come from the concatenation
// (ExactBuilder::unit_instance), a boundary no arc carried is sent before the next
// synchronisation. Approximate: each processor's block in series then one boundary exchange,
// open; the neighbour synchronisation becomes a barrier (Kleinöder: an upper bound).
#include <cstdint>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase) {
  UnitInstance instance = builder.unit_instance_of(phase);
  instance.scheduling = models::Scheduling::Block;
  instance.alternating = builder.neighbor_order() == NeighborOrder::Alternating;
  instance.torus = phase.scheme == models::Scheme::NeighborTorus;
  instance.message = UnitMessage::Boundary;
  builder.unit_instance(phase, instance);
}

Piece approximate_neighbor(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  // Each processor with columns exchanges one boundary.
  return builder.unit_phase(phase, [](std::int64_t, double volume) { return volume; });
}

}  // namespace scaling::detail
