// INDEPENDENT: n tasks of one runtime, each sending its results (the phase's volume per task).
// Exact: task i on its processor (BLOCK or CYCLIC), each processor its tasks in index order,
// then one message with its tasks' results; DYNAMIC is one pool node of all the tasks that
// Monte Carlo simulates. Approximate: each processor's share of the tasks in series (a
// convolution power) then one message, the processors left open for the next phase; DYNAMIC
// is Graham's bound on the list schedule of the pool, between synchronised processors.
#include <algorithm>
#include <cstdint>
#include <string>

#include "scaling/scheme_builders.hpp"
#include "scaling/step_transfers.hpp"

namespace scaling::detail {
namespace {

// DYNAMIC: the processors take the tasks from a shared queue, or with a MASTER SERVICE (I6) the
// workers 1..p-1 from processor 0, a farm. The pool starts when every processor is free and
// ends with the last task (a farm: with the last result at the master).
void dynamic_pool(ExactBuilder& builder, const models::WorkPhase& phase, const distributions::Distribution& task,
                  std::int64_t n, double volume, double contention) {
  builder.enter_closed(phase);
  if (n == 0) return;
  const std::int64_t step = builder.take_steps(1);
  const NodeId pool = builder.add(phase.name + " pool s" + std::to_string(step), NodeKind::DynamicPool, task, -1, step,
                                  builder.memory_volume(phase));
  builder.node(pool).pool_tasks = n;
  builder.node(pool).pool_processors = static_cast<int>(builder.pool_workers(phase, n));
  builder.node(pool).pool_master = builder.pool_master(phase);
  builder.gather_at(pool);
  NodeId end = pool;
  // The busiest processor's results, ceil(n/p) tasks' worth (an approximation: under dynamic
  // scheduling the counts are random); a farm's results went to its master already.
  const std::int64_t p = builder.processors();
  const double sharing = builder.shares_bandwidth() ? builder.sharing(results_transfers(std::min(p, n))) : 1.0;
  const double seconds =
      builder.node(pool).pool_master
          ? 0.0
          : builder.message_cost(volume * static_cast<double>((n + p - 1) / p), phase.location, sharing).sent_out();
  if (seconds > 0.0) {
    const NodeId message =
        builder.deterministic_node(phase.name + " results", NodeKind::Communication, seconds, -1, step);
    builder.arc(end, message);
    end = message;
  }
  if (contention > 0.0) {
    const NodeId delay =
        builder.deterministic_node(phase.name + " contention", NodeKind::Contention, contention, -1, step);
    builder.arc(end, delay);
    end = delay;
  }
  builder.continue_after(end);
}

}  // namespace

void exact_independent(ExactBuilder& builder, const models::WorkPhase& phase) {
  UnitInstance instance = builder.unit_instance_of(phase);
  if (phase.scheduling == models::Scheduling::Dynamic) {
    dynamic_pool(builder, phase, instance.task, instance.units, instance.volume, instance.contention);
    return;
  }
  instance.scheduling = phase.scheduling;
  instance.message = UnitMessage::Results;
  builder.unit_instance(phase, instance);
}

namespace {

// DYNAMIC: q = min(p, n) processors take n tasks from a shared queue, a greedy list schedule.
// On every sample path its makespan is at most sum / q + (1 - 1/q) max (Graham 1969: when the
// last task starts, every processor has been busy until then, so it starts by (sum - last) / q),
// so the mean of that bound is an upper bound of the pool's mean. It is charged with every
// processor synchronised before and after, then the busiest processor's results (ceil(n/p)
// tasks' worth) and the contention delay, as in the exact model.
Piece approximate_pool(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const distributions::Distribution task = builder.runtime(*phase.runtime);
  const std::int64_t n = builder.count(*phase.units, phase.location, "number of tasks");
  const double volume = builder.value(phase.volume, phase.location, "communication volume");
  if (n == 0) return builder.empty_closed_phase(phase);
  const std::int64_t p = builder.processors();
  const std::shared_ptr<const graph::PoolMaster> master = builder.pool_master(phase);
  if (master) {
    Piece piece = builder.synchronised(builder.series(
        {builder.farm_bound(phase.name, builder.memory_bound(task, phase), n, builder.pool_workers(phase, n), *master),
         builder.contention(static_cast<double>(n) * distributions::mean(task), phase.location)}));
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }
  const std::size_t bound = builder.list_schedule_bound(phase.name, builder.memory_bound(task, phase), n);
  const double sharing = builder.shares_bandwidth() ? builder.sharing(results_transfers(std::min(p, n))) : 1.0;
  const std::size_t results = builder.send(
      builder.message_out_cost(volume * static_cast<double>((n + p - 1) / p), phase.location, sharing), 1, 0);
  const std::size_t delay = builder.contention(static_cast<double>(n) * distributions::mean(task), phase.location);
  Piece piece = builder.synchronised(builder.series({bound, results, delay}));
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

}  // namespace

Piece approximate_independent(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  if (phase.scheduling == models::Scheduling::Dynamic) return approximate_pool(builder, phase);
  // Each processor sends its c tasks' results out, one blocking send; the processors with
  // tasks send at once.
  double sharing = 1.0;
  if (builder.shares_bandwidth()) {
    const std::int64_t n = builder.count(*phase.units, phase.location, "number of tasks");
    sharing = builder.sharing(results_transfers(std::min(builder.processors(), n)));
  }
  return builder.unit_phase(phase, [sharing](std::int64_t c, double volume) {
    return ApproximateBuilder::UnitMessages{volume * static_cast<double>(c), 1, 0, sharing, true};
  });
}

}  // namespace scaling::detail
