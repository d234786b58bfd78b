// Internal to the state-space solver: task runtimes as ordered phase-type distributions, and
// the task graph compiled into chains and a packed state layout. See state_space.hpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"

namespace solvers::state_space_detail {

// A runtime as an acyclic phase-type distribution whose phases are numbered 1..size so that
// every move goes from a phase to a higher one.
struct PhaseTask {
  int size = 0;                     // phases; 0 = always instantaneous
  std::vector<double> alpha;        // alpha[i - 1]: probability of starting in phase i
  double atom = 0.0;                // probability of completing at once (1 - sum alpha)
  std::vector<double> exit_rate;    // exit_rate[i - 1]: total rate out of phase i
  std::vector<double> absorb_rate;  // rate from phase i to completion
  // moves[i - 1]: (j, rate) for the moves i -> j, j > i.
  std::vector<std::vector<std::pair<int, double>>> moves;
  // The sweep's potential: potential[i - 1] for a task running in phase i, done_potential once
  // completed, 0 before it starts. Every move and every completion raises it by >= 1:
  // potential = done_potential - (longest path of moves from the phase to completion).
  std::vector<int> potential;
  int done_potential = 0;
  double mean = 0.0;

  // True when the task always starts in one phase and never completes at once (Erlang,
  // hypoexponential): enabling it never branches.
  bool single_start() const;
  int start_phase() const;  // the phase of a single start
};

// The runtime of one node as a PhaseTask, exactly or fitted by mean and variance.
struct Conversion {
  PhaseTask task;
  bool fitted = false;
  bool deterministic = false;  // the runtime was a point mass (fitted when > 0)
  std::string fit;             // how, e.g. "Erlang(8, rate 4)" (empty when exact)
};
Conversion to_phase_task(const distributions::Distribution& runtime, double fit_cv2_tolerance);

// A field of the packed state: bits [shift, shift + width) of word `word`.
struct Field {
  int word = 0;
  int shift = 0;
  std::uint64_t mask = 0;  // (1 << width) - 1
};

// The graph with instantaneous tasks contracted, covered by chains, and the state layout.
struct CompiledGraph {
  // Each distinct runtime once (tasks with equal closed-form runtimes share one, as in the
  // bounds: 2e5 tasks of ERLANG(4096, ...) would otherwise hold 2e5 tables of 4096 phases,
  // tens of GB, before the estimate could refuse them), and the runtime of each task.
  std::vector<PhaseTask> laws;
  std::vector<int> law_of;
  const PhaseTask& task(std::size_t t) const { return laws[static_cast<std::size_t>(law_of[t])]; }
  std::size_t task_count() const { return law_of.size(); }
  std::vector<std::string> labels;
  std::vector<std::vector<int>> successors;
  // Predecessors as (chain, position): done when the chain's progress exceeds the position.
  std::vector<std::vector<std::pair<int, int>>> predecessors;
  std::vector<int> chain_of;
  std::vector<int> position_of;
  std::vector<std::vector<int>> chains;  // tasks of each chain, in order
  std::vector<int> sources;              // tasks without predecessors
  std::vector<Field> progress_field;     // per chain
  std::vector<Field> phase_field;        // per chain
  int key_bits = 0;
  int words = 0;  // 64-bit words needed by a state
  // The absorbing state's level: a sum over every task, 64-bit (2e5 tasks of 4096 phases
  // already pass 2^31).
  std::int64_t total_potential = 0;
  int largest_jump = 1;                 // bound on the level rise of one transition
  double largest_total_rate = 0.0;      // bound on a state's total exit rate (uniformisation)
  double critical_path_of_means = 0.0;  // a lower bound of the mean (Jensen)
  // Fitting report.
  std::int64_t fitted_tasks = 0;
  bool fitted_only_deterministic = true;
  std::string fit_detail;
};

// A runtime without a usable phase-type form: a phase that is never left (a rate that
// underflowed to 0 or is not finite, e.g. the Erlang fitted to a mean of 1e308), which would
// make the task never complete and its phase's level that of the completed task.
class UnusableRuntime : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws std::invalid_argument for a cycle or a DynamicPool node, UnusableRuntime for a task
// whose phase-type form has a phase that is never left or a start vector that is not finite.
CompiledGraph compile(const graph::TaskGraph& graph, double fit_cv2_tolerance);

}  // namespace solvers::state_space_detail
