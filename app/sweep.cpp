#include "app/sweep.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

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
  return series_parallel.IsValid(why) && monte_carlo.IsValid(why);
}

namespace {

bool needs_exact_model(solvers::Method method) {
  return method == solvers::Method::MonteCarlo || method == solvers::Method::Bounds ||
         method == solvers::Method::Exact;
}

// Every requested method for one processor count; the exact model is built once and shared.
std::vector<solvers::Result> solve_all(const models::Program& program, const models::Machine& machine,
                                       const models::Environment& environment, int p,
                                       const SweepOptions& options) {
  std::optional<scaling::ExactModel> exact;
  if (std::any_of(options.methods.begin(), options.methods.end(), needs_exact_model)) {
    exact = scaling::exact_model(program, machine, environment, p, options.exact_model);
  }
  std::vector<solvers::Result> results;
  for (solvers::Method method : options.methods) {
    switch (method) {
      case solvers::Method::Approximate: {
        solvers::SeriesParallelOptions series_parallel = options.series_parallel;
        series_parallel.keep_distribution = false;
        results.push_back(solvers::solve_series_parallel(
            scaling::approximate_model(program, machine, environment, p), series_parallel));
        break;
      }
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
      case solvers::Method::Bounds:
      case solvers::Method::Exact:
        throw std::invalid_argument("method '" + std::string{solvers::to_string(method)} +
                                    "' is not available in this version of pdl-scale");
    }
  }
  return results;
}

}  // namespace

SweepResult run_sweep(const models::Program& program, const models::Machine& machine,
                      const models::Environment& environment, const SweepOptions& options,
                      const Progress& progress) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument(why);
  const auto start = std::chrono::steady_clock::now();

  std::vector<int> counts = options.processors;
  const bool base_requested = std::find(counts.begin(), counts.end(), 1) != counts.end();
  if (!base_requested) counts.insert(counts.begin(), 1);
  const std::size_t methods = options.methods.size();
  const std::size_t total = counts.size() * methods;
  std::vector<solvers::Result> results(total);

  std::mutex progress_lock;
  std::size_t done = 0;
  auto work = [&] {
    // Largest p first: they take longest, and TBB then balances the small ones around them.
    tbb::parallel_for(std::size_t{0}, counts.size(), [&](std::size_t k) {
      const std::size_t i = counts.size() - 1 - k;
      std::vector<solvers::Result> solved = solve_all(program, machine, environment, counts[i], options);
      std::move(solved.begin(), solved.end(), results.begin() + static_cast<std::ptrdiff_t>(i * methods));
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
  for (std::size_t i = 0; i < total; ++i) {
    const int p = counts[i / methods];
    if (p == 1 && !base_requested) continue;
    Row row;
    row.p = p;
    row.result = results[i];
    const solvers::Result& base = results[i % methods];
    if (base.mean > 0.0 && row.result.mean > 0.0) {
      row.speedup = base.mean / row.result.mean;
      row.efficiency = *row.speedup / p;
      if (row.result.lower > 0.0) {
        row.speedup_lower = base.lower / row.result.upper;
        row.speedup_upper = base.upper / row.result.lower;
      }
    }
    sweep.rows.push_back(std::move(row));
  }
  sweep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sweep;
}

}  // namespace app
