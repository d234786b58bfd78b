#include "app/sweep.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "scaling/approximate_model.hpp"

namespace app {

bool SweepOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (processors.empty()) return fail("no processor count to analyse");
  for (int p : processors) {
    if (p < 1 || p > scaling::kMaxProcessors) {
      return fail("processor count " + std::to_string(p) + " is outside [1, " +
                  std::to_string(scaling::kMaxProcessors) + "]");
    }
  }
  if (methods.empty()) return fail("no method to run");
  if (threads < 0) return fail("threads must be >= 0");
  if (max_exact_tasks < 1) return fail("max_exact_tasks must be >= 1");
  return series_parallel.IsValid(why) && monte_carlo.IsValid(why) && bounds.IsValid(why) &&
         state_space.IsValid(why);
}

namespace {

bool needs_exact_model(solvers::Method method) {
  return method == solvers::Method::MonteCarlo || method == solvers::Method::Bounds ||
         method == solvers::Method::StateSpace;
}

solvers::Result not_solved(solvers::Method method, std::string why) {
  solvers::Result result;
  result.method = method;
  result.solved = false;
  result.detail = std::move(why);
  return result;
}

// The bounds of a mixture of scenarios: the probability-weighted bounds of each.
solvers::Result bounds_of(const scaling::ExactModel& exact, const solvers::BoundsOptions& options) {
  if (exact.scenarios.size() == 1) return solvers::solve_bounds(exact.scenarios.front().graph, options);
  solvers::Result mixture;
  mixture.method = solvers::Method::Bounds;
  for (const scaling::Scenario& scenario : exact.scenarios) {
    const solvers::Result one = solvers::solve_bounds(scenario.graph, options);
    mixture.lower += scenario.probability * one.lower;
    mixture.upper += scenario.probability * one.upper;
    mixture.statistics.seconds += one.statistics.seconds;
  }
  mixture.mean = 0.5 * (mixture.lower + mixture.upper);
  mixture.detail = "probability-weighted bounds of " + std::to_string(exact.scenarios.size()) + " scenarios";
  return mixture;
}

// Every requested method for one processor count; the exact model is built once and shared.
std::vector<solvers::Result> solve_all(const models::Program& program, const models::Machine& machine,
                                       const models::Environment& environment, int p,
                                       const SweepOptions& options) {
  // The approximate model comes first: it is cheap, it reports invalid values, and its
  // expanded size is the exact model's task count.
  const graph::SpTree tree = scaling::approximate_model(program, machine, environment, p);
  std::optional<scaling::ExactModel> exact;
  std::string exact_skipped;
  if (std::any_of(options.methods.begin(), options.methods.end(), needs_exact_model)) {
    const std::int64_t tasks = tree.expanded_node_count();
    if (tasks > options.max_exact_tasks) {
      exact_skipped = "the exact model has about " + std::to_string(tasks) +
                      " tasks, more than the limit of " + std::to_string(options.max_exact_tasks) +
                      " (--max-exact-tasks)";
    } else {
      exact = scaling::exact_model(program, machine, environment, p, options.exact_model);
    }
  }
  std::vector<solvers::Result> results;
  for (solvers::Method method : options.methods) {
    if (needs_exact_model(method) && !exact) {
      results.push_back(not_solved(method, exact_skipped));
      continue;
    }
    switch (method) {
      case solvers::Method::SeriesParallel: {
        solvers::SeriesParallelOptions series_parallel = options.series_parallel;
        series_parallel.keep_distribution = false;
        results.push_back(solvers::solve_series_parallel(tree, series_parallel));
        break;
      }
      case solvers::Method::Bounds:
        try {
          results.push_back(bounds_of(*exact, options.bounds));
        } catch (const solvers::UnsupportedGraph& unsupported) {
          results.push_back(not_solved(method, unsupported.what()));
        }
        break;
      case solvers::Method::MonteCarlo: {
        std::vector<solvers::WeightedGraph> mixture;
        for (const scaling::Scenario& scenario : exact->scenarios) {
          mixture.push_back({scenario.probability, &scenario.graph});
        }
        solvers::MonteCarloOptions monte_carlo = options.monte_carlo;
        monte_carlo.threads = 0;  // within the sweep's arena
        results.push_back(solvers::solve_monte_carlo(mixture, monte_carlo));
        break;
      }
      case solvers::Method::StateSpace: {
        std::vector<solvers::WeightedGraph> mixture;
        for (const scaling::Scenario& scenario : exact->scenarios) {
          mixture.push_back({scenario.probability, &scenario.graph});
        }
        solvers::StateSpaceOptions state_space = options.state_space;
        state_space.threads = 0;  // within the sweep's arena
        try {
          results.push_back(solvers::solve_state_space(mixture, state_space));
        } catch (const solvers::StateSpaceTooLarge& too_large) {
          const solvers::StateSpaceEstimate& estimate = too_large.estimate();
          const bool too_many = state_space.max_states > 0 &&
                                estimate.states > static_cast<double>(state_space.max_states);
          results.push_back(not_solved(
              method, fmt::format("{}about {:.2g} states needing {:.3g} GB, beyond {}; bounds and mc "
                                  "apply at any size",
                                  estimate.complete ? "" : "at least ", estimate.states,
                                  estimate.bytes / 1e9,
                                  too_many ? fmt::format("--max-states {}", state_space.max_states)
                                           : fmt::format("--state-budget {:.3g} GB",
                                                         static_cast<double>(state_space.memory_budget_bytes) / 1e9))));
        } catch (const std::invalid_argument& unsupported) {  // e.g. a dynamically scheduled pool
          results.push_back(not_solved(method, unsupported.what()));
        }
        break;
      }
    }
  }
  return results;
}

}  // namespace

SweepResult run_sweep(const std::vector<Case>& cases, const SweepOptions& options,
                      const Progress& progress) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument(why);
  for (const Case& one : cases) {
    if (one.program == nullptr || one.machine == nullptr) throw std::invalid_argument("a case without program or machine");
  }
  const auto start = std::chrono::steady_clock::now();

  std::vector<int> counts = options.processors;
  const bool base_requested = std::find(counts.begin(), counts.end(), 1) != counts.end();
  if (!base_requested) counts.insert(counts.begin(), 1);
  const std::size_t methods = options.methods.size();
  const std::size_t per_case = counts.size() * methods;
  const std::size_t pairs = cases.size() * counts.size();
  const std::size_t total = cases.size() * per_case;
  std::vector<solvers::Result> results(total);

  std::mutex progress_lock;
  std::size_t done = 0;
  auto work = [&] {
    // One task per (case, p). Largest p first, across all cases: they take longest, and TBB
    // then balances the small ones around them.
    tbb::parallel_for(std::size_t{0}, pairs, [&](std::size_t k) {
      const std::size_t i = counts.size() - 1 - k / cases.size();  // the processor count
      const std::size_t c = k % cases.size();                        // the case
      const Case& one = cases[c];
      std::vector<solvers::Result> solved = solve_all(*one.program, *one.machine, one.environment, counts[i], options);
      std::move(solved.begin(), solved.end(),
                results.begin() + static_cast<std::ptrdiff_t>(c * per_case + i * methods));
      if (progress) {
        std::lock_guard<std::mutex> guard(progress_lock);
        done += methods;
        progress(done, total);
      }
    });
  };
  if (options.threads > 0) {
    tbb::task_arena arena(options.threads);
    arena.execute(work);
  } else {
    work();
  }

  SweepResult sweep;
  for (const Case& one : cases) sweep.cases.push_back(one.label);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    for (std::size_t j = 0; j < per_case; ++j) {
      const std::size_t i = c * per_case + j;
      const int p = counts[j / methods];
      if (p == 1 && !base_requested) continue;
      Row row;
      row.case_index = c;
      row.p = p;
      row.result = results[i];
      const solvers::Result& base = results[c * per_case + j % methods];
      if (base.solved && row.result.solved && base.mean > 0.0 && row.result.mean > 0.0) {
        row.speedup = base.mean / row.result.mean;
        row.efficiency = *row.speedup / p;
        if (row.result.lower > 0.0) {
          row.speedup_lower = base.lower / row.result.upper;
          row.speedup_upper = base.upper / row.result.lower;
        }
      }
      sweep.rows.push_back(std::move(row));
    }
  }
  sweep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sweep;
}

SweepResult run_sweep(const models::Program& program, const models::Machine& machine,
                      const models::Environment& environment, const SweepOptions& options,
                      const Progress& progress) {
  Case one;
  one.program = &program;
  one.machine = &machine;
  one.environment = environment;
  one.label.machine = machine.name;
  return run_sweep(std::vector<Case>{std::move(one)}, options, progress);
}

}  // namespace app
