// Exact state-space analysis of a stochastic task graph (docs/methods.md, section 5).
//
// With phase-type task runtimes the execution of the graph is an absorbing continuous-time
// Markov chain. A state is the set of completed tasks plus the phase of every running task
// (every task whose predecessors have all completed runs; the processor order of the exact
// model is already in the graph as arcs). Because the graph is acyclic and each task's
// phases are ordered (acyclic phase-type representations), every transition strictly raises
// a potential (the phases completed so far), so the chain is swept level by level in that
// order: each state is visited once, the probability of ever entering it is final when its
// level is reached, and the mean runtime is the sum over states of
// P(enter state) x (mean sojourn 1 / total exit rate). No linear system is solved and only
// the live levels are kept in memory. docs/methods.md, "State-space analysis", has the math.
//
// Encoding: the graph's tasks are covered by chains (paths of arcs; the processors' task
// orders in an exact scaled model), so a set of completed tasks closed under predecessors is
// the number of completed tasks of each chain, and at most the head of a chain runs. A state
// is, per chain, (progress, phase of the head) packed into 64 to 256 bits.
//
// Task runtimes: exponential, Erlang, hypoexponential, hyperexponential, acyclic phase-type
// and mixtures of those are exact; deterministic 0 (joins, free barriers) is instantaneous
// and contracted. Every other runtime (deterministic > 0, uniform, truncated normal,
// numerical, cyclic phase-type, shifted, mixtures with such components) is fitted by its
// mean and variance to a phase-type distribution (see StateSpaceOptions::fit_cv2_tolerance);
// the result then says so in `detail` and carries no exactness claim (see solve_state_space).
//
// Distributed solve (StateSpaceOptions::communicator of K > 1 ranks): every rank calls
// solve_state_space with the same graph and options, compiles the same model and computes the
// same estimate, and every rank returns the same Result, bit-identical to one process's (mean,
// lower, upper, statistics.states, detail, distribution; statistics.seconds aside).
//   * Partition: shard s of every level (64 shards by the top bits of a state's hash) lives on
//     rank s % K only. A level's chunks (up to 2048 states of one shard) are listed
//     interleaving the shards, chunk 0 of every shard, then chunk 1, ...; this list, the same
//     for any K (every rank learns every shard's size by one all_gather per level), fixes every
//     order below. (Interleaved, any run of the list spreads over the ranks; one process uses
//     the same list.)
//   * Rounds: a level is processed in rounds, runs of that list each as long as no rank owns
//     more than a batch of states in it (the batch of one process: successor buffers of about
//     a sixteenth of the budget, 4096 to 2^20 states); every rank steps through the same
//     rounds, with or without chunks of its own, and processes its own with its threads.
//   * Exchange, one all_to_all per round: to every other rank, per chunk, the chunk's mean,
//     absorbed mass, end payload and largest rise, and its successors in the shards that rank
//     owns (the key and the product fraction x P(source) that rank would otherwise compute,
//     and with a payload the fraction and the source's payload row). Each rank merges into
//     each of its shards the local and received successors in the order of the chunk list,
//     and folds the chunks' sums in that order: the insertion order of every shard and every
//     floating-point sum are those of one process, hence the identical figures.
//   * Memory: the budget is per rank (its own shards of the live levels, its batch and the
//     round's messages); after each round the ranks compare their memory (all_gather) and
//     max_states, so all throw the same StateSpaceTooLarge together. Before exploring, the
//     estimate is refused when the largest rank's share exceeds the budget (see
//     StateSpaceEstimate::rank_bytes).
// So a level of n states takes about n / (K x batch) rounds, at least one (one process: n /
// batch, the batches it always had); each round is an all_to_all and an all_gather of two
// numbers, and each level one all_gather more. The one-process sweep makes none of these calls.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "distributed/communicator.hpp"
#include "graph/task_graph.hpp"
#include "outcome/outcome.hpp"
#include "solvers/memory.hpp"
#include "solvers/monte_carlo.hpp"  // WeightedGraph
#include "solvers/progress.hpp"
#include "solvers/result.hpp"

namespace solvers {

struct StateSpaceOptions {
  // Largest memory the sweep may hold (states of the live levels, hash indexes and the
  // successor buffers). The model is refused before exploring when the estimate exceeds it, and
  // the sweep stops with StateSpaceTooLarge if it ever would. The solver behind the command
  // gets the run's budget (--memory) less the exact model it solves.
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudget;
  // Largest number of states explored; 0 = no limit other than memory. A model whose
  // estimated state count exceeds it is refused like one past the memory budget (a way to
  // bound the time: the sweep visits about 10 million states per second on 2 cores).
  std::int64_t max_states = 0;
  // When > 0: the estimate (estimate_state_count, and the one a solve makes before exploring)
  // stops counting once it has seen more states than this, and reports what it counted as a
  // lower bound (complete = false). A caller that only asks "does it fit N states?" pays for
  // at most about N states of enumeration, not the estimate's full work limit (about 0.2 s).
  double estimate_stop_states = 0.0;
  // Also compute the runtime distribution (CDF on a grid, by uniformisation over the same
  // sweep). Costs a second sweep carrying distribution_jumps doubles per state, so it is
  // meant for models of up to a few million states; the memory budget accounts for it.
  bool keep_distribution = false;
  // Grid points of the returned distribution (>= 16).
  int distribution_points = 512;
  // Worker threads; 0 = those of the calling thread's TBB arena (all cores outside one; a
  // study's --threads inside its own). Results are bit-identical whatever the thread count.
  int threads = 0;
  // Runtimes that are not of phase type are fitted by mean and squared coefficient of
  // variation cv² = variance / mean²: cv² >= 1 by a two-phase hyperexponential (balanced
  // means), 1/K <= cv² < 1 by a mixture of Erlang-(k-1) and Erlang-k of one rate (exact mean
  // and variance, k = ceil(1/cv²)), and cv² < 1/K, deterministic values included, by an
  // Erlang-K of the same mean, where K = ceil(1 / fit_cv2_tolerance): the fitted cv² is then
  // 1/K, at most fit_cv2_tolerance above the true one. Default 0.125: a deterministic d
  // becomes Erlang(8, 8/d). Smaller values fit closer and multiply the states (a running
  // fitted task has K phases). In (0, 1].
  double fit_cv2_tolerance = 0.125;
  // When false, a graph with a task that would be fitted is not solved: the Result's
  // `unsolved` (NotSupported) names the tasks instead. The method the command calls "exact"
  // sets it false, so that it never shows the mean of a fitted model as exact.
  bool fit_non_phase_type = true;
  // The ranks that solve together (see the top of this file; docs/scale-out.md); null or a
  // communicator of one rank: this process solves alone. memory_budget_bytes and threads are
  // then per rank.
  const distributed::Communicator* communicator = nullptr;

  // True when the options are usable; otherwise false and, if why != nullptr, a message.
  bool IsValid(std::string* why) const;
};

// What a sweep of the graph would hold, computed before exploring: the exact number of
// reachable sets of completed tasks (the downsets of the precedence order) is enumerated
// and each is weighted by the phase combinations of its running tasks.
struct StateSpaceEstimate {
  double states = 0.0;       // states of the chain, including the absorbing one
  double peak_states = 0.0;  // largest number of states live at once (consecutive levels)
  double bytes = 0.0;        // memory the sweep would need at its peak
  // With the K ranks of StateSpaceOptions::communicator: K, and the memory of the rank that
  // holds most at the peak, the figure the per-rank budget is checked against:
  //   (bytes - batch) x min(1, 1.1 x ceil(64 / K) / 64) + 2 x batch,
  // where batch is the successor buffers of one batch: the largest rank's shards (64 / K
  // rounded up) of the peak's states, 10% more for the hashes' imbalance between shards, and
  // each rank's own batch plus about as much again in the round's messages (sent and
  // received). With one rank, rank_bytes = bytes.
  int ranks = 1;
  double rank_bytes = 0.0;
  // False when the enumeration stopped at its work limit (about 0.2 s): the figures above
  // are then lower bounds.
  bool complete = true;
  std::int64_t tasks = 0;     // tasks after contracting instantaneous ones
  std::int64_t chains = 0;    // chains covering them
  std::int64_t key_bits = 0;  // bits of a packed state
  double downsets = 0.0;      // sets of completed tasks enumerated

  // One line, e.g. "about 1.2e+09 states (peak 3.4e+07 live, 1.9 GB; ...)", with ranks
  // "1.9 GB, 0.5 GB per rank of 4".
  std::string BriefReport() const;
};

// Thrown when a model does not fit StateSpaceOptions::memory_budget_bytes or max_states.
// The message gives the estimate and suggests bounds or Monte Carlo instead. In a distributed
// solve every rank throws it, with the same message.
class StateSpaceTooLarge : public std::runtime_error {
 public:
  StateSpaceTooLarge(const std::string& message, StateSpaceEstimate estimate);
  const StateSpaceEstimate& estimate() const { return estimate_; }

 private:
  StateSpaceEstimate estimate_;
};

// Why the sweep refuses a graph whatever its size, worded as the solve's refusal (its
// Unsolved::explanation, NotSupported): a task not of phase type when
// StateSpaceOptions::fit_non_phase_type is false, a runtime without a usable phase-type form, a
// state wider than the encoding.
struct StateSpaceUnsupported {
  std::string reason;
};

// The estimate of the state space of the graph, fast (well under a second) whatever the
// graph's size; or, for a graph the sweep cannot take, why not, and no count. Throws
// std::invalid_argument for invalid options, a cycle or a DynamicPool node (dynamic scheduling
// is not a static graph: use Monte Carlo).
pdl_scale::Outcome<StateSpaceEstimate, StateSpaceUnsupported> estimate_state_count(const graph::TaskGraph& graph,
                                                                                   const StateSpaceOptions& options);

// The mean makespan of the graph by the level sweep. The result's method is Exact and
// statistics.states the number of states visited.
//   * Every task of phase type: mean is exact (up to rounding), lower == upper == mean, and
//     detail says "exact".
//   * Some task fitted by moment matching: mean is the exact mean of the fitted model, and
//     detail names the fitted tasks and their fits. [lower, upper] is then only what is
//     proven about the true model: lower = the critical path of the means (Jensen), upper =
//     mean when every fitted task is deterministic (an Erlang of the same mean is larger in
//     the convex order and the makespan is convex and increasing in each runtime), otherwise
//     +infinity.
//   * options.keep_distribution: distribution holds the runtime distribution (the fitted
//     model's when fitted), a grid of options.distribution_points points.
// A graph the sweep cannot take (estimate_state_count's StateSpaceUnsupported) gives a Result
// whose unsolved (NotSupported) explains it with that reason. Throws StateSpaceTooLarge when
// the estimate (or, later, the sweep) exceeds the budget, std::invalid_argument as
// estimate_state_count does. `progress`, when set, hears the fraction of the sweep done (of
// each sweep in turn, half each, with keep_distribution; progress.hpp); the figures are the
// same with or without it. With options.communicator of several ranks the call is collective
// (see the top of this file); `progress` then hears this rank's view, which counts every rank's
// states.
Result solve_state_space(const graph::TaskGraph& graph, const StateSpaceOptions& options,
                         const ProgressFunction& progress = {});

// A mixture of graphs (the scenarios of an exact model with probabilistic alternatives,
// probabilities summing to 1 within 1e-9): each scenario is solved in turn and mean, lower,
// upper and the distribution are weighted by the probabilities; statistics.states is the sum.
// `progress` hears each scenario's sweep as an equal part of the whole. Collective like the
// solve of one graph when options.communicator has several ranks.
Result solve_state_space(std::span<const WeightedGraph> scenarios, const StateSpaceOptions& options,
                         const ProgressFunction& progress = {});

}  // namespace solvers
