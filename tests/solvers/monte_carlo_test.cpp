// Monte Carlo against closed forms, with tolerances from its own standard error (fixed seeds),
// and its reproducibility whatever the thread count.
#include "solvers/monte_carlo.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <mutex>
#include <vector>
#include <string>

#include "distributed/threaded_ranks.hpp"
#include "distributions/distribution.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace {

namespace d = distributions;
using graph::NodeKind;

graph::TaskNode task(d::Distribution runtime, NodeKind kind = NodeKind::Task) {
  return graph::TaskNode{"t", kind, std::move(runtime)};
}

solvers::MonteCarloOptions options(std::int64_t samples, std::uint64_t seed = 7, int threads = 0) {
  solvers::MonteCarloOptions o;
  o.samples = samples;
  o.seed = seed;
  o.threads = threads;
  return o;
}

void expect_within(const solvers::MonteCarloSummary& s, double exact, double standard_errors, const char* what) {
  EXPECT_LE(std::abs(s.mean - exact), standard_errors * s.standard_error)
      << what << ": mean " << s.mean << ", exact " << exact << ", SE " << s.standard_error;
}

TEST(MonteCarlo, ChainOfErlangsHasMeanNkOverRate) {
  graph::TaskGraph g;
  graph::NodeId previous = g.add_node(task(d::erlang(4, 2.0)));
  for (int i = 1; i < 50; ++i) {
    const graph::NodeId v = g.add_node(task(d::erlang(4, 2.0)));
    g.add_arc(previous, v);
    previous = v;
  }
  solvers::MonteCarloSummary s;
  const solvers::Result r = solvers::solve_monte_carlo(g, options(20000), &s);
  EXPECT_EQ(r.method, solvers::Method::MonteCarlo);
  EXPECT_EQ(r.statistics.samples, 20000);
  expect_within(s, 50 * 4 / 2.0, 4, "chain of Erlangs");
  // The variance of a sum of 50 Erlang(4, 2): 50 * 4 / 4 = 50, within a few percent.
  EXPECT_NEAR(s.variance, 50.0, 50.0 * 0.05);
  EXPECT_DOUBLE_EQ(r.lower, s.mean - s.half_width);
  EXPECT_DOUBLE_EQ(r.upper, s.mean + s.half_width);
  EXPECT_NEAR(s.half_width, 1.959964 * s.standard_error, 1e-6 * s.half_width);
}

TEST(MonteCarlo, MaximumOfExponentialsHasMeanHarmonicOverRate) {
  graph::TaskGraph g;
  const int n = 20;
  for (int i = 0; i < n; ++i) g.add_node(task(d::exponential(0.5)));
  double harmonic = 0.0;
  for (int i = 1; i <= n; ++i) harmonic += 1.0 / i;
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(g, options(40000), &s);
  expect_within(s, harmonic / 0.5, 4, "max of exponentials");
}

// E[max of p iid X] = integral of 1 - F(x)^p, by the trapezoid rule on a fine grid.
double expected_maximum(const d::Distribution& x, int p, double top) {
  const int points = 200000;
  const double h = top / points;
  double sum = 0.0;
  for (int i = 0; i <= points; ++i) {
    const double value = 1.0 - std::pow(d::cdf(x, i * h), p);
    sum += (i == 0 || i == points) ? 0.5 * value : value;
  }
  return sum * h;
}

TEST(MonteCarlo, ForkJoinOfErlangsMatchesQuadrature) {
  for (int p : {2, 5, 16}) {
    graph::TaskGraph g;
    const graph::NodeId fork = g.add_node(task(d::deterministic(1.5)));
    const graph::NodeId join = g.add_node(task(d::Distribution{}, NodeKind::Join));
    for (int i = 0; i < p; ++i) {
      const graph::NodeId v = g.add_node(task(d::erlang(8, 1.0)));
      g.add_arc(fork, v);
      g.add_arc(v, join);
    }
    solvers::MonteCarloSummary s;
    solvers::solve_monte_carlo(g, options(40000, 11), &s);
    expect_within(s, 1.5 + expected_maximum(d::erlang(8, 1.0), p, 80.0), 4, "fork-join");
  }
}

TEST(MonteCarlo, UniformAndGeneralDistributions) {
  graph::TaskGraph g;
  const graph::NodeId a = g.add_node(task(d::uniform(1.0, 3.0)));
  const graph::NodeId b = g.add_node(task(d::truncated_normal(4.0, 1.0)));
  const graph::NodeId c = g.add_node(task(d::hyperexponential({0.5, 0.5}, {1.0, 0.25})));
  g.add_arc(a, b);
  g.add_arc(b, c);
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(g, options(40000), &s);
  const double exact = 2.0 + d::mean(d::truncated_normal(4.0, 1.0)) + 0.5 * 1.0 + 0.5 * 4.0;
  expect_within(s, exact, 4, "uniform + truncated normal + hyperexponential");
}

TEST(MonteCarlo, SameSeedGivesBitIdenticalResultsOnOneAndTwoThreads) {
  graph::TaskGraph g;
  std::vector<graph::NodeId> layer;
  for (int i = 0; i < 6; ++i) layer.push_back(g.add_node(task(d::erlang(3, 1.0))));
  for (int level = 0; level < 5; ++level) {
    std::vector<graph::NodeId> next;
    for (int i = 0; i < 6; ++i) {
      const graph::NodeId v = g.add_node(task(i % 2 ? d::exponential(1.0) : d::uniform(0.5, 1.0)));
      g.add_arc(layer[i], v);
      g.add_arc(layer[(i + 1) % 6], v);
      next.push_back(v);
    }
    layer = next;
  }
  solvers::MonteCarloSummary one, two;
  const auto r1 = solvers::solve_monte_carlo(g, options(10001, 99, 1), &one);
  const auto r2 = solvers::solve_monte_carlo(g, options(10001, 99, 2), &two);
  EXPECT_EQ(r1.mean, r2.mean);
  EXPECT_EQ(r1.lower, r2.lower);
  EXPECT_EQ(one.variance, two.variance);
  EXPECT_EQ(one.quantiles, two.quantiles);
  EXPECT_EQ(one.histogram, two.histogram);
  // The same bits from every instruction-set kernel (SSE2, AVX2, AVX-512 where the CPU has them).
  for (const auto isa : {solvers::MonteCarloIsa::Sse2, solvers::MonteCarloIsa::Avx2, solvers::MonteCarloIsa::Avx512}) {
    solvers::MonteCarloOptions forced_options = options(10001, 99, 2);
    forced_options.isa = isa;
    std::string why;
    if (!forced_options.IsValid(&why)) {
      EXPECT_NE(isa, solvers::MonteCarloIsa::Sse2) << why;
      EXPECT_NE(why.find("this CPU has no"), std::string::npos) << why;
      continue;
    }
    solvers::MonteCarloSummary forced;
    solvers::solve_monte_carlo(g, forced_options, &forced);
    EXPECT_EQ(forced.mean, one.mean) << static_cast<int>(isa);
    EXPECT_EQ(forced.quantiles, one.quantiles) << static_cast<int>(isa);
  }
  const auto r3 = solvers::solve_monte_carlo(g, options(10001, 100, 2));
  EXPECT_NE(r1.mean, r3.mean);
  // The precision mode too: its rounds depend on the seed only.
  solvers::MonteCarloOptions precise = options(0, 5, 1);
  precise.relative_precision = 0.002;
  const auto p1 = solvers::solve_monte_carlo(g, precise);
  precise.threads = 2;
  const auto p2 = solvers::solve_monte_carlo(g, precise);
  EXPECT_EQ(p1.mean, p2.mean);
  EXPECT_EQ(p1.statistics.samples, p2.statistics.samples);
  EXPECT_LE(p1.upper - p1.mean, 0.002 * p1.mean);
}

// Ranks of a job (threads standing for MPI ranks) share every round of blocks: each rank gets
// the figures of one process, bit for bit, for a fixed count (over several rounds) and for the
// precision rule, whose rounds the ranks decide alike.
TEST(MonteCarlo, RanksSharingTheSamplesGiveOneProcesssFigures) {
  graph::TaskGraph g;
  std::vector<graph::NodeId> layer;
  for (int i = 0; i < 5; ++i) layer.push_back(g.add_node(task(d::erlang(2, 1.0))));
  const graph::NodeId join = g.add_node(task(d::exponential(2.0)));
  for (graph::NodeId v : layer) g.add_arc(v, join);
  solvers::MonteCarloOptions fixed = options(700'001, 3, 1);  // 10937 blocks: three rounds, the last partial
  solvers::MonteCarloOptions precise = options(0, 4, 1);
  precise.relative_precision = 0.001;
  for (const solvers::MonteCarloOptions& base : {fixed, precise}) {
    solvers::MonteCarloSummary alone_summary;
    const solvers::Result alone = solvers::solve_monte_carlo(g, base, &alone_summary);
    for (int ranks : {2, 3, 4}) {
      std::mutex lock;
      std::vector<solvers::Result> results(static_cast<std::size_t>(ranks));
      std::vector<solvers::MonteCarloSummary> summaries(static_cast<std::size_t>(ranks));
      distributed::run_threaded_ranks(ranks, [&](const distributed::Communicator& world) {
        solvers::MonteCarloOptions mine = base;
        mine.communicator = &world;
        solvers::MonteCarloSummary summary;
        solvers::Result result = solvers::solve_monte_carlo(g, mine, &summary);
        std::lock_guard<std::mutex> guard(lock);
        results[static_cast<std::size_t>(world.rank())] = std::move(result);
        summaries[static_cast<std::size_t>(world.rank())] = std::move(summary);
      });
      for (int r = 0; r < ranks; ++r) {
        const auto i = static_cast<std::size_t>(r);
        EXPECT_EQ(results[i].mean, alone.mean) << ranks << " ranks, rank " << r;
        EXPECT_EQ(results[i].upper, alone.upper) << ranks << " ranks, rank " << r;
        EXPECT_EQ(results[i].statistics.samples, alone.statistics.samples) << ranks << " ranks, rank " << r;
        EXPECT_EQ(summaries[i].quantiles, alone_summary.quantiles) << ranks << " ranks, rank " << r;
        EXPECT_EQ(summaries[i].histogram, alone_summary.histogram) << ranks << " ranks, rank " << r;
      }
    }
  }
}

TEST(MonteCarlo, DynamicPoolIsGreedyListScheduling) {
  auto pool = [](std::int64_t tasks, int processors) {
    graph::TaskGraph g;
    graph::TaskNode node = task(d::exponential(2.0), NodeKind::DynamicPool);
    node.pool_tasks = tasks;
    node.pool_processors = processors;
    g.add_node(node);
    return g;
  };
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(pool(10, 1), options(20000), &s);
  expect_within(s, 10 / 2.0, 4, "one processor: the sum");
  solvers::solve_monte_carlo(pool(6, 8), options(20000), &s);
  expect_within(s, (1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0 + 1 / 5.0 + 1 / 6.0) / 2.0, 4, "fewer tasks than processors");
  // n exponential tasks on m processors: the first n - m + 1 completions come at rate m
  // (memorylessness), then the last m - 1 tasks drain as the maximum of m - 1 exponentials.
  solvers::solve_monte_carlo(pool(40, 4), options(20000), &s);
  expect_within(s, (40 - 4 + 1) / (4 * 2.0) + (1 + 1 / 2.0 + 1 / 3.0) / 2.0, 4, "40 tasks on 4 processors");
  EXPECT_EQ(s.task_samples, 40 * s.samples);
}

TEST(MonteCarlo, MixtureOfScenarios) {
  graph::TaskGraph a, b;
  a.add_node(task(d::deterministic(10.0)));
  b.add_node(task(d::exponential(1.0)));
  const std::vector<solvers::WeightedGraph> mixture = {{0.3, &a}, {0.7, &b}};
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(mixture, options(40000), &s);
  expect_within(s, 0.3 * 10 + 0.7 * 1, 4, "mixture");
  solvers::MonteCarloSummary s2;
  solvers::solve_monte_carlo(mixture, options(40000, 7, 1), &s2);
  EXPECT_EQ(s.mean, s2.mean);
  const std::vector<solvers::WeightedGraph> bad = {{0.3, &a}, {0.6, &b}};
  EXPECT_THROW(solvers::solve_monte_carlo(bad, options(100)), std::invalid_argument);
}

TEST(MonteCarlo, SeriesParallelTreeAgreesWithReduction) {
  graph::SpTree tree;
  const std::size_t leaf = tree.leaf(task(d::erlang(8, 1.0)));
  const std::size_t exp_leaf = tree.leaf(task(d::exponential(1.0)));
  const std::size_t column = tree.series_power(leaf, 1'000'000);  // closed form Erlang(8e6)
  const std::size_t small = tree.series({tree.series_power(leaf, 3), exp_leaf});
  const std::size_t group = tree.parallel_power(small, 5);  // drawn copy by copy
  tree.set_root(tree.series({tree.parallel({column, tree.leaf(task(d::deterministic(1.0)))}), group}));
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(tree, options(40000), &s);
  const solvers::Result exact = solvers::solve_series_parallel(tree, {});
  EXPECT_LE(s.mean - 4 * s.standard_error, exact.upper);
  EXPECT_GE(s.mean + 4 * s.standard_error, exact.lower);
}

TEST(MonteCarlo, SummaryHasQuantilesAndHistogram) {
  graph::TaskGraph g;
  g.add_node(task(d::uniform(0.0, 1.0)));
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(g, options(100000), &s);
  const double levels[5] = {0.05, 0.25, 0.5, 0.75, 0.95};
  for (int q = 0; q < 5; ++q) EXPECT_NEAR(s.quantiles[q], levels[q], 0.01);
  std::int64_t total = 0;
  for (auto c : s.histogram) total += c;
  EXPECT_EQ(total, s.samples);
  EXPECT_EQ(s.histogram.size(), 40u);
  EXPECT_GT(s.task_samples_per_second, 0.0);
  EXPECT_NE(s.FullReport().find("quantiles"), std::string::npos);
}

TEST(MonteCarlo, InvalidOptionsAreRefusedWithAReason) {
  std::string why;
  solvers::MonteCarloOptions o;
  EXPECT_TRUE(o.IsValid(&why));
  o.samples = 1;
  EXPECT_FALSE(o.IsValid(&why));
  EXPECT_NE(why.find("samples"), std::string::npos);
  o = {};
  o.relative_precision = 0.01;
  o.max_samples = 10;
  EXPECT_FALSE(o.IsValid(&why));
  o = {};
  o.threads = -1;
  EXPECT_FALSE(o.IsValid(&why));
  o = {};
  o.histogram_bins = 0;
  EXPECT_FALSE(o.IsValid(nullptr));
  graph::TaskGraph g;
  g.add_node(task(d::exponential(1.0)));
  EXPECT_THROW(solvers::solve_monte_carlo(g, o), std::invalid_argument);
}

}  // namespace
