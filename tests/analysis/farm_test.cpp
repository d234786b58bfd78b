// A DYNAMIC pool with a master (MASTER SERVICE, docs/semantics.md I6): a farm worked out by
// hand, its throughput against mean value analysis, and the approximate model's bound.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

// 4 tasks of 10, the master 1 a task, dispatch and result messages of 8 bytes at t = 5 (o = 0).
const char* const kFour =
    "PROGRAM NAME IS 'farm4';\n"
    "EXECUTION PATTERN IS farm;\n"
    "WORK PHASE farm IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(4);\n"
    "  SCHEDULING IS DYNAMIC;\n"
    "  MASTER SERVICE IS DETERMINISTIC(1);\n"
    "  DISPATCH VOLUME IS 8;\n"
    "  COMMUNICATION VOLUME IS 8;\n"
    "END;\n";
const char* const kFive = "MACHINE NAME IS 'five';\nCOMMUNICATION TIME IS 5;\n";

// p = 1: no worker, the tasks in series, 40. p = 2, one worker: served 0-1, its dispatch arrives
// at 6, the task 6-16, its result at 21, the next service 21-22, ...: 4 x 21 = 84 (slower than
// alone). p = 3, two workers: served 0-1 and 1-2, tasks 6-16 and 7-17, results at 21 and 22,
// served 21-22 and 22-23, tasks 27-37 and 28-38, results at 42 and 43: 43. p = 8: four of the
// seven workers, served 0-1 ... 3-4, the last task 9-19, its result at 24. The approximate
// bound: 4 x 1 + 4 x 20 / w + 20 = 104, 64 and 44.
TEST(Farm, I6_AFarmByHand) {
  expect_means(kFour, kFive, 1, {{Method::MonteCarlo, 40.0}, {Method::SeriesParallel, 40.0}});
  expect_means(kFour, kFive, 2, {{Method::MonteCarlo, 84.0}, {Method::SeriesParallel, 104.0}});
  expect_means(kFour, kFive, 3, {{Method::MonteCarlo, 43.0}, {Method::SeriesParallel, 64.0}});
  expect_means(kFour, kFive, 8, {{Method::MonteCarlo, 24.0}, {Method::SeriesParallel, 44.0}});
}

// Exponential service of mean s at the master (first come, first served) and w workers each
// away Z = E[task] = 10 per cycle: a closed product-form network, whose throughput X(w) mean
// value analysis gives exactly (R(k) = s (1 + Q(k - 1)), X(k) = k / (R(k) + Z), Q(k) = X(k)
// R(k)). n tasks take about n / X(w) (the start and the drain are a few cycles of n). It
// saturates at w* = (Z + s) / s = 11 workers: beyond, n s.
double mean_value_analysis(int workers, double s, double z) {
  double queue = 0.0, throughput = 0.0;
  for (int k = 1; k <= workers; ++k) {
    const double response = s * (1.0 + queue);
    throughput = k / (response + z);
    queue = throughput * response;
  }
  return throughput;
}

TEST(Farm, I6_ThroughputIsTheMeanValueAnalysisOfAClosedNetwork) {
  const std::string program =
      "PROGRAM NAME IS 'farm';\nEXECUTION PATTERN IS farm;\nWORK PHASE farm IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS EXPONENTIAL(10);\n"
      "  PROBLEM SIZE IS VECTOR a(4000);\n  SCHEDULING IS DYNAMIC;\n  MASTER SERVICE IS EXPONENTIAL(1);\nEND;\n";
  for (const int workers : {4, 11, 30}) {
    const int p = workers + 1;
    analysis::Request request = test_support::request_for({p}, {Method::MonteCarlo});
    request.solver_options.monte_carlo.seed = 49;
    const auto study = analysis::run_study({test_support::case_of(program, "MACHINE NAME IS 'ideal';\n")}, request);
    ASSERT_TRUE(study.ok());
    const solvers::Result& mc = study.value->at(0, p, Method::MonteCarlo).result;
    const double expected = 4000.0 / mean_value_analysis(workers, 1.0, 10.0);
    // The transient: at most a few cycles (Z + s) w / n of the whole, here under 1%.
    EXPECT_NEAR(mc.mean, expected, 0.01 * expected + (mc.upper - mc.lower)) << workers << " workers";
  }
}

}  // namespace
