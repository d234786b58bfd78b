// Every parallelization scheme's two builders, its exact model (a phase instance added to a
// scenario's task graph) and its approximate model (the phase instance as a piece of the
// series-parallel tree), each pair in its own scheme_*.cpp, and builders_of, the one place
// both pattern walks (exact_model.cpp, approximate_model.cpp) pick them for a phase. A new
// scheme is a new scheme file, its two declarations here and one line in builders_of.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "models/program.hpp"
#include "scaling/collective_schedule.hpp"
#include "scaling/approximate_builder.hpp"
#include "scaling/exact_builder.hpp"

namespace scaling::detail {

// The most boundary messages a processor of a NEIGHBOR instance of `units` columns on p
// processors sends (and receives) in the approximate model's exchange.
std::int64_t boundary_messages(std::int64_t units, std::int64_t p);
// A 2-D NEIGHBOR instance of the phase sends something: p > 1, a volume and two neighbouring
// blocks with points.
bool grid_exchanges(ApproximateBuilder& builder, const models::WorkPhase& phase);

struct SchemeBuilders {
  void (*exact)(ExactBuilder& builder, const models::WorkPhase& phase);
  Piece (*approximate)(ApproximateBuilder& builder, const models::WorkPhase& phase);
};

void exact_independent(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_independent(ApproximateBuilder& builder, const models::WorkPhase& phase);

// NEIGHBOR and NEIGHBOR-TORUS.
void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_neighbor(ApproximateBuilder& builder, const models::WorkPhase& phase);

void exact_paired(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_paired(ApproximateBuilder& builder, const models::WorkPhase& phase);

void exact_macropipeline(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_macropipeline(ApproximateBuilder& builder, const models::WorkPhase& phase);

void exact_fork_join(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_fork_join(ApproximateBuilder& builder, const models::WorkPhase& phase);

void exact_arbitrary(ExactBuilder& builder, const models::WorkPhase& phase);
Piece approximate_arbitrary(ApproximateBuilder& builder, const models::WorkPhase& phase);

// A sequential phase has no scheme; the pattern walks call these for it directly. `where`:
// the phase's place in the pattern.
void exact_sequential(ExactBuilder& builder, const models::SequentialPhase& phase, const models::SourceLocation& where);
Piece approximate_sequential(ApproximateBuilder& builder, const models::SequentialPhase& phase);

// A collective operation (BROADCAST(v), ... in the pattern) and SYNC on a machine whose barrier
// is an algorithm of messages (scheme_collective.cpp, docs/semantics.md section Q): the
// schedule of the machine's algorithm for the operation on the builder's p processors.
CollectiveSchedule collective_schedule(const models::Machine& machine, models::CollectiveOperation operation,
                                       std::int64_t p, double volume);
// The schedule of a Collective pattern node, its volume evaluated by `builder` (either model's),
// and of the barrier SYNC stands for.
template <class Builder>
CollectiveSchedule collective_of(const Builder& builder, const models::PatternNode& node) {
  const double volume = builder.value(node.volume, node.location, "the volume of a collective");
  if (!(volume >= 0.0) || !std::isfinite(volume)) {
    throw ScalingError(node.location,
                       fmt::format("the volume of {} must be a finite number of bytes >= 0, got {:g} at P = {}",
                                   models::to_string(node.collective), volume, builder.processors()));
  }
  return collective_schedule(builder.machine(), node.collective, builder.processors(), volume);
}
template <class Builder>
CollectiveSchedule barrier_of(const Builder& builder) {
  return collective_schedule(builder.machine(), models::CollectiveOperation::Barrier, builder.processors(), 0.0);
}
// True when SYNC is the machine's barrier algorithm of messages, not its BARRIER TIME.
inline bool barrier_sends_messages(const models::Machine& machine) {
  return models::algorithm_of(machine, models::CollectiveOperation::Barrier) != models::CollectiveAlgorithm::Formula;
}
void exact_collective(ExactBuilder& builder, const CollectiveSchedule& schedule, const models::SourceLocation& where);
Piece approximate_collective(ApproximateBuilder& builder, const CollectiveSchedule& schedule,
                             const models::SourceLocation& where);

inline SchemeBuilders builders_of(models::Scheme scheme) {
  switch (scheme) {
    case models::Scheme::Independent: return {exact_independent, approximate_independent};
    case models::Scheme::Neighbor:
    case models::Scheme::NeighborTorus: return {exact_neighbor, approximate_neighbor};
    case models::Scheme::Paired: return {exact_paired, approximate_paired};
    case models::Scheme::Macropipeline: return {exact_macropipeline, approximate_macropipeline};
    case models::Scheme::ForkJoin: return {exact_fork_join, approximate_fork_join};
    case models::Scheme::Arbitrary: return {exact_arbitrary, approximate_arbitrary};
  }
  throw std::logic_error("scaling: unknown scheme");
}

}  // namespace scaling::detail
