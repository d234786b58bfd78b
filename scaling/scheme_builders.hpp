// Every parallelization scheme's builder of its exact model (a phase instance added to a
// scenario's task graph), one scheme_*.cpp each, and builders_of, the one place the pattern
// walk (exact_model.cpp) picks them for a phase. A new scheme is a new scheme file, its
// declaration here and one line in builders_of.
#pragma once

#include <stdexcept>

#include "models/program.hpp"
#include "scaling/exact_builder.hpp"

namespace scaling::detail {

struct SchemeBuilders {
  void (*exact)(ExactBuilder& builder, const models::WorkPhase& phase);
};

void exact_independent(ExactBuilder& builder, const models::WorkPhase& phase);

// NEIGHBOR and NEIGHBOR-TORUS.
void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase);

void exact_paired(ExactBuilder& builder, const models::WorkPhase& phase);

void exact_macropipeline(ExactBuilder& builder, const models::WorkPhase& phase);

void exact_fork_join(ExactBuilder& builder, const models::WorkPhase& phase);

void exact_arbitrary(ExactBuilder& builder, const models::WorkPhase& phase);

// A sequential phase has no scheme; the pattern walk calls this for it directly. `where`:
// the phase's place in the pattern.
void exact_sequential(ExactBuilder& builder, const models::SequentialPhase& phase,
                      const models::SourceLocation& where);

inline SchemeBuilders builders_of(models::Scheme scheme) {
  switch (scheme) {
    case models::Scheme::Independent: return {exact_independent};
    case models::Scheme::Neighbor:
    case models::Scheme::NeighborTorus: return {exact_neighbor};
    case models::Scheme::Paired: return {exact_paired};
    case models::Scheme::Macropipeline: return {exact_macropipeline};
    case models::Scheme::ForkJoin: return {exact_fork_join};
    case models::Scheme::Arbitrary: return {exact_arbitrary};
  }
  throw std::logic_error("scaling: unknown scheme");
}

}  // namespace scaling::detail
