// The run's memory budget: the gate the solves reserve from, and a study whose methods do not
// all fit (the same refusals and figures whatever the threads).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "analysis/memory_gate.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/program_builders.hpp"
#include "tests/support/study_cases.hpp"

namespace {

using namespace test_support;

TEST(MemoryGate, ReservationsNeverExceedTheCapacity) {
  analysis::MemoryGate gate(100.0);
  auto a = gate.acquire(60.0);
  EXPECT_EQ(a.bytes(), 60.0);
  EXPECT_TRUE(a.try_resize(120.0));  // more than the capacity is held as all of it
  EXPECT_EQ(a.bytes(), 100.0);
  EXPECT_TRUE(a.try_resize(90.0));
  auto b_try = gate.acquire(0.0);
  EXPECT_FALSE(b_try.try_resize(20.0));
  EXPECT_TRUE(a.try_resize(30.0));  // shrinking always works and frees the rest
  EXPECT_TRUE(b_try.try_resize(70.0));
  a.release();
  b_try.release();
  EXPECT_EQ(gate.acquire(500.0).bytes(), 100.0);  // a plan beyond the capacity takes all of it

  // Threads taking turns: the bytes held at once never exceed the capacity.
  std::atomic<double> held{0.0};
  std::atomic<double> most{0.0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) {
        const double bytes = 20.0 + 10.0 * ((t + k) % 6);
        auto r = gate.acquire(bytes);
        const double now = held.fetch_add(bytes) + bytes;
        double seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {}
        held.fetch_sub(bytes);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_LE(most.load(), 100.0);
}

TEST(StudyMemory, MethodsBeyondTheBudgetAreRefusedTheSameWayOnAnyThreadCount) {
  // 2,000 columns x 10 iterations: 20,000 tasks, an exact model of about 18 MB planned while
  // it is built. With 12 MiB it does not fit; with 256 MiB bounds and Monte Carlo run and the
  // state space on 4 processors (far beyond 1e10 states) is refused with its estimate.
  const std::vector<analysis::Case> cases{neighbor_case(2000, 10)};
  analysis::Request request;
  request.processors = {1, 4};
  request.methods = {solvers::Method::SeriesParallel, solvers::Method::Bounds, solvers::Method::MonteCarlo,
                     solvers::Method::StateSpace};
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 256;
  request.solver_options.state_space.max_states = 0;
  request.memory_budget_bytes = std::uint64_t{12} << 20;
  const auto small = analysis::run_study(cases, request);
  ASSERT_TRUE(small.value.has_value());
  for (int p : request.processors) {
    EXPECT_TRUE(small.value->at(0, p, solvers::Method::SeriesParallel).result.solved());
    for (auto method : {solvers::Method::Bounds, solvers::Method::MonteCarlo, solvers::Method::StateSpace}) {
      const solvers::Result& result = small.value->at(0, p, method).result;
      ASSERT_TRUE(result.unsolved.has_value()) << p;
      EXPECT_EQ(result.unsolved->reason, solvers::Unsolved::Reason::OverMemoryBudget);
      EXPECT_NE(result.unsolved->explanation.find("the exact model"), std::string::npos);
    }
  }

  request.memory_budget_bytes = std::uint64_t{256} << 20;
  std::vector<analysis::StudyResult> runs;
  for (int threads : {1, 2}) {
    request.threads = threads;
    auto outcome = analysis::run_study(cases, request);
    ASSERT_TRUE(outcome.value.has_value());
    runs.push_back(std::move(*outcome.value));
  }
  for (int p : request.processors) {
    for (auto method : request.methods) {
      const solvers::Result& one = runs[0].at(0, p, method).result;
      const solvers::Result& two = runs[1].at(0, p, method).result;
      EXPECT_EQ(one.solved(), two.solved());
      EXPECT_EQ(one.mean, two.mean);
      EXPECT_EQ(one.upper, two.upper);
    }
    EXPECT_TRUE(runs[0].at(0, p, solvers::Method::Bounds).result.solved());
    EXPECT_TRUE(runs[0].at(0, p, solvers::Method::MonteCarlo).result.solved());
  }
  const solvers::Result& exact = runs[0].at(0, 4, solvers::Method::StateSpace).result;
  ASSERT_TRUE(exact.unsolved.has_value());
  EXPECT_EQ(exact.unsolved->reason, solvers::Unsolved::Reason::StateSpaceTooLarge) << exact.unsolved->explanation;
  EXPECT_EQ(exact.unsolved->limit, solvers::Unsolved::Limit::Memory);
  EXPECT_LT(exact.unsolved->limit_value, 256.0 * (1 << 20));  // what the exact model leaves
}

TEST(StudyMemory, TheBudgetIsValidatedWithTheRequest) {
  analysis::Request request;
  request.memory_budget_bytes = 1000;
  std::string why;
  EXPECT_FALSE(request.IsValid(&why));
  EXPECT_NE(why.find("memory budget"), std::string::npos) << why;
}

}  // namespace
