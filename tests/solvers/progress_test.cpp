// The solvers' progress reports (ScaledModels::report_progress, solvers/progress.hpp): on a
// model large enough for several steps each solver reports fractions in [0, 1] that never fall,
// ends at 1, and gives bit-identical figures with and without a listener.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "distributions/distribution.hpp"
#include "solvers/progress.hpp"
#include "solvers/solver.hpp"
#include "tests/solvers/random_dags.hpp"

namespace {

namespace d = distributions;

// `chains` chains of `length` tasks each, every task the law; task j of chain c also waits for
// task j - 1 of chain c + 1 (a neighbor-like grid, not series-parallel).
graph::TaskGraph grid(std::size_t chains, std::size_t length, const d::Distribution& law) {
  graph::TaskGraph g;
  for (std::size_t c = 0; c < chains; ++c) {
    for (std::size_t j = 0; j < length; ++j) {
      const graph::NodeId v = g.add_node({"t", graph::NodeKind::Task, law, static_cast<int>(c)});
      if (j > 0) g.add_arc(v - 1, v);
    }
  }
  for (std::size_t c = 0; c + 1 < chains; ++c) {
    for (std::size_t j = 1; j < length; ++j) {
      g.add_arc(static_cast<graph::NodeId>((c + 1) * length + j - 1), static_cast<graph::NodeId>(c * length + j));
    }
  }
  return g;
}

// Every fraction heard, from whichever thread; checks that no two calls overlap.
struct Listener {
  std::vector<double> heard;
  std::mutex lock;
  int inside = 0;
  bool overlapped = false;
  solvers::ProgressFunction function() {
    return [this](double fraction) {
      {
        std::lock_guard<std::mutex> guard(lock);
        if (++inside > 1) overlapped = true;
        heard.push_back(fraction);
      }
      std::this_thread::yield();
      std::lock_guard<std::mutex> guard(lock);
      --inside;
    };
  }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_figures(const solvers::Result& with, const solvers::Result& without) {
  ASSERT_TRUE(with.solved()) << with.detail;
  ASSERT_TRUE(without.solved()) << without.detail;
  EXPECT_TRUE(same_bits(with.mean, without.mean)) << with.mean << " vs " << without.mean;
  EXPECT_TRUE(same_bits(with.lower, without.lower));
  EXPECT_TRUE(same_bits(with.upper, without.upper));
  EXPECT_EQ(with.statistics.samples, without.statistics.samples);
  EXPECT_EQ(with.statistics.states, without.statistics.states);
}

// Fractions in [0, 1], never falling, at least `steps` distinct ones below 1, the last 1.
void expect_progress(const Listener& listener, std::size_t steps) {
  EXPECT_FALSE(listener.overlapped);
  ASSERT_FALSE(listener.heard.empty());
  std::size_t below_one = 0;
  for (std::size_t i = 0; i < listener.heard.size(); ++i) {
    const double f = listener.heard[i];
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0);
    if (i > 0) {
      EXPECT_GE(f, listener.heard[i - 1]) << "at call " << i;
      if (f < 1.0 && f > listener.heard[i - 1]) ++below_one;
    } else if (f < 1.0) {
      ++below_one;
    }
  }
  EXPECT_EQ(listener.heard.back(), 1.0);
  EXPECT_GE(below_one, steps) << listener.heard.size() << " calls";
}

solvers::Result solve(solvers::Method method, const solvers::SolverOptions& options,
                      std::span<const solvers::WeightedGraph> mixture, const solvers::ProgressFunction& report) {
  solvers::ScaledModels models{nullptr, mixture, report};
  return solvers::make_solver(method, options)->solve(models);
}

TEST(Progress, ReporterClampsNeverFallsAndDropsNothingWithoutAnInterval) {
  Listener listener;
  const solvers::ProgressFunction function = listener.function();
  {
    solvers::ProgressReporter reporter(function, std::chrono::milliseconds(0));
    for (double f : {-0.5, 0.25, 0.1, std::nan(""), 0.5, 2.0}) reporter(f);
    reporter.finish();
  }
  EXPECT_EQ(listener.heard, (std::vector<double>{0.0, 0.25, 0.25, 0.25, 0.5, 1.0, 1.0}));
  // With the default interval, calls in quick succession are thinned out; finish() always shows.
  Listener thinned;
  const solvers::ProgressFunction second = thinned.function();
  solvers::ProgressReporter reporter(second);
  for (int i = 1; i <= 1000; ++i) reporter(i / 1000.0);
  reporter.finish();
  EXPECT_LT(thinned.heard.size(), 1000u);
  EXPECT_EQ(thinned.heard.back(), 1.0);
  const solvers::ProgressFunction none;
  solvers::ProgressReporter silent(none);
  EXPECT_FALSE(silent.active());
  silent(0.5);
  silent.finish();
}

TEST(Progress, PartsMapOntoTheirShareOfTheWhole) {
  Listener listener;
  const solvers::ProgressFunction whole = listener.function();
  const solvers::ProgressFunction second_half = solvers::progress_part(whole, 0.5, 1.0);
  second_half(0.0);
  second_half(0.5);
  second_half(3.0);
  EXPECT_EQ(listener.heard, (std::vector<double>{0.5, 0.75, 1.0}));
  EXPECT_FALSE(static_cast<bool>(solvers::progress_part(solvers::ProgressFunction{}, 0.0, 0.5)));
}

TEST(Progress, MonteCarloReportsItsSamplesOnEveryThread) {
  const graph::TaskGraph g = grid(20, 100, d::erlang(4, 1.0));  // 2000 tasks
  const std::vector<solvers::WeightedGraph> mixture{{1.0, &g}};
  solvers::SolverOptions options;
  options.monte_carlo.samples = 100'000;  // 1563 blocks in chunks of 8: many reports
  Listener listener;
  const solvers::Result with = solve(solvers::Method::MonteCarlo, options, mixture, listener.function());
  const solvers::Result without = solve(solvers::Method::MonteCarlo, options, mixture, {});
  expect_same_figures(with, without);
  expect_progress(listener, 3);
}

TEST(Progress, MonteCarloInPrecisionModeStaysBelowOneUntilDone) {
  const graph::TaskGraph g = grid(20, 100, d::exponential(1.0));
  const std::vector<solvers::WeightedGraph> mixture{{1.0, &g}};
  solvers::SolverOptions options;
  options.monte_carlo.relative_precision = 2e-4;  // several rounds of samples
  options.monte_carlo.min_samples = 1000;
  Listener listener;
  const solvers::Result with = solve(solvers::Method::MonteCarlo, options, mixture, listener.function());
  const solvers::Result without = solve(solvers::Method::MonteCarlo, options, mixture, {});
  expect_same_figures(with, without);
  expect_progress(listener, 3);
  for (std::size_t i = 0; i + 1 < listener.heard.size(); ++i) EXPECT_LT(listener.heard[i], 1.0);
}

TEST(Progress, StateSpaceReportsItsSweep) {
  const graph::TaskGraph g = grid(3, 25, d::erlang(3, 1.0));
  const std::vector<solvers::WeightedGraph> mixture{{1.0, &g}};
  solvers::SolverOptions options;
  Listener listener;
  const solvers::Result with = solve(solvers::Method::StateSpace, options, mixture, listener.function());
  const solvers::Result without = solve(solvers::Method::StateSpace, options, mixture, {});
  expect_same_figures(with, without);
  EXPECT_GT(with.statistics.states, 50'000);
  expect_progress(listener, 3);
}

TEST(Progress, StateSpaceOfAMixtureGivesEachScenarioItsShare) {
  const graph::TaskGraph a = grid(3, 20, d::erlang(3, 1.0));
  const graph::TaskGraph b = grid(3, 22, d::erlang(2, 1.0));
  const std::vector<solvers::WeightedGraph> mixture{{0.25, &a}, {0.75, &b}};
  solvers::SolverOptions options;
  Listener listener;
  const solvers::Result with = solve(solvers::Method::StateSpace, options, mixture, listener.function());
  const solvers::Result without = solve(solvers::Method::StateSpace, options, mixture, {});
  expect_same_figures(with, without);
  expect_progress(listener, 3);
  // The first scenario's end is heard as one half.
  EXPECT_NE(std::find(listener.heard.begin(), listener.heard.end(), 0.5), listener.heard.end());
}

TEST(Progress, BoundsReportEachMethodAsItFinishes) {
  bounds_test::Random random(5);
  const graph::TaskGraph g = bounds_test::layered(3000, random);
  const std::vector<solvers::WeightedGraph> mixture{{1.0, &g}};
  for (const bool parallel : {false, true}) {
    solvers::SolverOptions options;
    options.bounds.parallel = parallel;
    Listener listener;
    const solvers::Result with = solve(solvers::Method::Bounds, options, mixture, listener.function());
    const solvers::Result without = solve(solvers::Method::Bounds, options, mixture, {});
    expect_same_figures(with, without);
    // The graph's preparation, then every method: one call each and the last.
    EXPECT_EQ(listener.heard.size(), options.bounds.methods.size() + 2);
    expect_progress(listener, options.bounds.methods.size());
  }
}

}  // namespace
