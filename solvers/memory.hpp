// The memory budget of the solvers: its default, the machine's memory, and what the task graphs
// every method on the exact model shares cost. docs/performance.md ("Memory") measures the
// figures these estimates are calibrated on (bench/solvers/memory_bench.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace solvers {

// Memory one solve may use when its caller gives no budget. The command line gives a quarter
// of the machine's physical memory instead (read once at start-up, analysis::Request).
inline constexpr std::uint64_t kDefaultMemoryBudget = std::uint64_t{1} << 30;
// No budget below this is usable: the solvers' fixed costs (a grid, a thread's buffers) alone
// come close.
inline constexpr std::uint64_t kSmallestMemoryBudget = std::uint64_t{1} << 20;

// Physical memory of the machine in bytes (sysconf), 0 if unknown.
std::uint64_t physical_memory_bytes();
// A quarter of `physical` (0: unknown, then kDefaultMemoryBudget): the command's default.
std::uint64_t quarter_of(std::uint64_t physical);

// What a graph::TaskGraph of this many nodes and arcs holds once built (Boost's vertex and
// edge lists, the nodes' labels and runtimes): about 220 bytes a node and 72 an arc.
double task_graph_bytes(double nodes, double arcs);
// The peak while the exact model of `tasks` tasks is built, before its arcs are known: the
// vertex array is copied when it grows, and the schemes' builders keep their own tables, so
// about three times the built graph, allowing three arcs a task (a random ARBITRARY DAG has
// about three, a NEIGHBOR model one: 1.3 KB a task, twice what the neighbour model needs).
double exact_model_build_bytes(double tasks);

// "512 MiB", "1.2 GiB": a size for messages, in the binary units --memory takes.
std::string memory_text(double bytes);

// Thrown by a solver's library entry point (compute_bounds, solve_monte_carlo) when even the
// cheapest way to run it needs more than its options' memory_budget_bytes. The solvers behind
// solvers::Solver turn it into an Unsolved result (Reason::OverMemoryBudget).
class MemoryBudgetExceeded : public std::runtime_error {
 public:
  MemoryBudgetExceeded(const std::string& what, double bytes, double budget)
      : std::runtime_error(what + " needs about " + memory_text(bytes) + ", more than the memory budget of " +
                           memory_text(budget)),
        what_(what),
        bytes_(bytes),
        budget_(budget) {}
  // What needs the memory, e.g. "bounds: the compact task graph".
  const std::string& needing() const { return what_; }
  double bytes() const { return bytes_; }
  double budget() const { return budget_; }

 private:
  std::string what_;
  double bytes_;
  double budget_;
};

}  // namespace solvers
