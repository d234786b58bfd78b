// Every bound against Monte Carlo on random DAGs (tests/solvers/random_dags.hpp): random layered graphs and random
// series-parallel graphs with extra arcs, 10 to 2,000 tasks. A lower bound must not exceed the Monte Carlo mean by more
// than 3 standard errors, an upper bound not fall below it by more. Fixed seeds: the same graphs and samples on every
// run.
#include <gtest/gtest.h>

#include "tests/solvers/random_dags.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace {

using namespace bounds_test;

TEST(BoundsRandom, LayeredGraphs) {
  Random random(20240601);
  Tally tally;
  for (int i = 0; i < 100; ++i) {
    const std::size_t n = random_size(random);
    const graph::TaskGraph g = layered(n, random);
    check_against_monte_carlo(g, 1000 + static_cast<std::uint64_t>(i),
                              "layered graph " + std::to_string(i) + " of " + std::to_string(n) + " tasks", tally);
  }
  std::printf("layered: %d graphs, %d bounds checked, mean relative width %.3f\n", tally.graphs, tally.bounds,
              tally.relative_width / tally.graphs);
}

TEST(BoundsRandom, SeriesParallelGraphsWithExtraArcs) {
  Random random(77);
  Tally tally;
  for (int i = 0; i < 100; ++i) {
    const std::size_t n = random_size(random);
    const std::size_t extra = 1 + random.below(std::max<std::size_t>(2, n / 10));
    const graph::TaskGraph g = random_series_parallel(n, extra, random);
    check_against_monte_carlo(g, 5000 + static_cast<std::uint64_t>(i),
                              "series-parallel graph " + std::to_string(i) + " of " + std::to_string(n) +
                                  " tasks plus " + std::to_string(extra) + " arcs",
                              tally);
  }
  std::printf("series-parallel + arcs: %d graphs, %d bounds checked, mean relative width %.3f\n", tally.graphs,
              tally.bounds, tally.relative_width / tally.graphs);
}

}  // namespace
