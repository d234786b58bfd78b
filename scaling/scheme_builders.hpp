// Every parallelization scheme's two builders, its exact model (a phase instance added to a
// scenario's task graph) and its approximate model (the phase instance as a piece of the
// series-parallel tree), each pair in its own scheme_*.cpp, and builders_of, the one place
// both pattern walks (exact_model.cpp, approximate_model.cpp) pick them for a phase. A new
// scheme is a new scheme file, its two declarations here and one line in builders_of.
#pragma once

#include <stdexcept>

#include "models/program.hpp"
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
void exact_sequential(ExactBuilder& builder, const models::SequentialPhase& phase,
                      const models::SourceLocation& where);
Piece approximate_sequential(ApproximateBuilder& builder, const models::SequentialPhase& phase);

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
