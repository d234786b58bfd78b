#include "solvers/state_space_sweep.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "solvers/state_space_chunks.hpp"
#include "solvers/state_space_estimate.hpp"
#include "solvers/state_space_exchange.hpp"
#include "solvers/state_space_packed_states.hpp"

namespace solvers::state_space_detail {

namespace {

template <int W>
class Sweeper {
 public:
  Sweeper(const CompiledGraph& model, const SweepSettings& settings, const StateSpaceEstimate& estimate,
          const ProgressFunction& progress)
      : m_(model), s_(settings), estimate_(estimate), progress_(progress) {
    single_start_.resize(m_.task_count());
    for (std::size_t t = 0; t < m_.task_count(); ++t) {
      single_start_[t] = m_.task(t).single_start() ? m_.task(t).start_phase() : 0;
    }
  }

  SweepOutcome run() {
    // threads 0: as many as the caller's arena has (a study's --threads), not every core.
    tbb::task_arena arena(s_.threads > 0 ? s_.threads : tbb::this_task_arena::max_concurrency());
    const Ownership own =
        s_.communicator == nullptr ? Ownership{} : Ownership{s_.communicator->rank(), s_.communicator->size()};
    std::optional<RoundExchange<W>> exchange_storage;
    if (own.ranks > 1) exchange_storage.emplace(*s_.communicator, own, s_.width);
    RoundExchange<W>* const exchange = exchange_storage ? &*exchange_storage : nullptr;
    SweepOutcome out;
    out.end_payload.assign(s_.width, 0.0);
    std::deque<Level<W>> window;
    seed_initial_states(own, window);
    const std::size_t chunk_states = 2048;
    const std::size_t batch_states = states_per_batch();
    RoundWork round;
    std::vector<double> chunk_means;
    // The levels are swept in order; a complete estimate counts the states exactly, a better
    // measure of the work than the levels (the middle ones hold most states).
    ProgressReporter reporter(progress_);
    std::int64_t levels_done = 0;
    const bool by_states = estimate_.complete && estimate_.states > 0.0;
    const double levels = static_cast<double>(m_.total_potential) + 1.0;

    while (!window.empty()) {
      Level<W>& level = window.front();
      const LevelPlan plan = plan_level(shard_sizes(level, exchange), own, chunk_states, batch_states);
      for (std::size_t r = 0; r < plan.rounds(); ++r) {
        const std::size_t first = plan.round_start[r], end = plan.round_start[r + 1];
        assign_round(plan, first, end, own, round);
        process_round(plan, level, arena, round);
        if (exchange) {
          exchange->swap(std::span<const ChunkWork<W>>(round.work.data(), round.mine.size()), round.mine, arena);
        }
        const std::uint32_t largest_rise = fold_round(plan, first, end, own, exchange, round, chunk_means, out);
        while (window.size() <= largest_rise) window.emplace_back();
        merge_round(largest_rise, own, exchange, round, arena, window);
        check_memory(window, round.work, exchange, out);
        if (reporter.active()) {
          reporter(std::min(0.999, by_states ? static_cast<double>(out.states) / estimate_.states
                                             : static_cast<double>(levels_done) / levels));
        }
      }
      window.pop_front();
      ++levels_done;
    }
    reporter.finish();
    out.mean = 0.0;
    for (double part : chunk_means) out.mean += part;
    return out;
  }

 private:
  // The chunks of one round of a level, kept from round to round so that their buffers are reused.
  struct RoundWork {
    std::vector<std::size_t> mine;   // this rank's chunks of the round (indices in the level's list)
    std::vector<ChunkWork<W>> work;  // their processing, work[k] of chunk mine[k]
    std::vector<std::pair<int, std::uint32_t>> origins;  // each chunk of the round: its rank, its index there
  };

  // The initial states: every source task starts. Every rank computes them all and keeps
  // those of its shards, in the same order as one process would insert them.
  void seed_initial_states(const Ownership& own, std::deque<Level<W>>& window) const {
    std::vector<Contribution<W>> initial;
    auto emit = [&](const Key<W>& key, double fraction, std::uint32_t rise) {
      initial.push_back({key, hash_of(key), fraction, 0, rise});
    };
    enable(Key<W>{}, m_.sources, 0, 1.0, 0, emit);
    for (const Contribution<W>& c : initial) {
      while (window.size() <= c.rise) window.emplace_back();
      if (!own.owns(shard_of(c.hash))) continue;
      Shard<W>& shard = window[c.rise].shards[shard_of(c.hash)];
      const std::size_t i = shard.find_or_insert(c.key, c.hash, s_.width);
      shard.prob[i] += c.fraction;
      if (s_.payload == Payload::Uniformised) shard.payload[i * s_.width] += c.fraction;
    }
  }

  // States per batch (a rank's chunks of a round): the successor buffers of a batch take
  // about a sixteenth of the budget.
  std::size_t states_per_batch() const {
    const double per_state = static_cast<double>(m_.chains.size() * 2 * sizeof(Contribution<W>)) +
                             static_cast<double>(s_.width * sizeof(double) * 2);
    return static_cast<std::size_t>(
        std::clamp(static_cast<double>(s_.budget) / 16.0 / per_state, 4096.0, static_cast<double>(1 << 20)));
  }

  // The sizes of the level's shards, of every rank's when the ranks share the sweep.
  static std::array<std::size_t, kShards> shard_sizes(const Level<W>& level, const RoundExchange<W>* exchange) {
    std::array<std::size_t, kShards> sizes{};
    if (exchange) {
      sizes = exchange->shard_sizes(level);
    } else {
      for (std::size_t sh = 0; sh < kShards; ++sh) sizes[sh] = level.shards[sh].keys.size();
    }
    return sizes;
  }

  // Which chunks of the round [first, end) this rank processes, and where each is processed.
  static void assign_round(const LevelPlan& plan, std::size_t first, std::size_t end, const Ownership& own,
                           RoundWork& round) {
    round.mine.clear();
    round.origins.clear();
    std::vector<std::uint32_t> taken(static_cast<std::size_t>(own.ranks), 0);
    for (std::size_t g = first; g < end; ++g) {
      const int owner = own.owner(plan.chunks[g].shard);
      round.origins.emplace_back(owner, taken[static_cast<std::size_t>(owner)]++);
      if (owner == own.rank) round.mine.push_back(g);
    }
  }

  void process_round(const LevelPlan& plan, const Level<W>& level, tbb::task_arena& arena, RoundWork& round) const {
    const std::size_t count = round.mine.size();
    if (round.work.size() < count) round.work.resize(count);
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) {
          ChunkWork<W>& w = round.work[k];
          const ChunkRange& chunk = plan.chunks[round.mine[k]];
          w.shard = chunk.shard;
          w.begin = chunk.begin;
          w.end = chunk.end;
          process_chunk(level.shards[w.shard], w);
        }
      });
    });
  }

  // The chunks' sums, folded in the order of the level's chunks on every rank; returns the
  // largest rise of the round's successors.
  std::uint32_t fold_round(const LevelPlan& plan, std::size_t first, std::size_t end, const Ownership& own,
                           const RoundExchange<W>* exchange, const RoundWork& round, std::vector<double>& chunk_means,
                           SweepOutcome& out) const {
    std::uint32_t largest_rise = 0;
    for (std::size_t g = first; g < end; ++g) {
      const auto [owner, index] = round.origins[g - first];
      out.states += static_cast<std::int64_t>(plan.chunks[g].end - plan.chunks[g].begin);
      if (owner == own.rank) {
        const ChunkWork<W>& w = round.work[index];
        largest_rise = std::max(largest_rise, w.largest_rise);
        chunk_means.push_back(w.mean);
        out.fingerprint += w.fingerprint;
        out.absorbed += w.absorbed;
        for (std::size_t i = 0; i < s_.width && w.absorbed > 0.0; ++i) out.end_payload[i] += w.end_payload[i];
      } else {
        const ChunkSummary& theirs = exchange->summary(owner, index);
        largest_rise = std::max(largest_rise, theirs.largest_rise);
        chunk_means.push_back(theirs.mean);
        out.fingerprint += theirs.fingerprint;
        out.absorbed += theirs.absorbed;
        exchange->add_end_payload(owner, index, out.end_payload);
      }
    }
    return largest_rise;
  }

  // Merge: one task per (rise, shard) bucket of this rank, each taking the chunks of the
  // round in order, this rank's and the ones received alike.
  void merge_round(std::uint32_t largest_rise, const Ownership& own, const RoundExchange<W>* exchange,
                   const RoundWork& round, tbb::task_arena& arena, std::deque<Level<W>>& window) const {
    const std::size_t shards = own.shards_of(own.rank);
    const std::size_t buckets = largest_rise * shards;
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets, 1), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t b = r.begin(); b != r.end(); ++b) {
          const std::size_t rise = b / shards + 1;
          const std::size_t shard = own.shard_of(own.rank, b % shards);
          Shard<W>& target = window[rise].shards[shard];
          for (const auto& [owner, index] : round.origins) {
            if (owner == own.rank)
              merge_local(round.work[index], (rise - 1) * kShards + shard, target, s_.width);
            else
              exchange->merge(owner, index, rise, shard, target);
          }
        }
      });
    });
  }

  bool ready(const Key<W>& key, int v) const {
    const auto vv = static_cast<std::size_t>(v);
    const auto c = static_cast<std::size_t>(m_.chain_of[vv]);
    if (get(key, m_.progress_field[c]) != static_cast<std::uint64_t>(m_.position_of[vv])) return false;
    if (get(key, m_.phase_field[c]) != 0) return false;
    for (const auto& [chain, position] : m_.predecessors[vv]) {
      if (get(key, m_.progress_field[static_cast<std::size_t>(chain)]) <= static_cast<std::uint64_t>(position)) {
        return false;
      }
    }
    return true;
  }

  // Starts every ready task of candidates[from..] (and, through instantaneous completions,
  // their successors), branching over initial phases, then emits the resulting states.
  template <class Emit>
  void enable(Key<W> key, const std::vector<int>& candidates, std::size_t from, double fraction, std::uint32_t rise,
              Emit& emit) const {
    for (std::size_t k = from; k < candidates.size(); ++k) {
      const int v = candidates[k];
      if (!ready(key, v)) continue;
      const auto vv = static_cast<std::size_t>(v);
      const PhaseTask& task = m_.task(vv);
      const auto c = static_cast<std::size_t>(m_.chain_of[vv]);
      if (single_start_[vv] != 0) {
        const int start = single_start_[vv];
        put(key, m_.phase_field[c], static_cast<std::uint64_t>(start));
        rise += static_cast<std::uint32_t>(task.potential[static_cast<std::size_t>(start - 1)]);
        continue;
      }
      for (int start = 1; start <= task.size; ++start) {
        const double a = task.alpha[static_cast<std::size_t>(start - 1)];
        if (a <= 0.0) continue;
        Key<W> branch = key;
        put(branch, m_.phase_field[c], static_cast<std::uint64_t>(start));
        enable(branch, candidates, k + 1, fraction * a,
               rise + static_cast<std::uint32_t>(task.potential[static_cast<std::size_t>(start - 1)]), emit);
      }
      if (task.atom > 0.0) {
        Key<W> done = key;
        put(done, m_.progress_field[c], get(key, m_.progress_field[c]) + 1);
        std::vector<int> more(candidates.begin() + static_cast<std::ptrdiff_t>(k + 1), candidates.end());
        more.insert(more.end(), m_.successors[vv].begin(), m_.successors[vv].end());
        enable(done, more, 0, fraction * task.atom, rise + static_cast<std::uint32_t>(task.done_potential), emit);
      }
      return;
    }
    emit(key, fraction, rise);
  }

  void process_chunk(const Shard<W>& shard, ChunkWork<W>& w) const {
    clear_chunk_work(w);
    std::uint32_t source = 0;
    auto emit = [&](const Key<W>& key, double fraction, std::uint32_t rise) {
      w.raw.push_back({key, hash_of(key), fraction, source, rise});
      w.largest_rise = std::max(w.largest_rise, rise);
    };
    for (std::size_t i = w.begin; i < w.end; ++i, ++source) {
      const Key<W>& key = shard.keys[i];
      const double p = shard.prob[i];
      const double* entry = shard.payload.data() + i * s_.width;
      const double q = total_exit_rate(key);
      w.exit_prob[source] = p;
      w.fingerprint += state_fingerprint(key, p, entry, s_.width);
      if (q == 0.0) {  // the absorbing state: every task done
        w.absorbed += p;
        for (std::size_t k = 0; k < s_.width; ++k) w.end_payload[k] += entry[k];
        continue;
      }
      w.mean += p / q;
      double* exit = w.exit_payload.data() + static_cast<std::size_t>(source) * s_.width;
      leave_with_payload(entry, p, q, exit);
      const double inverse = 1.0 / q;
      emit_successors(key, inverse, emit);
    }
    sort_successors(w);
  }

  // Readies w, reused from an earlier chunk, for the chunk [w.begin, w.end).
  void clear_chunk_work(ChunkWork<W>& w) const {
    w.raw.clear();
    w.largest_rise = 0;
    w.mean = 0.0;
    w.absorbed = 0.0;
    w.fingerprint = 0;
    w.states = static_cast<std::int64_t>(w.end - w.begin);
    w.end_payload.assign(s_.width, 0.0);
    w.exit_prob.resize(w.end - w.begin);
    w.exit_payload.resize((w.end - w.begin) * s_.width);
  }

  // The per-state steps of process_chunk, always inlined into its loop (a hot path).
  [[gnu::always_inline]] double total_exit_rate(const Key<W>& key) const {
    const std::size_t chains = m_.chains.size();
    double q = 0.0;
    for (std::size_t c = 0; c < chains; ++c) {
      const std::uint64_t phase = get(key, m_.phase_field[c]);
      if (phase == 0) continue;
      const auto t = static_cast<std::size_t>(m_.chains[c][get(key, m_.progress_field[c])]);
      q += m_.task(t).exit_rate[phase - 1];
    }
    return q;
  }

  // The payload a state of entry payload `entry`, probability p and exit rate q leaves with.
  [[gnu::always_inline]] void leave_with_payload(const double* entry, double p, double q, double* exit) const {
    if (s_.payload == Payload::Moments) {
      exit[0] = entry[0] + p / q;
      exit[1] = entry[1] + 2.0 * entry[0] / q + 2.0 * p / (q * q);
    } else if (s_.payload == Payload::Uniformised) {
      // u(n) = v(n) + (1 - q/L) u(n-1): in the state at jump n; leaves at jump n + 1.
      const double stay = 1.0 - q / s_.uniform_rate;
      const double leave = q / s_.uniform_rate;
      double u = 0.0;
      exit[0] = 0.0;
      for (std::size_t n = 0; n + 1 < s_.width; ++n) {
        u = entry[n] + stay * u;
        exit[n + 1] = leave * u;
      }
    }
  }

  // Emits the successors of a state: each running task moving to a later phase, or completing
  // and enabling its successors; `inverse` is 1 / the state's exit rate.
  template <class Emit>
  [[gnu::always_inline]] void emit_successors(const Key<W>& key, double inverse, Emit& emit) const {
    const std::size_t chains = m_.chains.size();
    for (std::size_t c = 0; c < chains; ++c) {
      const std::uint64_t phase = get(key, m_.phase_field[c]);
      if (phase == 0) continue;
      const std::uint64_t progress = get(key, m_.progress_field[c]);
      const auto t = static_cast<std::size_t>(m_.chains[c][progress]);
      const PhaseTask& task = m_.task(t);
      const int here = task.potential[phase - 1];
      for (const auto& [to, rate] : task.moves[phase - 1]) {
        Key<W> next = key;
        put(next, m_.phase_field[c], static_cast<std::uint64_t>(to));
        emit(next, rate * inverse, static_cast<std::uint32_t>(task.potential[static_cast<std::size_t>(to - 1)] - here));
      }
      const double absorb = task.absorb_rate[phase - 1];
      if (absorb > 0.0) {
        Key<W> next = key;
        put(next, m_.progress_field[c], progress + 1);
        put(next, m_.phase_field[c], 0);
        enable(next, m_.successors[t], 0, absorb * inverse, static_cast<std::uint32_t>(task.done_potential - here),
               emit);
      }
    }
  }

  // Counting sort of the successors by (rise, shard).
  static void sort_successors(ChunkWork<W>& w) {
    const std::size_t buckets = static_cast<std::size_t>(w.largest_rise) * kShards;
    w.bucket_start.assign(buckets + 1, 0);
    for (const Contribution<W>& c : w.raw) ++w.bucket_start[(c.rise - 1) * kShards + shard_of(c.hash) + 1];
    for (std::size_t b = 0; b < buckets; ++b) w.bucket_start[b + 1] += w.bucket_start[b];
    w.sorted.resize(w.raw.size());
    std::vector<std::uint32_t>& fill = w.bucket_start;  // advanced, then restored below
    for (const Contribution<W>& c : w.raw) w.sorted[fill[(c.rise - 1) * kShards + shard_of(c.hash)]++] = c;
    for (std::size_t b = buckets; b > 0; --b) fill[b] = fill[b - 1];
    fill[0] = 0;
  }

  // Throws StateSpaceTooLarge, on every rank alike, when the live levels and buffers outgrow
  // the budget (of the rank that holds most) or the states visited max_states.
  void check_memory(const std::deque<Level<W>>& window, const std::vector<ChunkWork<W>>& work,
                    const RoundExchange<W>* exchange, SweepOutcome& out) const {
    double live = 0.0;
    std::size_t live_states = 0;
    for (const Level<W>& l : window) {
      live += l.bytes();
      live_states += l.size();
    }
    for (const ChunkWork<W>& w : work) live += w.bytes();
    std::int64_t job_states = static_cast<std::int64_t>(live_states);
    if (exchange != nullptr) {
      live += exchange->bytes();
      std::tie(live, job_states) = exchange->job_memory(live, job_states);
    }
    out.peak_bytes = std::max(out.peak_bytes, live);
    if (live > static_cast<double>(s_.budget)) {
      throw StateSpaceTooLarge(
          "state space too large: the sweep would hold more than " + bytes_text(static_cast<double>(s_.budget)) +
              (exchange != nullptr ? " on a rank" : "") + " (" + figure(static_cast<double>(job_states)) +
              " live states after " + figure(static_cast<double>(out.states)) +
              " visited; estimate: " + estimate_.BriefReport() + "); use bounds or Monte Carlo instead",
          estimate_);
    }
    if (s_.max_states > 0 && out.states > s_.max_states) {
      throw StateSpaceTooLarge("state space too large: more than max_states = " + std::to_string(s_.max_states) +
                                   " states (estimate: " + estimate_.BriefReport() +
                                   "); use bounds or Monte Carlo instead",
                               estimate_);
    }
  }

  const CompiledGraph& m_;
  SweepSettings s_;
  StateSpaceEstimate estimate_;
  const ProgressFunction& progress_;
  std::vector<int> single_start_;  // the start phase of a task that never branches, else 0
};

}  // namespace

SweepOutcome sweep(const CompiledGraph& m, const SweepSettings& settings, const StateSpaceEstimate& estimate,
                   const ProgressFunction& progress) {
  return with_key_width(m.words, [&](auto words) {
    Sweeper<decltype(words)::value> sweeper(m, settings, estimate, progress);
    return sweeper.run();
  });
}

}  // namespace solvers::state_space_detail
