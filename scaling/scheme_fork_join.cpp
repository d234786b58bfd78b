// FORK-JOIN: J jobs one after the other, each forking its tasks over the processors and
// collected by a drain (the JOIN time); a job is released one interarrival time after the
// previous one.
// Exact: each job's tasks scheduled as in INDEPENDENT (a pool node for DYNAMIC), each
// processor sending its tasks' results to the drain on processor 0; job j+1 after drain j and
// its release (a chain of interarrival nodes); closed at both ends. Approximate: one job is
// the maximum over processors of their tasks, at least one interarrival time, then the drain;
// the J jobs are one power.
#include <algorithm>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

namespace {

// F7: the bytes of each release message, 0 for none (no RELEASE VOLUME), by either model's builder.
template <class Builder>
double release_bytes_of(const Builder& builder, const models::WorkPhase& phase) {
  return phase.release_volume ? builder.value(*phase.release_volume, phase.location, "release volume") : 0.0;
}

// F7: processor 0 releases job j after `start`: a message of `bytes` to every other processor
// with tasks, in processor order, each of which starts its tasks when it has received it.
void release(ExactBuilder& builder, const models::WorkPhase& phase, std::int64_t tasks, std::int64_t j,
             std::int64_t job_step, NodeId start, double bytes) {
  const NodeId released = builder.add(phase.name + " release " + std::to_string(j), NodeKind::Join, {}, 0, job_step);
  builder.arc(start, released);
  builder.run_on(0, released);
  for (std::int64_t k = 1; k < std::min<std::int64_t>(builder.processors(), tasks); ++k) {
    builder.send_to_processor(released, static_cast<int>(k), bytes, phase.location);
  }
}

// Job j's tasks of a static schedule (at step job_step): each processor its tasks of the job
// after `start` (after its release message, F7), then its results to the drain on processor 0,
// which receives them in processor order after its own tasks. `done` is scratch space of one
// count per processor.
void fork_on_processors(ExactBuilder& builder, const models::WorkPhase& phase, const distributions::Distribution& task,
                        std::int64_t tasks, std::int64_t j, std::int64_t job_step, NodeId start, NodeId drain,
                        double bytes, double release_bytes, std::vector<std::int64_t>& done) {
  builder.continue_after(start);
  if (release_bytes > 0.0 && builder.processors() > 1)
    release(builder, phase, tasks, j, job_step, start, release_bytes);
  std::fill(done.begin(), done.end(), 0);
  const double memory_bytes = builder.memory_volume(phase);
  for (std::int64_t t = 0; t < tasks; ++t) {
    const int k = builder.processor_of(t, tasks, phase.scheduling);
    const auto ku = static_cast<std::size_t>(k);
    builder.run_on(ku, builder.add(phase.name + " j" + std::to_string(j) + " t" + std::to_string(t), NodeKind::Task,
                                   task, k, job_step, memory_bytes));
    ++done[ku];
  }
  for (std::size_t k = 0; k < done.size(); ++k) {
    if (done[k] > 0) builder.link(builder.last()[k], drain, bytes * static_cast<double>(done[k]), phase.location);
  }
  builder.run_on(0, drain);
}

}  // namespace

// Job after job; a job's tasks are scheduled as in INDEPENDENT, each processor sends its
// tasks' results to the drain on processor 0; job j+1 starts after job j's drain and its own
// release (a chain of arrival nodes from the phase's start).
void exact_fork_join(ExactBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t jobs = builder.count(*phase.jobs, phase.location, "number of jobs");
  const std::int64_t tasks = builder.count(*phase.tasks_per_job, phase.location, "tasks per job");
  const distributions::Distribution task = builder.runtime(*phase.runtime);
  const distributions::Distribution arrival_time = builder.runtime(*phase.interarrival);
  const distributions::Distribution join_time = builder.runtime(*phase.join);
  const double bytes = builder.value(phase.volume, phase.location, "communication volume");
  const double release_bytes = release_bytes_of(builder, phase);
  // A DYNAMIC job's pool: its tasks' memory volume (M16) and its master (I6), the same every job.
  const double memory_bytes = builder.memory_volume(phase);
  const std::shared_ptr<const graph::PoolMaster> master = builder.pool_master(phase);
  builder.enter_closed(phase);
  if (jobs == 0) return;
  const std::int64_t step = builder.take_steps(jobs);
  NodeId arrival = kNone;
  const NodeId phase_start = builder.last().front();
  NodeId previous = phase_start;
  std::vector<std::int64_t> done(builder.last().size());  // per processor: its tasks of the job
  for (std::int64_t j = 0; j < jobs; ++j) {
    NodeId start = previous;
    if (j > 0 && !ExactBuilder::is_zero(arrival_time)) {
      const NodeId a =
          builder.add(phase.name + " arrival " + std::to_string(j), NodeKind::Task, arrival_time, -1, step + j - 1);
      builder.arc(arrival == kNone ? phase_start : arrival, a);
      arrival = a;
      start = builder.add("join", NodeKind::Join, {}, -1, step + j);
      builder.arc(previous, start);
      builder.arc(a, start);
    }
    const NodeId drain =
        ExactBuilder::is_zero(join_time)
            ? builder.add(phase.name + " drain " + std::to_string(j), NodeKind::Join, {}, 0, step + j)
            : builder.add(phase.name + " drain " + std::to_string(j), NodeKind::Task, join_time, 0, step + j);
    if (tasks == 0) {
      builder.arc(start, drain);
    } else if (phase.scheduling == models::Scheduling::Dynamic) {
      const NodeId pool = builder.add(phase.name + " pool " + std::to_string(j), NodeKind::DynamicPool, task, -1,
                                      step + j, memory_bytes);
      builder.node(pool).pool_tasks = tasks;
      builder.node(pool).pool_processors = static_cast<int>(builder.pool_workers(phase, tasks));
      builder.node(pool).pool_master = master;
      builder.arc(start, pool);
      builder.arc(pool, drain);
    } else {
      fork_on_processors(builder, phase, task, tasks, j, step + j, start, drain, bytes, release_bytes, done);
    }
    previous = drain;
  }
  builder.continue_after(previous);
  // The contention delay once after the phase, T = its work: every task and every join.
  const double work = static_cast<double>(jobs) *
                      (static_cast<double>(tasks) * distributions::mean(task) + distributions::mean(join_time));
  builder.leave_closed(phase, builder.contention_seconds(work, phase.location));
}

namespace {

using MessageCost = ApproximateBuilder::MessageCost;

// What processor 0's receiving side adds after the last result is sent, for `more` senders of
// results of cost `big` and `fewer` of `small`: eager, its ports' queue (M12; nothing without
// ports); rendezvous (M11), every transfer and port time one after another, each receive posted
// after the previous one is done. Each group is rendezvous or eager by its own size: where only
// the larger results are rendezvous, their transfers one after another, then the others' queue.
double drain_wait(const ApproximateBuilder& builder, bool big_rendezvous, bool small_rendezvous, std::int64_t more,
                  const MessageCost& big, std::int64_t fewer, const MessageCost& small) {
  const double g_big = big.port, g_small = small.port;
  const auto in_turn = [](std::int64_t count, const MessageCost& cost, double g) {
    return static_cast<double>(count) * (cost.transfer + g);
  };
  if (big_rendezvous && small_rendezvous) return in_turn(more, big, g_big) + in_turn(fewer, small, g_small);
  if (big_rendezvous) {
    return in_turn(more, big, g_big) +
           builder.port_queue_seconds(static_cast<double>(fewer) * g_small, fewer > 0 ? g_small : 0.0, fewer);
  }
  return builder.port_queue_seconds(static_cast<double>(more) * g_big + static_cast<double>(fewer) * g_small,
                                    std::max(more > 0 ? g_big : 0.0, fewer > 0 ? g_small : 0.0), more + fewer);
}

// One job's tasks on the processors as the exact model places them (the first tasks mod p
// processors one task more), each processor its c tasks, then its results, c·V bytes, to the
// drain on processor 0 (processor 0's own need no message); joined by their maximum. DYNAMIC:
// Graham's bound on the pool's list schedule; the exact model's pool sends no results either.
std::size_t fork(ApproximateBuilder& builder, const models::WorkPhase& phase, std::size_t one,
                 const distributions::Distribution& task, std::int64_t tasks, double bytes) {
  if (phase.scheduling == models::Scheduling::Dynamic) {
    if (const auto master = builder.pool_master(phase)) {
      return builder.farm_bound(phase.name, task, tasks, builder.pool_workers(phase, tasks), *master);
    }
    return builder.list_schedule_bound(phase.name, task, tasks);
  }
  const std::int64_t p = builder.processors();
  const std::int64_t q = tasks / p;
  const std::int64_t r = tasks % p;
  const double big = bytes * static_cast<double>(q + 1), small = bytes * static_cast<double>(q);
  // M11 by each processor's own results, c_k·V: a size no processor sends decides nothing.
  const auto on = [&](std::int64_t c, bool local) {
    if (c == 0) return kZero;
    if (local) return builder.power(one, c);
    // The port times (and, rendezvous, the transfers) are processor 0's, below.
    MessageCost cost = builder.message_cost(bytes * static_cast<double>(c), phase.location);
    cost.port = 0.0;
    const std::size_t send = cost.rendezvous() ? builder.overheads(cost.overhead) : builder.send(cost, 1, 0);
    return builder.series({builder.power(one, c), send});
  };
  Work work{{0, 1, on(r > 0 ? q + 1 : q, true)}};
  if (r > 1) work.push_back({1, r, on(q + 1, false)});
  if (std::max<std::int64_t>(r, 1) < p) work.push_back({std::max<std::int64_t>(r, 1), p, on(q, false)});
  // Processor 0 receives the others' results one after another: every receive overhead after
  // the last arrival bounds its receives from above.
  const std::int64_t senders_of_more = std::max<std::int64_t>(r - 1, 0);
  const std::int64_t senders_of_fewer = q > 0 ? p - std::max<std::int64_t>(r, 1) : 0;
  const MessageCost big_cost = builder.message_cost(big, phase.location);
  const MessageCost small_cost = builder.message_cost(small, phase.location);
  const bool big_rendezvous = senders_of_more > 0 && big_cost.rendezvous();
  const bool small_rendezvous = senders_of_fewer > 0 ? small_cost.rendezvous() : big_rendezvous;
  const double wait = drain_wait(builder, big_rendezvous || (senders_of_more == 0 && small_rendezvous),
                                 small_rendezvous, senders_of_more, big_cost, senders_of_fewer, small_cost);
  return builder.series({builder.close(work),
                         wait > 0.0 ? builder.leaf("the drain's receives", graph::NodeKind::Communication,
                                                   distributions::deterministic(wait))
                                    : kZero,
                         builder.overheads(static_cast<double>(senders_of_more) * big_cost.overhead),
                         builder.overheads(static_cast<double>(senders_of_fewer) * small_cost.overhead)});
}

}  // namespace

// Job after job, each forking its tasks over the processors and joined by the drain; a job
// followed by another lasts at least one interarrival time.
Piece approximate_fork_join(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t jobs = builder.count(*phase.jobs, phase.location, "number of jobs");
  const std::int64_t tasks = builder.count(*phase.tasks_per_job, phase.location, "tasks per job");
  if (jobs == 0) return builder.empty_closed_phase(phase);
  const distributions::Distribution task = builder.runtime(*phase.runtime);
  const distributions::Distribution bounded = builder.memory_bound(task, phase);  // M16
  const std::size_t one = builder.task_leaf(phase.name + " task", bounded);
  const distributions::Distribution arrival_time = builder.runtime(*phase.interarrival);
  const distributions::Distribution join_time = builder.runtime(*phase.join);
  const double bytes = builder.value(phase.volume, phase.location, "communication volume");
  std::size_t job = fork(builder, phase, one, bounded, tasks, bytes);
  // F7: processor 0's release messages to the other processors with tasks, before the job on
  // every processor: its sends one after another, the last one's transfer and its receive.
  const double release_bytes = release_bytes_of(builder, phase);
  const std::int64_t released = std::min(builder.processors(), tasks) - 1;
  if (release_bytes > 0.0 && released > 0 && phase.scheduling != models::Scheduling::Dynamic) {
    job = builder.series({builder.send(builder.message_cost(release_bytes, phase.location), released, 1), job});
  }
  if (!ApproximateBuilder::takes_no_time(join_time)) {
    job = builder.series({job, builder.task_leaf(phase.name + " join", join_time)});
  }
  // Job j + 1 is released one interarrival time after job j starts: every job but the last
  // lasts at least that long (J - 1 waits for J jobs, as in the exact model).
  std::size_t waiting_job = job;
  if (!ApproximateBuilder::takes_no_time(arrival_time)) {
    const std::size_t arrival = builder.leaf(phase.name + " interarrival", graph::NodeKind::Task, arrival_time);
    waiting_job = job == kZero ? arrival : builder.tree().parallel({job, arrival});
  }
  const double work = static_cast<double>(jobs) *
                      (static_cast<double>(tasks) * distributions::mean(task) + distributions::mean(join_time));
  Piece piece = builder.synchronised(
      builder.series({builder.power(waiting_job, jobs - 1), job, builder.contention(work, phase.location)}));
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

}  // namespace scaling::detail
