// MACROPIPELINE: J jobs through S stages, stages in contiguous blocks over the processors;
// task (j, s) follows (j, s-1) and (j-1, s), job j is released j interarrival times after the
// start.
// Exact: every task, each processor its stages of job j before those of job j+1, a message
// where consecutive stages of a job are on different processors, the releases a chain of
// interarrival nodes; closed at both ends. Approximate: the wavefronts j + s = d one after the
// other, each the maximum over processors and, while jobs arrive, at least one interarrival
// time; not guaranteed to bound the exact mean (docs/methods.md).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
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
  // The contention delay once after the phase, T = its work: every stage of every job.
  const double work = static_cast<double>(jobs) * static_cast<double>(stages) * distributions::mean(stage_time);
  builder.leave_closed(phase, builder.contention_seconds(work, phase.location));
}

namespace {

// The wavefront steps of a MACROPIPELINE phase on the approximate model's tree.
class Wavefronts {
 public:
  Wavefronts(ApproximateBuilder& builder, std::int64_t jobs, std::int64_t stages, std::size_t one,
             std::size_t arrival, std::size_t send, std::size_t receive)
      : builder_(builder), jobs_(jobs), stages_(stages), p_(builder.processors()), one_(one), arrival_(arrival),
        send_(send), receive_(receive), q_(stages / p_), r_(stages % p_) {}

  // Step d: the tasks (j, s) with j + s = d, the maximum over processors; while a job is still
  // to be released after it (d < J - 1) at least one interarrival time: job d + 1 is released
  // one interarrival time after job d, so J jobs wait J - 1 times, as in the exact model.
  std::size_t step(std::int64_t d) {
    const std::int64_t lo = std::max<std::int64_t>(0, d - jobs_ + 1);
    const std::int64_t hi = std::min(d, stages_ - 1);
    Work work;
    for (std::int64_t k = 0; k < p_;) {
      // Processors wholly inside, before or after [lo, hi] come in runs of equal work.
      const std::int64_t c = active_stages(k, lo, hi);
      const bool sends = sends_on(k, lo, hi);
      const bool receives = receives_on(k, lo, hi);
      std::int64_t next = k + 1;
      while (next < p_ && active_stages(next, lo, hi) == c && sends_on(next, lo, hi) == sends &&
             receives_on(next, lo, hi) == receives) {
        ++next;
      }
      work.push_back({k, next, per_processor(c, sends, receives)});
      k = next;
    }
    std::size_t t = builder_.close(work);
    if (d < jobs_ - 1 && arrival_ != kZero) {
      t = builder_.tree().parallel({t == kZero ? builder_.leaf("nothing", graph::NodeKind::Join, {}) : t, arrival_});
    }
    return t;
  }

 private:
  // Stage block of processor k: [first_stage(k), first_stage(k + 1)).
  std::int64_t first_stage(std::int64_t k) const { return k * q_ + std::min(k, r_); }
  // Processor k's stages within the active stages [lo, hi].
  std::int64_t active_stages(std::int64_t k, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t b = first_stage(k), e = first_stage(k + 1);
    return std::max<std::int64_t>(0, std::min(e - 1, hi) - std::max(b, lo) + 1);
  }
  // A message crosses processors only after the last stage of a processor's block, to the
  // next processor's first stage (none after the pipeline's last stage): processor k sends in
  // step d when its last stage is active then and another processor holds later stages.
  bool sends_on(std::int64_t k, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t last = first_stage(k + 1) - 1;
    return last >= first_stage(k) && last + 1 < stages_ && last >= lo && last <= hi;
  }
  // Processor k receives in step d when the first stage of its block is active then and
  // another processor holds the stage before it.
  bool receives_on(std::int64_t k, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t first = first_stage(k);
    return first < first_stage(k + 1) && first > 0 && first >= lo && first <= hi;
  }
  std::size_t per_processor(std::int64_t c, bool sends, bool receives) {
    const std::tuple<std::int64_t, bool, bool> key{c, sends, receives};
    auto found = made_.find(key);
    if (found != made_.end()) return found->second;
    const std::size_t work =
        c == 0 ? kZero
               : builder_.series({receives ? receive_ : kZero, builder_.power(one_, c), sends ? send_ : kZero});
    return made_.emplace(key, work).first->second;
  }

  ApproximateBuilder& builder_;
  std::int64_t jobs_, stages_, p_;
  std::size_t one_, arrival_, send_, receive_;
  std::int64_t q_, r_;
  std::map<std::tuple<std::int64_t, bool, bool>, std::size_t> made_;
};

}  // namespace

// Jobs x stages, stages in contiguous blocks over the processors. The wavefront of step d
// holds the tasks (job j, stage s) with j + s = d; steps follow each other with a barrier, and
// a step after which a new job is released lasts at least one interarrival time.
Piece approximate_macropipeline(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t jobs = builder.count(*phase.jobs, phase.location, "number of jobs");
  const std::int64_t stages = builder.count(*phase.stages, phase.location, "number of stages");
  Piece piece;
  if (jobs == 0 || stages == 0) return builder.empty_closed_phase(phase);
  const distributions::Distribution stage = builder.runtime(*phase.runtime);
  const std::size_t one = builder.leaf(phase.name + " stage", graph::NodeKind::Task, stage);
  const distributions::Distribution arrival_time = builder.runtime(*phase.interarrival);
  const std::size_t arrival = ApproximateBuilder::takes_no_time(arrival_time)
                                  ? kZero
                                  : builder.leaf(phase.name + " interarrival", graph::NodeKind::Task, arrival_time);
  // A message between stages on different processors: the send overhead and the transfer
  // charged to the sender's step, the receive overhead to the receiver's next step.
  const double bytes = builder.value(phase.volume, phase.location, "communication volume");
  Wavefronts wavefronts(builder, jobs, stages, one, arrival, builder.message(bytes, 1, 0, phase.location),
                        builder.receives(bytes, 1, phase.location));
  // Steps with every stage busy that still wait for a release are alike: one power for all.
  const std::int64_t steps = jobs + stages - 1;
  std::size_t middle = kZero;
  std::int64_t d = 0;
  while (d < steps) {
    const bool full = d >= stages - 1 && d <= jobs - 2;
    if (full) {
      const std::int64_t last_full = jobs - 2;
      middle = builder.series({middle, builder.power(wavefronts.step(d), last_full - d + 1)});
      d = last_full + 1;
    } else {
      middle = builder.series({middle, wavefronts.step(d)});
      ++d;
    }
  }
  const double work = static_cast<double>(jobs) * static_cast<double>(stages) * distributions::mean(stage);
  piece = builder.synchronised(builder.series({middle, builder.contention(work, phase.location)}));
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

}  // namespace scaling::detail
