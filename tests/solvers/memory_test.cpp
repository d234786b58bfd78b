// The solvers within their memory budget: bounds refuse before any work or drop their
// memory-hungry methods and say so, Monte Carlo streams its statistics (no storage per sample,
// the same figures whatever the threads, right against closed forms).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>

#include "distributions/distribution.hpp"
#include "solvers/bounds.hpp"
#include "solvers/monte_carlo.hpp"
#include "solvers/monte_carlo_driver.hpp"
#include "tests/solvers/random_dags.hpp"

namespace {

namespace d = distributions;
using bounds_test::Random;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

graph::TaskGraph chain(std::size_t tasks, const d::Distribution& law) {
  graph::TaskGraph g;
  for (std::size_t i = 0; i < tasks; ++i) {
    const graph::NodeId v = g.add_node({"t", graph::NodeKind::Task, law, 0});
    if (i > 0) g.add_arc(v - 1, v);
  }
  return g;
}

// ---- Bounds --------------------------------------------------------------------------------

TEST(BoundsMemory, RefusedBeforeAnyWorkWhenTheCompactGraphDoesNotFit) {
  const graph::TaskGraph g = chain(20000, d::erlang(4, 1.0));
  solvers::BoundsOptions options;
  options.memory_budget_bytes = kMiB;  // the compact graph alone needs about 2.4 MB
  EXPECT_THROW(solvers::compute_bounds(g, options), solvers::MemoryBudgetExceeded);
  EXPECT_THROW(solvers::estimate_bounds_memory(g, options), solvers::MemoryBudgetExceeded);
  const solvers::Result refused = solvers::solve_bounds(g, options);
  ASSERT_TRUE(refused.unsolved.has_value());
  EXPECT_EQ(refused.unsolved->reason, solvers::Unsolved::Reason::OverMemoryBudget);
  EXPECT_GT(refused.unsolved->bytes, static_cast<double>(kMiB));
  EXPECT_EQ(refused.unsolved->limit_value, static_cast<double>(kMiB));
  EXPECT_NE(refused.unsolved->explanation.find("bounds"), std::string::npos);
}

TEST(BoundsMemory, ATightBudgetDropsTheHungryMethodsAndKeepsValidBounds) {
  Random random(11);
  const graph::TaskGraph g = bounds_test::layered(3000, random);
  solvers::BoundsOptions roomy;
  roomy.memory_budget_bytes = std::uint64_t{4} << 30;
  const solvers::BoundsSummary full = solvers::compute_bounds(g, roomy);
  for (const solvers::BoundValue& v : full.values) EXPECT_EQ(v.note.find("memory budget"), std::string::npos) << v.note;
  EXPECT_DOUBLE_EQ(full.memory_bytes, solvers::estimate_bounds_memory(g, roomy));

  solvers::BoundsOptions tight = roomy;
  tight.memory_budget_bytes = 2 * kMiB;
  const solvers::BoundsSummary degraded = solvers::compute_bounds(g, tight);
  EXPECT_LE(degraded.memory_bytes, static_cast<double>(tight.memory_budget_bytes));
  std::size_t skipped = 0;
  for (std::size_t k = 0; k < degraded.values.size(); ++k) {
    const solvers::BoundValue& v = degraded.values[k];
    if (v.note.find("of the memory budget") != std::string::npos) {
      ++skipped;
      EXPECT_FALSE(v.computed) << v.note;
    } else if (v.method != solvers::BoundMethod::BarrierInsertion && v.computed) {
      // A method that runs gives the figure it gives with any budget.
      EXPECT_EQ(v.value, full.values[k].value) << solvers::to_string(v.method);
    }
  }
  EXPECT_GE(skipped, 1u);
  // Both sides are still there, and still bounds: the degraded pair contains the full one.
  ASSERT_TRUE(degraded.lower_method && degraded.upper_method);
  EXPECT_LE(degraded.lower, full.lower);
  EXPECT_GE(degraded.upper, full.upper);
}

// ---- Monte Carlo ---------------------------------------------------------------------------

TEST(MonteCarloMemory, RunningMomentsAreTheTwoPassFigures) {
  // 0, 1, ..., 999 in blocks of 64 and a last one of 40: mean 499.5, variance n(n+1)/12.
  std::vector<double> x(1000);
  std::iota(x.begin(), x.end(), 0.0);
  solvers::monte_carlo_detail::RunningMoments m;
  for (std::size_t first = 0; first < x.size(); first += 64) {
    m.add(x.data() + first, static_cast<std::int64_t>(std::min<std::size_t>(64, x.size() - first)));
  }
  EXPECT_EQ(m.samples, 1000);
  EXPECT_NEAR(m.mean, 499.5, 1e-12);
  EXPECT_NEAR(m.variance(), 1000.0 * 1001.0 / 12.0, 1e-9);
  EXPECT_EQ(m.minimum, 0.0);
  EXPECT_EQ(m.maximum, 999.0);
  // Shifted far from 0 (where a sum of squares would lose every digit): the same variance.
  for (double& v : x) v += 1e9;
  solvers::monte_carlo_detail::RunningMoments shifted;
  for (std::size_t first = 0; first < x.size(); first += 64) {
    shifted.add(x.data() + first, static_cast<std::int64_t>(std::min<std::size_t>(64, x.size() - first)));
  }
  EXPECT_NEAR(shifted.variance(), 1000.0 * 1001.0 / 12.0, 1e-6);
}

TEST(MonteCarloMemory, StreamedAcrossRoundsAgainstClosedFormsAndThreadCounts) {
  // More samples than one round of blocks (262,144), fewer kept than drawn: an exponential of
  // mean 2 has variance 4.
  graph::TaskGraph g;
  g.add_node({"t", graph::NodeKind::Task, d::exponential(0.5)});
  solvers::MonteCarloOptions options;
  options.samples = 600'001;
  options.summary_samples = 100'000;
  options.seed = 3;
  options.threads = 1;
  solvers::MonteCarloSummary one;
  solvers::solve_monte_carlo(g, options, &one);
  EXPECT_EQ(one.samples, 600'001);
  EXPECT_EQ(one.summarised_samples, 100'000);
  EXPECT_LE(std::abs(one.mean - 2.0), 4 * one.standard_error);
  EXPECT_NEAR(one.variance, 4.0, 4.0 * 0.02);
  EXPECT_NEAR(one.quantiles[2], 2.0 * std::log(2.0), 0.03);  // the median
  std::int64_t counted = 0;
  for (std::int64_t c : one.histogram) counted += c;
  EXPECT_EQ(counted, one.samples);
  options.threads = 2;
  solvers::MonteCarloSummary two;
  solvers::solve_monte_carlo(g, options, &two);
  EXPECT_EQ(one.mean, two.mean);
  EXPECT_EQ(one.variance, two.variance);
  EXPECT_EQ(one.quantiles, two.quantiles);
  EXPECT_EQ(one.histogram, two.histogram);
}

TEST(MonteCarloMemory, TheQuantilesComeFromTheFirstSamples) {
  // The first 1,000 samples of a longer run are the samples of a 1,000-sample run.
  graph::TaskGraph g;
  g.add_node({"t", graph::NodeKind::Task, d::uniform(1.0, 3.0)});
  solvers::MonteCarloOptions options;
  options.samples = 1000;
  solvers::MonteCarloSummary short_run;
  solvers::solve_monte_carlo(g, options, &short_run);
  options.samples = 50'000;
  options.summary_samples = 1000;
  solvers::MonteCarloSummary long_run;
  solvers::solve_monte_carlo(g, options, &long_run);
  EXPECT_EQ(short_run.quantiles, long_run.quantiles);
  EXPECT_EQ(short_run.histogram_low, long_run.histogram_low);
  EXPECT_NE(short_run.mean, long_run.mean);
}

TEST(MonteCarloMemory, MemoryDoesNotGrowWithTheSampleCount) {
  const graph::TaskGraph g = chain(20, d::erlang(8, 1.0));
  const solvers::WeightedGraph scenario{1.0, &g};
  solvers::MonteCarloOptions options;
  options.samples = std::int64_t{1} << 20;
  const double at_a_million = solvers::estimate_monte_carlo_memory({&scenario, 1}, options, 2);
  options.samples = 1'000'000'000;
  const double at_a_billion = solvers::estimate_monte_carlo_memory({&scenario, 1}, options, 2);
  EXPECT_EQ(at_a_million, at_a_billion);
  EXPECT_LT(at_a_billion, 32.0 * kMiB);  // a round of samples and the kept ones (16 MiB) dominate
  // The precision mode's cap on samples is no different.
  options.relative_precision = 1e-9;
  options.max_samples = std::int64_t{1} << 40;
  EXPECT_EQ(solvers::estimate_monte_carlo_memory({&scenario, 1}, options, 2), at_a_billion);
}

TEST(MonteCarloMemory, RefusedWhenTheCompiledGraphDoesNotFit) {
  const graph::TaskGraph g = chain(50'000, d::exponential(1.0));
  solvers::MonteCarloOptions options;
  options.samples = 100;
  options.memory_budget_bytes = 4 * kMiB;  // the graph compiles to about 5 MB
  EXPECT_THROW(solvers::solve_monte_carlo(g, options), solvers::MemoryBudgetExceeded);
  options.memory_budget_bytes = 64 * kMiB;
  EXPECT_EQ(solvers::solve_monte_carlo(g, options).statistics.samples, 100);
}

}  // namespace
