// INDEPENDENT: n tasks of one runtime, each sending its results (the phase's volume per task).
// Exact: task i on its processor (BLOCK or CYCLIC), each processor its tasks in index order,
// then one message with its tasks' results; DYNAMIC is one pool node of all the tasks that
// Monte Carlo simulates. Approximate: each processor's share of the tasks in series (a
// convolution power) then one message, the processors left open for the next phase.
#include <algorithm>
#include <cstdint>
#include <string>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {
namespace {

// DYNAMIC: the processors take the tasks from a shared queue. The pool starts when every
// processor is free and ends with the last task.
void dynamic_pool(ExactBuilder& builder, const models::WorkPhase& phase, const distributions::Distribution& task,
                  std::int64_t n, double volume, double contention) {
  builder.enter_closed(phase);
  if (n == 0) return;
  const std::int64_t step = builder.take_steps(1);
  const NodeId pool = builder.add(phase.name + " pool s" + std::to_string(step), NodeKind::DynamicPool, task, -1, step);
  builder.node(pool).pool_tasks = n;
  builder.node(pool).pool_processors = static_cast<int>(std::min<std::int64_t>(builder.processors(), n));
  builder.gather_at(pool);
  NodeId end = pool;
  // The busiest processor's results, ceil(n/p) tasks' worth (an approximation: under dynamic
  // scheduling the counts are random).
  const std::int64_t p = builder.processors();
  const double seconds = builder.communication_seconds(volume * static_cast<double>((n + p - 1) / p), phase.location);
  if (seconds > 0.0) {
    const NodeId message =
        builder.deterministic_node(phase.name + " results", NodeKind::Communication, seconds, -1, step);
    builder.arc(end, message);
    end = message;
  }
  if (contention > 0.0) {
    const NodeId delay = builder.deterministic_node(phase.name + " contention", NodeKind::Contention, contention, -1, step);
    builder.arc(end, delay);
    end = delay;
  }
  builder.continue_after(end);
}

}  // namespace

void exact_independent(ExactBuilder& builder, const models::WorkPhase& phase) {
  UnitInstance instance;
  instance.task = builder.runtime(*phase.runtime);
  instance.units = builder.count(*phase.units, phase.location, "number of tasks");
  instance.volume = builder.value(phase.volume, phase.location, "communication volume");
  instance.contention = builder.contention_seconds(
      static_cast<double>(instance.units) * distributions::mean(instance.task), phase.location);
  if (phase.scheduling == models::Scheduling::Dynamic) {
    dynamic_pool(builder, phase, instance.task, instance.units, instance.volume, instance.contention);
    return;
  }
  instance.scheduling = phase.scheduling;
  instance.message = UnitMessage::Results;
  builder.unit_instance(phase, instance);
}

Piece approximate_independent(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  // Each processor sends its c tasks' results.
  return builder.unit_phase(phase, [](std::int64_t c, double volume) { return volume * static_cast<double>(c); });
}

}  // namespace scaling::detail
