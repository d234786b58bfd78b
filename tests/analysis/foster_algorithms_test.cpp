// Foster's three parallelizations of a computation that scales like N + N^2
// (Designing and Building Parallel Programs, Addison-Wesley, 1995, section 3.2.2;
// examples/studies/foster_algorithm_{1,2,3}.pdl, docs/tutorial.md section 6), each against
// its formula:
//   1. T = N + N^2/P            (the intense part partitioned, the easy part replicated)
//   2. T = (N + N^2)/P + 100     (everything partitioned, a fixed overhead)
//   3. T = (N + N^2)/P + 0.6 P^2 (everything partitioned, an overhead growing with P)
// A PDL program has whole units, so where P does not divide the unit count a processor runs
// ceil(units/P) of them: the formulas hold as printed where P divides, with the ceiling elsewhere.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::case_of;
using test_support::read_file;
using test_support::request_for;

const char* const kIdeal = "MACHINE NAME IS 'ideal';\n";

double formula(int algorithm, double n, double p, bool whole_units) {
  auto share = [&](double units) { return whole_units ? std::ceil(units / p) : units / p; };
  switch (algorithm) {
    case 1: return n + share(n * n);
    case 2: return share(n + n * n) + 100;
    default: return share(n + n * n) + 0.6 * p * p;
  }
}

double predicted(int algorithm, double n, int p, Method method) {
  const std::string file = "examples/studies/foster_algorithm_" + std::to_string(algorithm) + ".pdl";
  const auto study = analysis::run_study({case_of(read_file(file), kIdeal, {{"N", n}})},
                                         request_for(p == 1 ? std::vector<int>{1} : std::vector<int>{1, p}, {method}));
  EXPECT_TRUE(study.ok()) << file;
  if (!study.ok()) return NAN;
  const solvers::Result& result = study.value->at(0, p, method).result;
  EXPECT_TRUE(result.solved()) << file << " p = " << p;
  return result.mean;
}

TEST(FosterAlgorithms, EachProgramIsItsFormula) {
  for (int algorithm : {1, 2, 3}) {
    for (double n : {100.0, 1000.0}) {
      for (int p : {1, 2, 4, 8, 12, 64, 256, 1024}) {
        const double expected = formula(algorithm, n, p, true);
        EXPECT_NEAR(predicted(algorithm, n, p, Method::SeriesParallel), expected, 1e-9 * expected)
            << "algorithm " << algorithm << " N = " << n << " p = " << p;
        // Where P divides the units, the chapter's formula as printed.
        if (p <= 4) EXPECT_NEAR(expected, formula(algorithm, n, p, false), 1e-9 * expected);
      }
    }
    // The exact model (one node per unit) agrees where it is small enough to build.
    for (int p : {2, 12, 64}) {
      const double expected = formula(algorithm, 100, p, true);
      EXPECT_NEAR(predicted(algorithm, 100, p, Method::StateSpace), expected, 1e-9 * expected);
    }
  }
}

// The chapter's comparison: "all these algorithms have a speedup of about 10.8 for P = 12,
// N = 100"; at N = 100 and high P all are bad; at N = 1000 and high P algorithm 2 is the best.
TEST(FosterAlgorithms, TheChaptersComparison) {
  for (int algorithm : {1, 2, 3}) {
    const double speedup =
        predicted(algorithm, 100, 1, Method::SeriesParallel) / predicted(algorithm, 100, 12, Method::SeriesParallel);
    EXPECT_NEAR(speedup, 10.8, 0.1) << "algorithm " << algorithm;
    const double efficiency = predicted(algorithm, 100, 1, Method::SeriesParallel) /
                              (1024 * predicted(algorithm, 100, 1024, Method::SeriesParallel));
    EXPECT_LT(efficiency, 0.1) << "algorithm " << algorithm;
  }
  const double two = predicted(2, 1000, 1024, Method::SeriesParallel);
  EXPECT_LT(two, predicted(1, 1000, 1024, Method::SeriesParallel));
  EXPECT_LT(two, predicted(3, 1000, 1024, Method::SeriesParallel));
}

}  // namespace
