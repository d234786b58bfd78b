#include "app/sweep.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <mutex>
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
  return series_parallel.IsValid(why);
}

namespace {

solvers::Result solve(const models::Program& program, const models::Machine& machine,
                      const models::Environment& environment, int p, solvers::Method method,
                      const SweepOptions& options) {
  switch (method) {
    case solvers::Method::Approximate: {
      solvers::SeriesParallelOptions series_parallel = options.series_parallel;
      series_parallel.keep_distribution = false;
      return solvers::solve_series_parallel(
          scaling::approximate_model(program, machine, environment, p), series_parallel);
    }
    case solvers::Method::Bounds:
    case solvers::Method::MonteCarlo:
    case solvers::Method::Exact:
      break;
  }
  throw std::invalid_argument("method '" + std::string{solvers::to_string(method)} +
                              "' is not available in this version of pdl-scale");
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
    std::vector<std::size_t> order(total);
    for (std::size_t i = 0; i < total; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return counts[a / methods] > counts[b / methods];
    });
    tbb::parallel_for(std::size_t{0}, total, [&](std::size_t k) {
      const std::size_t i = order[k];
      results[i] = solve(program, machine, environment, counts[i / methods],
                         options.methods[i % methods], options);
      if (progress) {
        std::lock_guard<std::mutex> guard(progress_lock);
        progress(++done, total);
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
