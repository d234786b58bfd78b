// Every bound against Monte Carlo on random DAGs (tests/solvers/random_dags.hpp): random series-parallel graphs, 10 to
// 2,000 tasks; there the series-parallel solver must also agree with Monte Carlo within 3
// standard errors plus its discretisation bracket.
// A lower bound must not exceed the Monte Carlo mean by more than 3 standard errors, an upper
// bound not fall below it by more. Fixed seeds: the same graphs and samples on every run.
#include <gtest/gtest.h>

#include "tests/solvers/random_dags.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace {

using namespace bounds_test;

TEST(BoundsSeriesParallel, SeriesParallelGraphsAgreeWithMonteCarlo) {
  Random random(4242);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const std::size_t n = random_size(random);
    const graph::TaskGraph g = random_series_parallel(n, 0, random);
    const std::string what = "series-parallel graph " + std::to_string(i) + " of " + std::to_string(n) + " tasks";
    check_against_monte_carlo(g, 9000 + static_cast<std::uint64_t>(i), what, tally);
    solvers::SeriesParallelOptions options;
    options.keep_distribution = false;
    const solvers::Result reduced = solvers::solve_series_parallel(g, options);
    solvers::MonteCarloOptions mc;
    mc.samples = 4000;
    mc.seed = 9000 + static_cast<std::uint64_t>(i);
    solvers::MonteCarloSummary sampled;
    solvers::solve_monte_carlo(g, mc, &sampled);
    const double tolerance = 3 * sampled.standard_error;
    EXPECT_GE(reduced.upper, sampled.mean - tolerance) << what << ": " << reduced.detail;
    EXPECT_LE(reduced.lower, sampled.mean + tolerance) << what << ": " << reduced.detail;
  }
  std::printf("series-parallel: %d graphs, %d bounds checked, mean relative width %.3f\n", tally.graphs, tally.bounds,
              tally.relative_width / tally.graphs);
}

}  // namespace
