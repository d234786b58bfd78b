// A sequential phase: one task of the program that no processor shares.
// Exact: the task on processor 0 after every processor's last node; every processor goes on
// after it. Approximate: the task alone, every processor synchronised before and after.
#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

// Runs on processor 0 while the others wait. A task of no duration is left out, as overheads
// that cost nothing are: the processors synchronise and nothing else happens (a task on
// processor 0 would change no path, but it would give the bounds an arc structure to fit).
void exact_sequential(ExactBuilder& builder, const models::SequentialPhase& phase,
                      const models::SourceLocation& where) {
  builder.synchronise(0.0, where);
  const distributions::Distribution runtime = builder.runtime(phase.runtime);
  if (!ExactBuilder::is_zero(runtime)) {
    builder.gather_at(builder.add(phase.name, NodeKind::Task, runtime, 0, builder.take_steps(1)));
  }
  builder.forget_last_phase();
}

Piece approximate_sequential(ApproximateBuilder& builder, const models::SequentialPhase& phase) {
  return builder.synchronised(builder.task_leaf(phase.name, builder.runtime(phase.runtime)));
}

}  // namespace scaling::detail
