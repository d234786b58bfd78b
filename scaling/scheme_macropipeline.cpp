// MACROPIPELINE: J jobs through S stages, stages in contiguous blocks over the processors;
// task (j, s) follows (j, s-1) and (j-1, s), job j is released j interarrival times after the
// start.
// Exact: every task, each processor its stages of job j before those of job j+1, a message
// where consecutive stages of a job are on different processors, the releases a chain of
// interarrival nodes; closed at both ends. Approximate: the first job through every block,
// then each further job at the pace of the slowest block or of the releases; not guaranteed
// to bound the exact mean (docs/semantics.md).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <tuple>

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
  const double memory_bytes = builder.memory_volume(phase);
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
                                   stage_time, k, step + j, memory_bytes);
      if (s == 0) {
        builder.arc(released, v);
      } else if (builder.node(before).processor != k) {
        builder.link(before, v, bytes, phase.location);
      }
      builder.run_on(static_cast<std::size_t>(k), v);
      before = v;
    }
  }
  // The contention delay once after the phase, T = its work: every stage of every job.
  const double work = static_cast<double>(jobs) * static_cast<double>(stages) * distributions::mean(stage_time);
  builder.leave_closed(phase, builder.contention_seconds(work, phase.location));
}

// Jobs x stages, stages in contiguous blocks over q = min(p, S) processors: a tandem of q
// servers, processor k serving its block of each job in turn. The approximate model is the
// pipeline's classic decomposition: the first job through every block (its receive overhead,
// stages and send overhead on each processor, the transfer between processors), then each
// further job at the pace of the slowest block or of the releases: the maximum of the blocks'
// processor times (stages and overheads, not the transfers, which overlap the next jobs) and
// one interarrival time. Not guaranteed to bound the exact mean (docs/semantics.md, MP3).
Piece approximate_macropipeline(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t jobs = builder.count(*phase.jobs, phase.location, "number of jobs");
  const std::int64_t stages = builder.count(*phase.stages, phase.location, "number of stages");
  if (jobs == 0 || stages == 0) return builder.empty_closed_phase(phase);
  const distributions::Distribution stage = builder.runtime(*phase.runtime);
  const std::size_t one = builder.task_leaf(phase.name + " stage", builder.memory_bound(stage, phase));
  const distributions::Distribution arrival_time = builder.runtime(*phase.interarrival);
  const double bytes = builder.value(phase.volume, phase.location, "communication volume");
  const std::int64_t p = builder.processors();
  const std::int64_t q = std::min(p, stages);
  const std::int64_t base = stages / p, extra = stages % p;
  // One send or one receive overhead o(V).
  const ApproximateBuilder::MessageCost cost = builder.message_cost(bytes, phase.location);
  const std::size_t overhead = builder.overheads(cost.overhead);
  const std::size_t transfer = builder.send(cost, 0, 0);
  builder.priced_as_eager(cost, phase, "MACROPIPELINE");
  std::map<std::tuple<std::int64_t, bool, bool>, std::size_t> made;
  const auto block = [&](std::int64_t k) {
    const std::int64_t size = base + (k < extra ? 1 : 0);
    const std::tuple<std::int64_t, bool, bool> key{size, k > 0, k + 1 < q};
    auto found = made.find(key);
    if (found == made.end()) {
      found = made.emplace(key, builder.series(
                                    {k > 0 ? overhead : kZero, builder.power(one, size), k + 1 < q ? overhead : kZero}))
                  .first;
    }
    return found->second;
  };
  std::size_t first = kZero;
  std::vector<std::size_t> blocks;
  for (std::int64_t k = 0; k < q; ++k) {
    first = builder.series({first, k > 0 ? transfer : kZero, block(k)});
    blocks.push_back(block(k));
  }
  std::size_t next = kZero;
  if (jobs > 1) {
    std::map<std::size_t, std::int64_t> alike;
    for (std::size_t b : blocks) ++alike[b];
    std::vector<std::size_t> slowest;
    for (const auto& [b, count] : alike) slowest.push_back(builder.tree().parallel_power(b, count));
    if (!ApproximateBuilder::takes_no_time(arrival_time)) {
      slowest.push_back(builder.leaf(phase.name + " interarrival", graph::NodeKind::Task, arrival_time));
    }
    // With ports (M12) each processor's k ports pass one message a job, k at a time.
    const double port = q > 1 ? cost.port / static_cast<double>(builder.ports()) : 0.0;
    if (port > 0.0) {
      slowest.push_back(
          builder.leaf(phase.name + " port", graph::NodeKind::Communication, distributions::deterministic(port)));
    }
    next = builder.power(slowest.size() == 1 ? slowest.front() : builder.tree().parallel(std::move(slowest)), jobs - 1);
  }
  const double work = static_cast<double>(jobs) * static_cast<double>(stages) * distributions::mean(stage);
  Piece piece = builder.synchronised(builder.series({first, next, builder.contention(work, phase.location)}));
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

}  // namespace scaling::detail
