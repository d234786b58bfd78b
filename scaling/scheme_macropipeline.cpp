// MACROPIPELINE: J jobs through S stages, stages in contiguous blocks over the processors;
// task (j, s) follows (j, s-1) and (j-1, s), job j is released j interarrival times after the
// start.
// Exact: every task, each processor its stages of job j before those of job j+1, a message
// where consecutive stages of a job are on different processors, the releases a chain of
// interarrival nodes; closed at both ends.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

// Task (j, s) after (j, s-1) and (j-1, s); stages in contiguous blocks; a processor runs its
// stages of job j before those of job j+1; job j (j >= 1) is released after j interarrival
// times (a chain of arrival nodes from the phase's start).
void exact_macropipeline(ExactBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t jobs = builder.count(*phase.jobs, phase.location, "number of jobs");
  const std::int64_t stages = builder.count(*phase.stages, phase.location, "number of stages");
  const distributions::Distribution stage_time = builder.runtime(*phase.runtime);
  const distributions::Distribution arrival_time = builder.runtime(*phase.interarrival);
  const double bytes = builder.value(phase.volume, phase.location, "communication volume");
  builder.enter_closed(phase);
  if (jobs == 0 || stages == 0) return;
  const std::int64_t step = builder.take_steps(jobs);
  const NodeId start = builder.last().front();
  NodeId arrival = kNone;
  for (std::int64_t j = 0; j < jobs; ++j) {
    NodeId released = kNone;
    if (j > 0 && !ExactBuilder::is_zero(arrival_time)) {
      const NodeId a =
          builder.add(phase.name + " arrival " + std::to_string(j), NodeKind::Task, arrival_time, -1, step + j - 1);
      builder.arc(arrival == kNone ? start : arrival, a);
      arrival = released = a;
    }
    NodeId before = kNone;
    for (std::int64_t s = 0; s < stages; ++s) {
      const int k = builder.processor_of(s, stages, models::Scheduling::Block);
      const NodeId v = builder.add(phase.name + " j" + std::to_string(j) + " s" + std::to_string(s), NodeKind::Task,
                                   stage_time, k, step + j);
      if (s == 0) {
        builder.arc(released, v);
      } else if (builder.node(before).processor != k) {
        builder.link(before, v, bytes, phase.location);
      }
      builder.run_on(static_cast<std::size_t>(k), v);
      before = v;
    }
  }
  builder.leave_closed(phase, 0.0);
}

}  // namespace scaling::detail
