#include "solvers/state_space.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "solvers/state_space_model.hpp"

namespace solvers {

using state_space_detail::CompiledGraph;
using state_space_detail::Field;
using state_space_detail::PhaseTask;

bool StateSpaceOptions::IsValid(std::string* why) const {
  auto fail = [&](const std::string& message) {
    if (why != nullptr) *why = message;
    return false;
  };
  if (memory_budget_bytes < (std::uint64_t{1} << 20)) {
    return fail("memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes));
  }
  if (max_states < 0) return fail("max_states must be >= 0 (0: no limit), got " + std::to_string(max_states));
  if (distribution_points < 16 || distribution_points > (1 << 20)) {
    return fail("distribution_points must be in [16, 1048576], got " + std::to_string(distribution_points));
  }
  if (threads < 0) return fail("threads must be >= 0 (0: all cores), got " + std::to_string(threads));
  if (!(fit_cv2_tolerance > 0.0 && fit_cv2_tolerance <= 1.0)) {
    return fail("fit_cv2_tolerance must be in (0, 1], got " + std::to_string(fit_cv2_tolerance));
  }
  if (fit_cv2_tolerance < 1.0 / 4096) return fail("fit_cv2_tolerance must be >= 1/4096 (at most 4096 fitted phases)");
  return true;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t default_state_space_budget() {
  const std::uint64_t physical = physical_memory_bytes();
  return physical == 0 ? std::uint64_t{1} << 30 : physical / 4;
}

namespace {

std::string figure(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, x < 1e6 ? "%.0f" : "%.2g", x);
  return buffer;
}

std::string bytes_text(double bytes) {
  char buffer[32];
  if (bytes >= 1e9) {
    std::snprintf(buffer, sizeof buffer, "%.1f GB", bytes / 1e9);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f MB", bytes / 1e6);
  }
  return buffer;
}

}  // namespace

std::string StateSpaceEstimate::BriefReport() const {
  return std::string(complete ? "about " : "at least ") + figure(states) + " states (peak " + figure(peak_states) +
         " live, " + bytes_text(bytes) + "; " + std::to_string(tasks) + " tasks on " + std::to_string(chains) +
         " chains, " + std::to_string(key_bits) + "-bit states)";
}

StateSpaceTooLarge::StateSpaceTooLarge(const std::string& message, StateSpaceEstimate estimate)
    : std::runtime_error(message), estimate_(estimate) {}

namespace {

// ---- Packed states -----------------------------------------------------------------------

template <int W>
struct Key {
  std::array<std::uint64_t, W> w{};
  // Word by word: the defaulted comparison calls memcmp, a sixth of the sweep's time.
  bool operator==(const Key& other) const {
    bool same = true;
    for (std::size_t i = 0; i < W; ++i) same &= w[i] == other.w[i];
    return same;
  }
};

template <int W>
inline std::uint64_t get(const Key<W>& key, const Field& f) {
  return (key.w[static_cast<std::size_t>(f.word)] >> f.shift) & f.mask;
}

template <int W>
inline void put(Key<W>& key, const Field& f, std::uint64_t value) {
  std::uint64_t& word = key.w[static_cast<std::size_t>(f.word)];
  word = (word & ~(f.mask << f.shift)) | (value << f.shift);
}

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

template <int W>
inline std::uint64_t hash_of(const Key<W>& key) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t word : key.w) h = mix64(h ^ word);
  return h;
}

// Shards split each level by the top bits of the hash, so that successors are merged in
// parallel (one shard per task) and deterministically (each shard in chunk order).
constexpr int kShardBits = 6;
constexpr std::size_t kShards = std::size_t{1} << kShardBits;
inline std::size_t shard_of(std::uint64_t hash) { return static_cast<std::size_t>(hash >> (64 - kShardBits)); }

// Open addressing, linear probing, slots hold index + 1 into the entry arrays (kept in
// insertion order, which is what makes the sweep's order deterministic).
template <int W>
struct Shard {
  std::vector<Key<W>> keys;
  std::vector<double> prob;
  std::vector<double> payload;
  std::vector<std::uint32_t> slots;

  std::size_t find_or_insert(const Key<W>& key, std::uint64_t hash, std::size_t payload_width) {
    if ((keys.size() + 1) * 10 > slots.size() * 7) grow();
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = slots[i];
      if (s == 0) {
        slots[i] = static_cast<std::uint32_t>(keys.size() + 1);
        keys.push_back(key);
        prob.push_back(0.0);
        payload.resize(payload.size() + payload_width, 0.0);
        return keys.size() - 1;
      }
      if (keys[s - 1] == key) return s - 1;
    }
  }

  void grow() {
    if (keys.size() >= std::numeric_limits<std::uint32_t>::max() / 2) {
      throw std::length_error("state space: more than 2^31 states in one shard of a level");
    }
    std::vector<std::uint32_t> bigger(std::max<std::size_t>(64, slots.size() * 2), 0);
    const std::size_t mask = bigger.size() - 1;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      std::size_t i = hash_of(keys[k]) & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = static_cast<std::uint32_t>(k + 1);
    }
    slots.swap(bigger);
  }

  double bytes() const {
    return static_cast<double>(keys.capacity() * sizeof(Key<W>) + prob.capacity() * sizeof(double) +
                               payload.capacity() * sizeof(double) + slots.capacity() * sizeof(std::uint32_t));
  }
};

template <int W>
struct Level {
  std::vector<Shard<W>> shards = std::vector<Shard<W>>(kShards);
  std::size_t size() const {
    std::size_t n = 0;
    for (const Shard<W>& s : shards) n += s.keys.size();
    return n;
  }
  double bytes() const {
    double b = 0.0;
    for (const Shard<W>& s : shards) b += s.bytes();
    return b;
  }
};

// Bytes per live state: key, probability and payload in vectors that grow by doubling, plus
// the hash slots (load factor 0.35 to 0.7).
double bytes_per_state(std::size_t key_bytes, std::size_t payload_width) {
  return 1.5 * static_cast<double>(key_bytes + sizeof(double) * (1 + payload_width)) + 8.0;
}

// ---- The estimate ------------------------------------------------------------------------

// Work limit of the estimate: downsets visited and polynomial multiply-adds (about 0.2 s).
constexpr double kEstimateDownsets = 2e6;
constexpr double kEstimateWork = 6e7;

template <int W>
StateSpaceEstimate estimate_compiled(const CompiledGraph& m, std::size_t payload_width, std::size_t batch_bytes) {
  StateSpaceEstimate e;
  e.tasks = static_cast<std::int64_t>(m.tasks.size());
  e.chains = static_cast<std::int64_t>(m.chains.size());
  e.key_bits = m.key_bits;
  const std::size_t tasks = m.tasks.size();
  // Phases of each task by potential: the generating polynomial of its running states.
  std::vector<std::vector<double>> by_potential(tasks);
  for (std::size_t t = 0; t < tasks; ++t) {
    const PhaseTask& task = m.tasks[t];
    by_potential[t].assign(static_cast<std::size_t>(std::max(1, task.done_potential)), 0.0);
    for (int p : task.potential) by_potential[t][static_cast<std::size_t>(p)] += 1.0;
  }
  // Potential of the completed prefix of each chain.
  std::vector<std::vector<int>> prefix(m.chains.size());
  for (std::size_t c = 0; c < m.chains.size(); ++c) {
    prefix[c].push_back(0);
    for (int t : m.chains[c]) prefix[c].push_back(prefix[c].back() + m.tasks[static_cast<std::size_t>(t)].done_potential);
  }
  std::vector<double> histogram(static_cast<std::size_t>(m.total_potential) + 1, 0.0);
  double work = 0.0;
  std::vector<double> poly, next_poly;
  Shard<W> current, next;
  current.find_or_insert(Key<W>{}, hash_of(Key<W>{}), 0);
  while (!current.keys.empty() && e.complete) {
    for (const Key<W>& key : current.keys) {
      if (e.downsets >= kEstimateDownsets || work >= kEstimateWork) {
        e.complete = false;
        break;
      }
      e.downsets += 1.0;
      int base = 0;
      poly.assign(1, 1.0);
      for (std::size_t c = 0; c < m.chains.size(); ++c) {
        const auto progress = static_cast<std::size_t>(get(key, m.progress_field[c]));
        base += prefix[c][progress];
        if (progress == m.chains[c].size()) continue;
        const auto v = static_cast<std::size_t>(m.chains[c][progress]);
        bool ready = true;
        for (const auto& [chain, position] : m.predecessors[v]) {
          if (get(key, m.progress_field[static_cast<std::size_t>(chain)]) <= static_cast<std::uint64_t>(position)) {
            ready = false;
            break;
          }
        }
        if (!ready) continue;
        const std::vector<double>& g = by_potential[v];
        next_poly.assign(poly.size() + g.size() - 1, 0.0);
        for (std::size_t i = 0; i < poly.size(); ++i) {
          for (std::size_t j = 0; j < g.size(); ++j) next_poly[i + j] += poly[i] * g[j];
        }
        work += static_cast<double>(poly.size() * g.size());
        poly.swap(next_poly);
        Key<W> successor = key;
        put(successor, m.progress_field[c], progress + 1);
        next.find_or_insert(successor, hash_of(successor), 0);
      }
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const std::size_t level = static_cast<std::size_t>(base) + i;
        if (level < histogram.size()) histogram[level] += poly[i];
        e.states += poly[i];
      }
    }
    std::swap(current, next);
    next = Shard<W>{};
  }
  // The sweep holds the level it processes and the levels its successors can reach.
  const auto window = static_cast<std::size_t>(m.largest_jump) + 1;
  double live = 0.0;
  for (std::size_t level = 0; level < histogram.size(); ++level) {
    live += histogram[level];
    if (level >= window) live -= histogram[level - window];
    e.peak_states = std::max(e.peak_states, live);
  }
  e.bytes = e.peak_states * bytes_per_state(sizeof(Key<W>), payload_width) + static_cast<double>(batch_bytes);
  return e;
}

// ---- The sweep ---------------------------------------------------------------------------

// What each state carries besides the probability of entering it.
enum class Payload {
  None,          // the mean only: sum of P(enter) / exit rate
  Moments,       // E[entry time; enter] and E[entry time²; enter]: mean and variance
  Uniformised,   // P(enter at jump n of the uniformised chain), n < width: the distribution
};

struct SweepSettings {
  Payload payload = Payload::None;
  std::size_t width = 0;        // doubles per state
  double uniform_rate = 0.0;    // Lambda of the uniformisation
  std::uint64_t budget = 0;
  std::int64_t max_states = 0;
  int threads = 0;
};

struct SweepOutcome {
  double mean = 0.0;             // sum of P(enter) / exit rate
  double absorbed = 0.0;         // probability of reaching the end (1 up to rounding)
  std::vector<double> end_payload;
  std::int64_t states = 0;
  double peak_bytes = 0.0;
};

template <int W>
struct Contribution {
  Key<W> key;
  std::uint64_t hash;
  double fraction;        // rate / total exit rate of the source
  std::uint32_t source;   // index of the source state in its chunk
  std::uint32_t rise;     // level of the target minus the source's
};

template <int W>
struct ChunkWork {
  std::size_t shard = 0, begin = 0, end = 0;
  std::vector<Contribution<W>> raw, sorted;
  std::vector<std::uint32_t> bucket_start;  // bucket (rise - 1) * kShards + shard
  std::uint32_t largest_rise = 0;
  std::vector<double> exit_prob;
  std::vector<double> exit_payload;
  double mean = 0.0;
  double absorbed = 0.0;
  std::vector<double> end_payload;
  std::int64_t states = 0;

  double bytes() const {
    return static_cast<double>((raw.capacity() + sorted.capacity()) * sizeof(Contribution<W>) +
                               (exit_prob.capacity() + exit_payload.capacity()) * sizeof(double) +
                               bucket_start.capacity() * sizeof(std::uint32_t));
  }
};

template <int W>
class Sweeper {
 public:
  Sweeper(const CompiledGraph& model, const SweepSettings& settings, const StateSpaceEstimate& estimate)
      : m_(model), s_(settings), estimate_(estimate) {
    single_start_.resize(m_.tasks.size());
    for (std::size_t t = 0; t < m_.tasks.size(); ++t) {
      single_start_[t] = m_.tasks[t].single_start() ? m_.tasks[t].start_phase() : 0;
    }
  }

  SweepOutcome run() {
    tbb::task_arena arena(s_.threads > 0 ? s_.threads : tbb::task_arena::automatic);
    SweepOutcome out;
    out.end_payload.assign(s_.width, 0.0);
    std::deque<Level<W>> window;
    // The initial states: every source task starts.
    {
      std::vector<Contribution<W>> initial;
      auto emit = [&](const Key<W>& key, double fraction, std::uint32_t rise) {
        initial.push_back({key, hash_of(key), fraction, 0, rise});
      };
      enable(Key<W>{}, m_.sources, 0, 1.0, 0, emit);
      for (const Contribution<W>& c : initial) {
        while (window.size() <= c.rise) window.emplace_back();
        Shard<W>& shard = window[c.rise].shards[shard_of(c.hash)];
        const std::size_t i = shard.find_or_insert(c.key, c.hash, s_.width);
        shard.prob[i] += c.fraction;
        if (s_.payload == Payload::Uniformised) shard.payload[i * s_.width] += c.fraction;
      }
    }
    const std::size_t chunk_states = 2048;
    // States per batch: the successor buffers of a batch take about a sixteenth of the budget.
    const double per_state = static_cast<double>(m_.chains.size() * 2 * sizeof(Contribution<W>)) +
                             static_cast<double>(s_.width * sizeof(double) * 2);
    const auto batch_states = static_cast<std::size_t>(
        std::clamp(static_cast<double>(s_.budget) / 16.0 / per_state, 4096.0, static_cast<double>(1 << 20)));
    const std::size_t batch_chunks = std::max<std::size_t>(1, batch_states / chunk_states);
    std::vector<ChunkWork<W>> work(batch_chunks);
    std::vector<double> chunk_means;

    while (!window.empty()) {
      Level<W>& level = window.front();
      // Fixed chunks of the level, in shard order: independent of the thread count.
      std::vector<std::array<std::size_t, 3>> chunks;
      for (std::size_t sh = 0; sh < kShards; ++sh) {
        const std::size_t n = level.shards[sh].keys.size();
        for (std::size_t b = 0; b < n; b += chunk_states) chunks.push_back({sh, b, std::min(n, b + chunk_states)});
      }
      for (std::size_t first = 0; first < chunks.size(); first += batch_chunks) {
        const std::size_t count = std::min(batch_chunks, chunks.size() - first);
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) {
              ChunkWork<W>& w = work[k];
              w.shard = chunks[first + k][0];
              w.begin = chunks[first + k][1];
              w.end = chunks[first + k][2];
              process_chunk(level.shards[w.shard], w);
            }
          });
        });
        std::uint32_t largest_rise = 0;
        for (std::size_t k = 0; k < count; ++k) {
          largest_rise = std::max(largest_rise, work[k].largest_rise);
          chunk_means.push_back(work[k].mean);
          out.absorbed += work[k].absorbed;
          for (std::size_t i = 0; i < s_.width && work[k].absorbed > 0.0; ++i) out.end_payload[i] += work[k].end_payload[i];
          out.states += work[k].states;
        }
        while (window.size() <= largest_rise) window.emplace_back();
        // Merge: one task per (rise, shard) bucket, each taking the chunks in order.
        const std::size_t buckets = largest_rise * kShards;
        arena.execute([&] {
          tbb::parallel_for(tbb::blocked_range<std::size_t>(0, buckets, 1), [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t b = r.begin(); b != r.end(); ++b) {
              Shard<W>& target = window[b / kShards + 1].shards[b % kShards];
              for (std::size_t k = 0; k < count; ++k) merge_bucket(work[k], b, target);
            }
          });
        });
        double live = 0.0;
        std::size_t live_states = 0;
        for (const Level<W>& l : window) {
          live += l.bytes();
          live_states += l.size();
        }
        for (std::size_t k = 0; k < count; ++k) live += work[k].bytes();
        out.peak_bytes = std::max(out.peak_bytes, live);
        if (live > static_cast<double>(s_.budget)) {
          StateSpaceEstimate e = estimate_;
          throw StateSpaceTooLarge("state space too large: the sweep would hold more than " +
                                       bytes_text(static_cast<double>(s_.budget)) + " (" +
                                       figure(static_cast<double>(live_states)) + " live states after " +
                                       figure(static_cast<double>(out.states)) + " visited; estimate: " +
                                       e.BriefReport() + "); use bounds or Monte Carlo instead",
                                   e);
        }
        if (s_.max_states > 0 && out.states > s_.max_states) {
          throw StateSpaceTooLarge("state space too large: more than max_states = " + std::to_string(s_.max_states) +
                                       " states (estimate: " + estimate_.BriefReport() +
                                       "); use bounds or Monte Carlo instead",
                                   estimate_);
        }
      }
      window.pop_front();
    }
    out.mean = 0.0;
    for (double part : chunk_means) out.mean += part;
    return out;
  }

 private:
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
  void enable(Key<W> key, const std::vector<int>& candidates, std::size_t from, double fraction,
              std::uint32_t rise, Emit& emit) const {
    for (std::size_t k = from; k < candidates.size(); ++k) {
      const int v = candidates[k];
      if (!ready(key, v)) continue;
      const auto vv = static_cast<std::size_t>(v);
      const PhaseTask& task = m_.tasks[vv];
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
    w.raw.clear();
    w.largest_rise = 0;
    w.mean = 0.0;
    w.absorbed = 0.0;
    w.states = static_cast<std::int64_t>(w.end - w.begin);
    w.end_payload.assign(s_.width, 0.0);
    w.exit_prob.resize(w.end - w.begin);
    w.exit_payload.resize((w.end - w.begin) * s_.width);
    const std::size_t chains = m_.chains.size();
    std::uint32_t source = 0;
    auto emit = [&](const Key<W>& key, double fraction, std::uint32_t rise) {
      w.raw.push_back({key, hash_of(key), fraction, source, rise});
      w.largest_rise = std::max(w.largest_rise, rise);
    };
    for (std::size_t i = w.begin; i < w.end; ++i, ++source) {
      const Key<W>& key = shard.keys[i];
      const double p = shard.prob[i];
      const double* entry = shard.payload.data() + i * s_.width;
      double q = 0.0;
      for (std::size_t c = 0; c < chains; ++c) {
        const std::uint64_t phase = get(key, m_.phase_field[c]);
        if (phase == 0) continue;
        const auto t = static_cast<std::size_t>(m_.chains[c][get(key, m_.progress_field[c])]);
        q += m_.tasks[t].exit_rate[phase - 1];
      }
      w.exit_prob[source] = p;
      if (q == 0.0) {  // the absorbing state: every task done
        w.absorbed += p;
        for (std::size_t k = 0; k < s_.width; ++k) w.end_payload[k] += entry[k];
        continue;
      }
      w.mean += p / q;
      double* exit = w.exit_payload.data() + static_cast<std::size_t>(source) * s_.width;
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
      const double inverse = 1.0 / q;
      for (std::size_t c = 0; c < chains; ++c) {
        const std::uint64_t phase = get(key, m_.phase_field[c]);
        if (phase == 0) continue;
        const std::uint64_t progress = get(key, m_.progress_field[c]);
        const auto t = static_cast<std::size_t>(m_.chains[c][progress]);
        const PhaseTask& task = m_.tasks[t];
        const int here = task.potential[phase - 1];
        for (const auto& [to, rate] : task.moves[phase - 1]) {
          Key<W> next = key;
          put(next, m_.phase_field[c], static_cast<std::uint64_t>(to));
          emit(next, rate * inverse,
               static_cast<std::uint32_t>(task.potential[static_cast<std::size_t>(to - 1)] - here));
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
    const std::size_t buckets = static_cast<std::size_t>(w.largest_rise) * kShards;
    w.bucket_start.assign(buckets + 1, 0);
    for (const Contribution<W>& c : w.raw) ++w.bucket_start[(c.rise - 1) * kShards + shard_of(c.hash) + 1];
    for (std::size_t b = 0; b < buckets; ++b) w.bucket_start[b + 1] += w.bucket_start[b];
    w.sorted.resize(w.raw.size());
    {
      std::vector<std::uint32_t>& fill = w.bucket_start;  // advanced, then restored below
      for (const Contribution<W>& c : w.raw) w.sorted[fill[(c.rise - 1) * kShards + shard_of(c.hash)]++] = c;
      for (std::size_t b = buckets; b > 0; --b) fill[b] = fill[b - 1];
      fill[0] = 0;
    }
  }

  void merge_bucket(const ChunkWork<W>& w, std::size_t bucket, Shard<W>& target) const {
    if (bucket + 1 >= w.bucket_start.size()) return;
    for (std::uint32_t i = w.bucket_start[bucket]; i < w.bucket_start[bucket + 1]; ++i) {
      const Contribution<W>& c = w.sorted[i];
      const std::size_t index = target.find_or_insert(c.key, c.hash, s_.width);
      target.prob[index] += c.fraction * w.exit_prob[c.source];
      if (s_.width > 0) {
        double* to = target.payload.data() + index * s_.width;
        const double* from = w.exit_payload.data() + static_cast<std::size_t>(c.source) * s_.width;
        for (std::size_t k = 0; k < s_.width; ++k) to[k] += c.fraction * from[k];
      }
    }
  }

  const CompiledGraph& m_;
  SweepSettings s_;
  StateSpaceEstimate estimate_;
  std::vector<int> single_start_;  // the start phase of a task that never branches, else 0
};

// ---- Dispatch on the key width -------------------------------------------------------------

template <class F>
auto with_key_width(int words, F&& f) {
  if (words <= 1) return f(std::integral_constant<int, 1>{});
  if (words <= 2) return f(std::integral_constant<int, 2>{});
  return f(std::integral_constant<int, 4>{});
}

constexpr int kMostWords = 4;

std::size_t key_bytes(int words) { return words <= 1 ? 8 : words <= 2 ? 16 : 32; }

std::size_t batch_bytes_for(const CompiledGraph& m, std::uint64_t budget, std::size_t width) {
  const double per_state = static_cast<double>(m.chains.size() * 2 * (key_bytes(m.words) + 24)) +
                           static_cast<double>(width * sizeof(double) * 2);
  const double states = std::clamp(static_cast<double>(budget) / 16.0 / per_state, 4096.0, double(1 << 20));
  return static_cast<std::size_t>(states * per_state);
}

StateSpaceEstimate estimate_model(const CompiledGraph& m, const StateSpaceOptions& options, std::size_t width) {
  if (m.words > kMostWords) {
    StateSpaceEstimate e;
    e.tasks = static_cast<std::int64_t>(m.tasks.size());
    e.chains = static_cast<std::int64_t>(m.chains.size());
    e.key_bits = m.key_bits;
    e.complete = false;
    // Each chain can at least be done or not: 2^chains states or more.
    e.states = std::pow(2.0, static_cast<double>(m.chains.size()));
    e.peak_states = e.states / static_cast<double>(std::max(1, m.total_potential));
    e.bytes = e.peak_states * bytes_per_state(32, width);
    return e;
  }
  const std::size_t batch = batch_bytes_for(m, options.memory_budget_bytes, width);
  return with_key_width(m.words, [&](auto words) { return estimate_compiled<decltype(words)::value>(m, width, batch); });
}

// Doubles per state of the uniformisation pass: jumps up to Lambda * t_max with a Poisson
// margin, where t_max = mean + 12 standard deviations.
std::size_t jumps_for(double uniform_rate, double t_max) {
  const double expected = uniform_rate * t_max;
  return static_cast<std::size_t>(std::ceil(expected + 10.0 * std::sqrt(expected) + 32.0));
}

void refuse_if_too_large(const StateSpaceEstimate& e, const StateSpaceOptions& options) {
  const bool over_memory = e.bytes > static_cast<double>(options.memory_budget_bytes);
  const bool over_states = options.max_states > 0 && e.states > static_cast<double>(options.max_states);
  if (!over_memory && !over_states) return;
  std::string why = over_memory ? "needs " + bytes_text(e.bytes) + ", budget " +
                                      bytes_text(static_cast<double>(options.memory_budget_bytes))
                                : "max_states = " + std::to_string(options.max_states);
  throw StateSpaceTooLarge("state space too large: " + e.BriefReport() + "; " + why +
                               "; use bounds or Monte Carlo instead",
                           e);
}

SweepOutcome sweep(const CompiledGraph& m, const SweepSettings& settings, const StateSpaceEstimate& estimate) {
  return with_key_width(m.words, [&](auto words) {
    Sweeper<decltype(words)::value> sweeper(m, settings, estimate);
    return sweeper.run();
  });
}

// CDF of the absorption time from the uniformised jump counts: P(T <= t) =
// sum_n v(n) P(Poisson(Lambda t) >= n); masses of the grid cells placed at their midpoints.
distributions::Distribution distribution_from_jumps(const std::vector<double>& v, double rate, double top, int points,
                                                    double* beyond) {
  const auto n = v.size();
  std::vector<double> log_factorial(n + 1, 0.0);
  for (std::size_t k = 1; k <= n; ++k) log_factorial[k] = log_factorial[k - 1] + std::log(static_cast<double>(k));
  auto cdf = [&](double t) {
    if (t <= 0.0) return 0.0;
    const double lambda = rate * t;
    // P(Poisson >= k) for k = 0.. by the running sum of the pmf from below.
    double below = 0.0, total = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      total += v[k] * std::max(0.0, 1.0 - below);
      below += std::exp(-lambda + static_cast<double>(k) * std::log(lambda) - log_factorial[k]);
    }
    return total;
  };
  std::vector<double> values, weights;
  double previous = 0.0;
  const double step = top / points;
  for (int g = 1; g <= points; ++g) {
    const double f = cdf(step * g);
    values.push_back(step * (g - 0.5));
    weights.push_back(std::max(0.0, f - previous));
    previous = std::max(previous, f);
  }
  *beyond = std::max(0.0, 1.0 - previous);
  if (*beyond > 0.0) {
    values.push_back(top);
    weights.push_back(*beyond);
  }
  return distributions::from_histogram(values, weights);
}

}  // namespace

StateSpaceEstimate estimate_state_count(const graph::TaskGraph& graph, const StateSpaceOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("state-space options: " + why);
  const CompiledGraph m = state_space_detail::compile(graph, options.fit_cv2_tolerance);
  const std::size_t width =
      options.keep_distribution ? jumps_for(m.largest_total_rate, 3.0 * m.critical_path_of_means) : 0;
  return estimate_model(m, options, width);
}

Result solve_state_space(const graph::TaskGraph& graph, const StateSpaceOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("state-space options: " + why);
  const auto start = std::chrono::steady_clock::now();
  const CompiledGraph m = state_space_detail::compile(graph, options.fit_cv2_tolerance);
  // A first guess of the uniformisation width (the second pass checks again with the real one).
  const std::size_t guessed_width =
      options.keep_distribution ? jumps_for(m.largest_total_rate, 3.0 * m.critical_path_of_means) : 0;
  const StateSpaceEstimate estimate = estimate_model(m, options, guessed_width);
  refuse_if_too_large(estimate, options);
  if (m.words > kMostWords) {
    throw StateSpaceTooLarge("state space too large: a state needs " + std::to_string(m.key_bits) +
                                 " bits (at most 256); use bounds or Monte Carlo instead",
                             estimate);
  }

  Result result;
  result.method = Method::StateSpace;
  SweepSettings settings;
  settings.budget = options.memory_budget_bytes;
  settings.max_states = options.max_states;
  settings.threads = options.threads;
  settings.payload = options.keep_distribution ? Payload::Moments : Payload::None;
  settings.width = options.keep_distribution ? 2 : 0;
  SweepOutcome first = m.tasks.empty() ? SweepOutcome{0.0, 1.0, {0.0, 0.0}, 1, 0.0} : sweep(m, settings, estimate);
  if (std::abs(first.absorbed - 1.0) > 1e-6) {
    throw std::logic_error("state space: the end is reached with probability " + std::to_string(first.absorbed));
  }
  result.mean = first.mean;
  result.statistics.states = first.states;
  std::string distribution_note;
  if (options.keep_distribution) {
    if (m.tasks.empty()) {
      result.distribution = distributions::deterministic(0.0);
    } else {
      const double variance = std::max(0.0, first.end_payload[1] - first.mean * first.mean);
      const double sd = std::sqrt(variance);
      settings.payload = Payload::Uniformised;
      settings.uniform_rate = m.largest_total_rate;
      settings.width = jumps_for(settings.uniform_rate, first.mean + 12.0 * sd);
      StateSpaceEstimate second = estimate_model(m, options, settings.width);
      refuse_if_too_large(second, options);
      const SweepOutcome jumps = sweep(m, settings, second);
      double beyond = 0.0;
      result.distribution = distribution_from_jumps(jumps.end_payload, settings.uniform_rate, first.mean + 8.0 * sd,
                                                    options.distribution_points, &beyond);
      char buffer[160];
      std::snprintf(buffer, sizeof buffer, "; distribution by uniformisation (%zu jumps, %d points, mass beyond %.2g: %.1e)",
                    settings.width, options.distribution_points, first.mean + 8.0 * sd, beyond);
      distribution_note = buffer;
    }
  }
  const std::string states_text = std::to_string(result.statistics.states) + " states";
  if (m.fitted_tasks == 0) {
    result.lower = result.upper = result.mean;
    result.detail = "state space: exact, " + states_text + distribution_note;
  } else {
    result.lower = std::min(m.critical_path_of_means, result.mean);
    result.upper = m.fitted_only_deterministic ? result.mean : std::numeric_limits<double>::infinity();
    result.detail = "state space: mean of a fitted model, " + states_text + "; " + m.fit_detail +
                    (m.fitted_only_deterministic
                         ? "; an upper bound (deterministic tasks replaced by Erlangs of the same mean)"
                         : "; not a bound") +
                    distribution_note;
  }
  result.statistics.represented_tasks = static_cast<std::int64_t>(graph.node_count());
  if (result.distribution) result.statistics.grid_points = static_cast<std::int64_t>(distributions::grid_size(*result.distribution));
  result.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Result solve_state_space(std::span<const WeightedGraph> scenarios, const StateSpaceOptions& options) {
  if (scenarios.empty()) throw std::invalid_argument("state space: no scenario");
  double total = 0.0;
  for (const WeightedGraph& s : scenarios) {
    if (s.graph == nullptr || !(s.probability >= 0.0)) {
      throw std::invalid_argument("state space: every scenario needs a graph and a probability >= 0");
    }
    total += s.probability;
  }
  if (std::abs(total - 1.0) > 1e-9) {
    throw std::invalid_argument("state space: scenario probabilities sum to " + std::to_string(total) + ", not 1");
  }
  const auto start = std::chrono::steady_clock::now();
  Result out;
  out.method = Method::StateSpace;
  std::vector<double> weights;
  std::vector<distributions::Distribution> parts;
  bool exact = true;
  for (const WeightedGraph& s : scenarios) {
    const Result r = solve_state_space(*s.graph, options);
    out.mean += s.probability * r.mean;
    out.lower += s.probability * r.lower;
    out.upper = r.upper == std::numeric_limits<double>::infinity() || out.upper == std::numeric_limits<double>::infinity()
                    ? std::numeric_limits<double>::infinity()
                    : out.upper + s.probability * r.upper;
    out.statistics.states += r.statistics.states;
    out.statistics.represented_tasks += r.statistics.represented_tasks;
    exact = exact && r.lower == r.upper;
    if (r.distribution) {
      weights.push_back(s.probability);
      parts.push_back(*r.distribution);
    }
    if (scenarios.size() == 1) out.detail = r.detail;
    else if (!exact && out.detail.empty()) out.detail = r.detail;
  }
  if (scenarios.size() > 1) {
    const std::string summary = std::to_string(scenarios.size()) + " scenarios, " +
                                std::to_string(out.statistics.states) + " states";
    out.detail = exact ? "state space: exact, " + summary : summary + "; " + out.detail;
  }
  if (exact) out.lower = out.upper = out.mean;
  if (!parts.empty()) out.distribution = parts.size() == 1 ? parts.front() : distributions::mixture(weights, parts);
  out.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace solvers
