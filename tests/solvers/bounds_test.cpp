// Bounds on small graphs with closed forms, options and errors, reproducibility, and the
// paper's section 5.1 example (the exact neighbour model) against Monte Carlo, the
// approximate model and the paper's Table 2.
#include "solvers/bounds.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "distributions/distribution.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/monte_carlo.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

namespace d = distributions;
using graph::NodeId;
using graph::NodeKind;
using solvers::BoundMethod;

graph::TaskNode task(d::Distribution runtime, NodeKind kind = NodeKind::Task) {
  return graph::TaskNode{"t", kind, std::move(runtime)};
}

const solvers::BoundValue& value_of(const solvers::BoundsSummary& s, BoundMethod method) {
  for (const auto& v : s.values) {
    if (v.method == method) return v;
  }
  throw std::logic_error("method not in summary");
}

// Every computed bound on the right side of an exactly known mean, and the tightest pair too.
void expect_brackets(const solvers::BoundsSummary& s, double exact, double tolerance = 1e-9) {
  for (const auto& v : s.values) {
    if (!v.computed) continue;
    if (solvers::is_lower_bound(v.method)) {
      EXPECT_LE(v.value, exact + tolerance) << to_string(v.method) << "\n" << s.FullReport();
    } else {
      EXPECT_GE(v.value, exact - tolerance) << to_string(v.method) << "\n" << s.FullReport();
    }
  }
  EXPECT_LE(s.lower, exact + tolerance);
  EXPECT_GE(s.upper, exact - tolerance);
}

TEST(Bounds, OptionsValidation) {
  solvers::BoundsOptions options;
  std::string why;
  EXPECT_TRUE(options.IsValid(&why)) << why;
  options.methods.clear();
  EXPECT_FALSE(options.IsValid(&why));
  EXPECT_NE(why.find("methods"), std::string::npos);
  options = {};
  options.methods = {BoundMethod::Fulkerson, BoundMethod::Fulkerson};
  EXPECT_FALSE(options.IsValid(&why));
  EXPECT_NE(why.find("twice"), std::string::npos);
  options = {};
  options.grid.max_points = 3;
  EXPECT_FALSE(options.IsValid(&why));
  EXPECT_NE(why.find("grid"), std::string::npos);
  options = {};
  options.fulkerson_points = 2;
  EXPECT_FALSE(options.IsValid(nullptr));
  options = {};
  options.kleindorfer_points_per_sd = 0;
  EXPECT_FALSE(options.IsValid(&why));
  EXPECT_NE(why.find("kleindorfer_points_per_sd"), std::string::npos);
  for (BoundMethod method : solvers::kAllBoundMethods) {
    EXPECT_EQ(solvers::bound_method_from_string(solvers::to_string(method)), method);
  }
  EXPECT_FALSE(solvers::bound_method_from_string("nonsense").has_value());
  graph::TaskGraph g;
  g.add_node(task(d::exponential(1.0)));
  options = {};
  options.fulkerson_points = 2;
  EXPECT_THROW(solvers::solve_bounds(g, options), std::invalid_argument);
}

TEST(Bounds, RefusesEmptyCyclicAndDynamicGraphs) {
  graph::TaskGraph empty;
  EXPECT_THROW(solvers::solve_bounds(empty, {}), std::invalid_argument);
  graph::TaskGraph cycle;
  const NodeId a = cycle.add_node(task(d::exponential(1.0)));
  const NodeId b = cycle.add_node(task(d::exponential(1.0)));
  cycle.add_arc(a, b);
  cycle.add_arc(b, a);
  EXPECT_THROW(solvers::solve_bounds(cycle, {}), std::invalid_argument);
  graph::TaskGraph pool;
  const NodeId before = pool.add_node(task(d::exponential(1.0)));
  graph::TaskNode node = task(d::exponential(1.0), NodeKind::DynamicPool);
  node.label = "w pool s0";
  node.pool_tasks = 100;
  node.pool_processors = 4;
  const NodeId dynamic = pool.add_node(node);
  pool.add_arc(before, dynamic);
  try {
    solvers::solve_bounds(pool, {});
    FAIL() << "expected UnsupportedGraph";
  } catch (const solvers::UnsupportedGraph& error) {
    EXPECT_NE(std::string(error.what()).find("w pool s0"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("Monte Carlo"), std::string::npos) << error.what();
  }
}

TEST(Bounds, ChainIsExact) {
  graph::TaskGraph g;
  NodeId previous = g.add_node(task(d::erlang(4, 2.0)));
  for (int i = 1; i < 40; ++i) {
    const NodeId v = g.add_node(task(i % 2 ? d::erlang(4, 2.0) : d::uniform(1.0, 3.0)));
    g.add_arc(previous, v);
    previous = v;
  }
  const double exact = 20 * 2.0 + 20 * 2.0;
  const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
  expect_brackets(s, exact);
  EXPECT_DOUBLE_EQ(value_of(s, BoundMethod::CriticalPath).value, exact);
  EXPECT_NEAR(s.upper, exact, 1e-3 * exact) << s.FullReport();
  EXPECT_NEAR(s.lower, exact, 1e-12);
}

TEST(Bounds, ForkJoinOfExponentialsBracketsHarmonicNumber) {
  for (int n : {2, 5, 20, 200}) {
    const double rate = 0.5;
    graph::TaskGraph g;
    const NodeId fork = g.add_node(task(d::deterministic(0.0), NodeKind::Join));
    const NodeId join = g.add_node(task(d::deterministic(0.0), NodeKind::Join));
    const d::Distribution x = d::exponential(rate);
    for (int i = 0; i < n; ++i) {
      const NodeId v = g.add_node(task(x));
      g.add_arc(fork, v);
      g.add_arc(v, join);
    }
    double harmonic = 0.0;
    for (int i = 1; i <= n; ++i) harmonic += 1.0 / i;
    const double exact = harmonic / rate;
    const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
    expect_brackets(s, exact);
    // Series-parallel: arc deletion keeps it whole and barrier insertion adds nothing.
    EXPECT_NEAR(s.lower, exact, 0.01 * exact) << s.FullReport();
    EXPECT_NEAR(s.upper, exact, 0.01 * exact) << s.FullReport();
  }
}

TEST(Bounds, TwoParallelChains) {
  // max(Erlang(30, 1), Erlang(20, 0.6)) as two chains of 10 tasks between a fork and a join.
  graph::TaskGraph g;
  const NodeId fork = g.add_node(task(d::deterministic(0.0), NodeKind::Join));
  const NodeId join = g.add_node(task(d::deterministic(1.0)));
  const d::Distribution a = d::erlang(3, 1.0);
  const d::Distribution b = d::erlang(2, 0.6);
  for (const d::Distribution& x : {a, b}) {
    NodeId previous = fork;
    for (int i = 0; i < 10; ++i) {
      const NodeId v = g.add_node(task(x));
      g.add_arc(previous, v);
      previous = v;
    }
    g.add_arc(previous, join);
  }
  d::GridOptions fine;
  fine.max_points = 16384;
  const d::Bracket truth = d::mean_bracket(d::shift(d::parallel(d::erlang(30, 1.0), d::erlang(20, 0.6), fine), 1.0));
  const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
  expect_brackets(s, truth.lower, 0.0);
  expect_brackets(s, truth.upper, 0.0);
  EXPECT_LT(s.upper - s.lower, 0.01 * truth.upper) << s.FullReport();
  // Kleindorfer is exact on a graph whose predecessors' finish times are independent, up to
  // its grid (each runtime rounded up by less than a step of sd/8).
  EXPECT_NEAR(value_of(s, BoundMethod::Kleindorfer).value, truth.upper, 0.03 * truth.upper) << s.FullReport();
}

// The smallest graph that is not series-parallel, the "N": a -> c, a -> d, b -> d. With
// exponentials of rate 1, the makespan is max(A + C, max(A, B) + D); E = 2.6458333...
// (by conditioning: E[max(A,B)] = 1.5 and the rest by the exponential's memorylessness, here
// computed by quadrature of the exact cdf).
TEST(Bounds, NGraphAgainstMonteCarlo) {
  graph::TaskGraph g;
  const d::Distribution x = d::exponential(1.0);
  const NodeId a = g.add_node(task(x));
  const NodeId b = g.add_node(task(x));
  const NodeId c = g.add_node(task(x));
  const NodeId e = g.add_node(task(x));
  g.add_arc(a, c);
  g.add_arc(a, e);
  g.add_arc(b, e);
  solvers::MonteCarloOptions mc;
  mc.samples = 400000;
  solvers::MonteCarloSummary summary;
  solvers::solve_monte_carlo(g, mc, &summary);
  const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
  for (const auto& v : s.values) {
    ASSERT_TRUE(v.computed) << to_string(v.method);
    if (solvers::is_lower_bound(v.method)) {
      EXPECT_LE(v.value, summary.mean + 3 * summary.standard_error) << s.FullReport();
    } else {
      EXPECT_GE(v.value, summary.mean - 3 * summary.standard_error) << s.FullReport();
    }
  }
  // Critical path: 2; Fulkerson: E[max(1 + C, E[max(A,B)]... ) ] is strictly better.
  EXPECT_DOUBLE_EQ(value_of(s, BoundMethod::CriticalPath).value, 2.0);
  EXPECT_GT(value_of(s, BoundMethod::Fulkerson).value, 2.2) << s.FullReport();
  EXPECT_LT(s.upper - s.lower, 0.5) << s.FullReport();
}

TEST(Bounds, TransitiveArcsChangeNothing) {
  // A chain a -> b -> c with the transitive arc a -> c: Fulkerson must not treat a and b as
  // independent predecessors of c (that would exceed the exact mean 3).
  graph::TaskGraph g;
  const d::Distribution x = d::exponential(1.0);
  const NodeId a = g.add_node(task(x));
  const NodeId b = g.add_node(task(x));
  const NodeId c = g.add_node(task(x));
  g.add_arc(a, b);
  g.add_arc(b, c);
  g.add_arc(a, c);
  const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
  EXPECT_EQ(s.transitive_arcs, 1u);
  expect_brackets(s, 3.0);
  EXPECT_NEAR(value_of(s, BoundMethod::Fulkerson).value, 3.0, 1e-12);
}

TEST(Bounds, SkipsExpensiveMethodsWithAReason) {
  graph::TaskGraph g;
  std::vector<NodeId> layer;
  for (int i = 0; i < 30; ++i) layer.push_back(g.add_node(task(d::erlang(2, 1.0))));
  for (int l = 0; l < 5; ++l) {
    std::vector<NodeId> next;
    for (int i = 0; i < 30; ++i) {
      const NodeId v = g.add_node(task(d::exponential(1.0)));
      g.add_arc(layer[static_cast<std::size_t>(i)], v);
      g.add_arc(layer[static_cast<std::size_t>((i + 1) % 30)], v);
      next.push_back(v);
    }
    layer = next;
  }
  solvers::BoundsOptions options;
  options.max_reduction_tasks = 10;
  options.kleindorfer_work = 100;
  const solvers::BoundsSummary s = solvers::compute_bounds(g, options);
  EXPECT_FALSE(value_of(s, BoundMethod::NodeDuplication).computed);
  EXPECT_NE(value_of(s, BoundMethod::NodeDuplication).note.find("max_reduction_tasks"), std::string::npos);
  EXPECT_FALSE(value_of(s, BoundMethod::Kleindorfer).computed);
  EXPECT_NE(value_of(s, BoundMethod::Kleindorfer).note.find("kleindorfer_work"), std::string::npos);
  EXPECT_FALSE(value_of(s, BoundMethod::ArcDeletion).computed);
  EXPECT_TRUE(value_of(s, BoundMethod::CriticalPath).computed);
  EXPECT_TRUE(value_of(s, BoundMethod::BarrierInsertion).computed);
  EXPECT_TRUE(std::isfinite(s.upper));
  const solvers::Result r = solvers::solve_bounds(g, options);
  EXPECT_EQ(r.method, solvers::Method::Bounds);
  EXPECT_DOUBLE_EQ(r.mean, 0.5 * (r.lower + r.upper));
  EXPECT_NE(r.detail.find("skipped"), std::string::npos) << r.detail;

  options.methods = {BoundMethod::CriticalPath};
  const solvers::Result lower_only = solvers::solve_bounds(g, options);
  EXPECT_TRUE(std::isinf(lower_only.upper));
  EXPECT_DOUBLE_EQ(lower_only.mean, lower_only.lower);
}

TEST(Bounds, SameFiguresWhateverTheThreads) {
  graph::TaskGraph g;
  std::vector<NodeId> layer;
  for (int i = 0; i < 40; ++i) layer.push_back(g.add_node(task(d::erlang(3, 1.0))));
  for (int l = 0; l < 30; ++l) {
    std::vector<NodeId> next;
    for (int i = 0; i < 40; ++i) {
      const NodeId v = g.add_node(task(i % 3 ? d::exponential(0.5) : d::uniform(1, 2)));
      g.add_arc(layer[static_cast<std::size_t>(i)], v);
      g.add_arc(layer[static_cast<std::size_t>((i * 7 + l) % 40)], v);
      next.push_back(v);
    }
    layer = next;
  }
  solvers::BoundsOptions serial;
  serial.parallel = false;
  const solvers::BoundsSummary one = solvers::compute_bounds(g, serial);
  solvers::BoundsSummary many;
  {
    tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
    many = solvers::compute_bounds(g, {});
  }
  ASSERT_EQ(one.values.size(), many.values.size());
  for (std::size_t i = 0; i < one.values.size(); ++i) {
    EXPECT_EQ(one.values[i].computed, many.values[i].computed);
    EXPECT_EQ(one.values[i].value, many.values[i].value) << to_string(one.values[i].method);
  }
}

// ---- The paper's section 5.1 example -----------------------------------------------------

// Table 2 of the paper ("Results of Bounding Methods"), p = 1..10: lower, upper for 2, 4 and 8
// iterations (p = 1 is exact).
constexpr double kTable2[10][3][2] = {
    {{160, 160}, {320, 320}, {640, 640}},         {{85, 86.8}, {167.1, 172.7}, {330, 341.8}},
    {{64.5, 65.8}, {128.1, 130.4}, {256, 258.8}}, {{51.9, 53.9}, {101.5, 105.1}, {200, 209}},
    {{38.8, 38.9}, {73.5, 77.8}, {141, 154}},     {{37.7, 38.8}, {72.2, 77.7}, {135, 153}},
    {{36.8, 37.2}, {70.8, 75.3}, {138, 149}},     {{35.2, 36.7}, {68.5, 70.3}, {134, 142}},
    {{32.2, 32.3}, {64, 64.2}, {128, 130}},       {{23.7, 24.7}, {44.7, 48.1}, {85.8, 96.1}}};

TEST(Bounds, PaperSection51BracketsMonteCarloBelowTheApproximation) {
  const models::Program program = neighbor_program();
  const models::Machine machine = models::ideal_machine();
  const int iterations[3] = {2, 4, 8};
  std::printf(
      "| p | iterations | paper lower | paper upper | paper width | ours lower | ours upper | ours width | methods | Monte Carlo | approximate |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int column = 0; column < 3; ++column) {
    for (int p = 1; p <= 10; ++p) {
      const models::Environment env = neighbor_environment(10, iterations[column]);
      const scaling::ExactModel exact = scaling::exact_model(program, machine, env, p);
      ASSERT_EQ(exact.scenarios.size(), 1u);
      const graph::TaskGraph& g = exact.scenarios.front().graph;
      const solvers::BoundsSummary s = solvers::compute_bounds(g, {});
      solvers::MonteCarloOptions mc;
      mc.samples = 20000;
      mc.seed = 51 + static_cast<std::uint64_t>(p);
      solvers::MonteCarloSummary sampled;
      solvers::solve_monte_carlo(g, mc, &sampled);
      const double se = sampled.standard_error;
      solvers::SeriesParallelOptions sp;
      const solvers::Result approximate =
          solvers::solve_series_parallel(scaling::approximate_model(program, machine, env, p), sp);
      const std::string where =
          "p = " + std::to_string(p) + ", " + std::to_string(iterations[column]) + " iterations\n" + s.FullReport();
      for (const auto& v : s.values) {
        if (!v.computed) continue;
        if (solvers::is_lower_bound(v.method)) {
          EXPECT_LE(v.value, sampled.mean + 3 * se) << to_string(v.method) << " " << where;
        } else {
          EXPECT_GE(v.value, sampled.mean - 3 * se) << to_string(v.method) << " " << where;
        }
      }
      // The approximate model's mean is known within its discretisation bracket.
      EXPECT_LE(s.upper, approximate.upper + 3 * se) << where << "approximate " << approximate.mean;
      const double* paper = kTable2[p - 1][column];
      std::printf("| %d | %d | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %s / %s | %.2f ± %.2f | %.2f |\n", p,
                  iterations[column], paper[0], paper[1], paper[1] - paper[0], s.lower, s.upper, s.upper - s.lower,
                  std::string(to_string(*s.lower_method)).c_str(), std::string(to_string(*s.upper_method)).c_str(),
                  sampled.mean, 1.96 * se, approximate.mean);
    }
  }
}

}  // namespace

namespace {

// Issue 12: three tasks of 2 with a 1e-40 chance of 1 (a histogram): Kleindorfer's grid step
// (a standard deviation of 1e-20 over 8) put position 2 at index 1.6e21, past 64 bits, and
// the upper bound came out as -0.0115, below the lower. The exact mean is 2 - 1e-120.
TEST(Bounds, GridPositionsBeyondSixtyFourBitsSkipKleindorferInsteadOfOverflowing) {
  graph::TaskGraph g;
  const d::Distribution law = d::from_histogram(std::vector<double>{1.0, 2.0}, std::vector<double>{1e-40, 1.0});
  for (int i = 0; i < 3; ++i) g.add_node(task(law));
  const solvers::Result r = solvers::solve_bounds(g, solvers::BoundsOptions{});
  EXPECT_LE(r.lower, 2.0 + 1e-12);
  EXPECT_GE(r.upper, 2.0 - 1e-12);
  EXPECT_LE(r.lower, r.upper);
}

}  // namespace
