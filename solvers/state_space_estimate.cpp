#include "solvers/state_space_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "solvers/state_space_chunks.hpp"
#include "solvers/state_space_packed_states.hpp"

namespace solvers::state_space_detail {

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

namespace {

// Work limit of the estimate: downsets visited and polynomial multiply-adds (about 0.2 s).
constexpr double kEstimateDownsets = 2e6;
constexpr double kEstimateWork = 6e7;
// Levels the estimate's histogram may span (16 MB of doubles; 2^24 levels took 128 MB, which
// no budget accounted for): a model whose enumerated states reach further is reported as at
// least what was counted.
constexpr std::size_t kEstimateLevels = std::size_t{1} << 21;

// The phases a task's runtime can be in: those entered at its start and those a move from a
// reachable phase leads to.
double reachable_phases(const PhaseTask& task) {
  std::vector<bool> reached(static_cast<std::size_t>(task.size), false);
  std::vector<int> pending;
  for (int i = 1; i <= task.size; ++i) {
    if (task.alpha[static_cast<std::size_t>(i - 1)] > 0.0) {
      reached[static_cast<std::size_t>(i - 1)] = true;
      pending.push_back(i);
    }
  }
  while (!pending.empty()) {
    const int i = pending.back();
    pending.pop_back();
    for (const auto& [j, rate] : task.moves[static_cast<std::size_t>(i - 1)]) {
      if (rate > 0.0 && !reached[static_cast<std::size_t>(j - 1)]) {
        reached[static_cast<std::size_t>(j - 1)] = true;
        pending.push_back(j);
      }
    }
  }
  return static_cast<double>(std::count(reached.begin(), reached.end(), true));
}

// Phases of each runtime by potential: the generating polynomial of its running states
// (by_potential[m.law_of[t]] for task t).
std::vector<std::vector<double>> phases_by_potential(const CompiledGraph& m) {
  std::vector<std::vector<double>> by_potential(m.laws.size());
  for (std::size_t law = 0; law < m.laws.size(); ++law) {
    const PhaseTask& task = m.laws[law];
    by_potential[law].assign(static_cast<std::size_t>(std::max(1, task.done_potential)), 0.0);
    for (int p : task.potential) {
      // compile() guarantees 0 <= p < done_potential (every phase is left); never write past.
      if (p < 0 || p >= task.done_potential)
        throw std::logic_error("state-space estimate: a phase's level is out of range");
      by_potential[law][static_cast<std::size_t>(p)] += 1.0;
    }
  }
  return by_potential;
}

// Potential of the completed prefix of each chain (64-bit: the sums reach past 2^31).
std::vector<std::vector<std::int64_t>> completed_prefix_potentials(const CompiledGraph& m) {
  std::vector<std::vector<std::int64_t>> prefix(m.chains.size());
  for (std::size_t c = 0; c < m.chains.size(); ++c) {
    prefix[c].push_back(0);
    for (int t : m.chains[c])
      prefix[c].push_back(prefix[c].back() + m.task(static_cast<std::size_t>(t)).done_potential);
  }
  return prefix;
}

// The tables a downset's states are counted from.
struct DownsetTables {
  std::vector<std::vector<double>> by_potential;
  std::vector<std::vector<std::int64_t>> prefix;
};

// Sets poly to the generating polynomial of the running states of the downset `key` by level
// above its completed tasks' potential, which it returns; adds to `next` the downsets that
// start one more task. Always inlined: it runs once per downset, in count_states_by_level's loop.
template <int W>
[[gnu::always_inline]] inline std::int64_t expand_downset(const Key<W>& key, const CompiledGraph& m,
                                                          const DownsetTables& tables, std::vector<double>& poly,
                                                          std::vector<double>& next_poly, double& work,
                                                          Shard<W>& next) {
  std::int64_t base = 0;
  poly.assign(1, 1.0);
  for (std::size_t c = 0; c < m.chains.size(); ++c) {
    const auto progress = static_cast<std::size_t>(get(key, m.progress_field[c]));
    base += tables.prefix[c][progress];
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
    const std::vector<double>& g = tables.by_potential[static_cast<std::size_t>(m.law_of[v])];
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
  return base;
}

// States per level, for the levels the enumeration reaches: grown on demand rather than
// sized by the absorbing level up front, which may be billions of levels away. Counts e's
// downsets and states, and clears e.complete when the enumeration is cut short.
template <int W>
std::vector<double> count_states_by_level(const CompiledGraph& m, double stop_states, StateSpaceEstimate& e) {
  const DownsetTables tables{phases_by_potential(m), completed_prefix_potentials(m)};
  std::vector<double> histogram;
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
      const std::int64_t base = expand_downset(key, m, tables, poly, next_poly, work, next);
      const auto top = static_cast<std::size_t>(base) + poly.size();
      if (top > kEstimateLevels) {
        e.complete = false;
        break;
      }
      if (histogram.size() < top) histogram.resize(top, 0.0);
      for (std::size_t i = 0; i < poly.size(); ++i) {
        histogram[static_cast<std::size_t>(base) + i] += poly[i];
        e.states += poly[i];
      }
      if (stop_states > 0.0 && e.states > stop_states) {
        e.complete = false;
        break;
      }
    }
    std::swap(current, next);
    next = Shard<W>{};
  }
  return histogram;
}

// Every reachable phase of every task is in a state of its own (the task's chain progress
// and phase tell them apart): a floor for an enumeration cut short, which on a long chain
// of many-phase tasks (1e5 tasks of 4096 phases) sees only its first levels.
double reachable_states_floor(const CompiledGraph& m) {
  std::vector<double> reachable_of_law(m.laws.size());
  for (std::size_t law = 0; law < m.laws.size(); ++law) reachable_of_law[law] = reachable_phases(m.laws[law]);
  double floor = 1.0;
  for (const int law : m.law_of) floor += reachable_of_law[static_cast<std::size_t>(law)];
  return floor;
}

template <int W>
StateSpaceEstimate estimate_compiled(const CompiledGraph& m, std::size_t payload_width, std::size_t batch_bytes,
                                     double stop_states) {
  StateSpaceEstimate e;
  e.tasks = static_cast<std::int64_t>(m.task_count());
  e.chains = static_cast<std::int64_t>(m.chains.size());
  e.key_bits = m.key_bits;
  const std::vector<double> histogram = count_states_by_level<W>(m, stop_states, e);
  if (!e.complete) e.states = std::max(e.states, reachable_states_floor(m));
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

std::size_t batch_bytes_for(const CompiledGraph& m, std::uint64_t budget, std::size_t width) {
  const double per_state = static_cast<double>(m.chains.size() * 2 * (key_bytes(m.words) + 24)) +
                           static_cast<double>(width * sizeof(double) * 2);
  const double states = std::clamp(static_cast<double>(budget) / 16.0 / per_state, 4096.0, double(1 << 20));
  return static_cast<std::size_t>(states * per_state);
}

}  // namespace

StateSpaceEstimate estimate_model(const CompiledGraph& m, const StateSpaceOptions& options, std::size_t width) {
  if (m.words > kMostWords) {
    StateSpaceEstimate e;
    e.tasks = static_cast<std::int64_t>(m.task_count());
    e.chains = static_cast<std::int64_t>(m.chains.size());
    e.key_bits = m.key_bits;
    e.complete = false;
    // Each chain can at least be done or not: 2^chains states or more.
    e.states = std::pow(2.0, static_cast<double>(m.chains.size()));
    e.peak_states = e.states / static_cast<double>(std::max<std::int64_t>(1, m.total_potential));
    e.bytes = e.peak_states * bytes_per_state(32, width);
    e.rank_bytes = e.bytes;
    return e;
  }
  const std::size_t batch = batch_bytes_for(m, options.memory_budget_bytes, width);
  StateSpaceEstimate e = with_key_width(m.words, [&](auto words) {
    return estimate_compiled<decltype(words)::value>(m, width, batch, options.estimate_stop_states);
  });
  e.ranks = options.communicator == nullptr ? 1 : options.communicator->size();
  e.rank_bytes = e.bytes;
  if (e.ranks > 1) {
    // The largest rank's shards of the live states, 10% more for the imbalance of the hashes
    // between shards; its own batch buffers and about as much again in the round's messages.
    const Ownership ownership{0, e.ranks};
    const double share =
        std::min(1.0, 1.1 * static_cast<double>(ownership.shards_of(0)) / static_cast<double>(kShards));
    e.rank_bytes = (e.bytes - static_cast<double>(batch)) * share + 2.0 * static_cast<double>(batch);
  }
  return e;
}

}  // namespace solvers::state_space_detail

namespace solvers {

std::string StateSpaceEstimate::BriefReport() const {
  using state_space_detail::bytes_text;
  using state_space_detail::figure;
  // The same words for any number of ranks, so that a job reports what one process reports;
  // a refusal for a rank's memory says its share itself (refuse_if_too_large).
  return std::string(complete ? "about " : "at least ") + figure(states) + " states (peak " + figure(peak_states) +
         " live, " + bytes_text(bytes) + "; " + std::to_string(tasks) + " tasks on " + std::to_string(chains) +
         " chains, " + std::to_string(key_bits) + "-bit states)";
}

}  // namespace solvers
