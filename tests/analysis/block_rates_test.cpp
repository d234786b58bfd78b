// Rates that depend on the block a processor holds (docs/semantics.md G10): a program reads its
// machine's constants, a variable of P that reaches only rates leaves the problem the same at
// every p (speedups T(1) / T(p), which may exceed p), and one that reaches a size makes the study
// weak scaling. Every figure is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "analysis/prediction.hpp"
#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::case_of;
using test_support::request_for;

// 8 tasks of 100 bytes each, 10 per task when a processor's block exceeds the cache, 5 when it
// fits (the step written with min and floor, as docs/pdl.md shows).
const char* const kCached =
    "PROGRAM NAME IS 'cached';\n"
    "EXECUTION PATTERN IS work;\n"
    "VARIABLE n = 8;\n"
    "VARIABLE block = ceil(n/P)*100;\n"
    "VARIABLE fits = min(1, floor(cache/block));\n"
    "WORK PHASE work IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10 - 5*fits);\n"
    "  PROBLEM SIZE IS VECTOR cells(n);\n"
    "END;\n";

const char* const kCache400 =
    "MACHINE NAME IS 'cachey';\n"
    "VARIABLE cache = 400;\n";

// p = 1: a block of 800 bytes > 400: 8 tasks of 10, 80. p = 2: 400 bytes fit: 4 tasks of 5, 20.
// p = 4: 2 tasks of 5, 10. The speedups 4 and 8 are twice p: the cache's doing.
TEST(RatesOfP, G10_AProgramReadsItsMachinesConstantAndTheSpeedupMayExceedP) {
  const analysis::Case one = case_of(kCached, kCache400);
  EXPECT_FALSE(models::is_weak_scaling(*one.program, one.environment));
  const auto study = analysis::run_study({one}, request_for({1, 2, 4}, {Method::StateSpace, Method::SeriesParallel}));
  ASSERT_TRUE(study.ok());
  const double expected[] = {80.0, 20.0, 10.0};
  for (int i = 0; i < 3; ++i) {
    const int p = 1 << i;
    for (Method method : {Method::StateSpace, Method::SeriesParallel}) {
      const analysis::Row& row = study.value->at(0, p, method);
      EXPECT_NEAR(row.result.mean, expected[i], 1e-9) << p;
      ASSERT_TRUE(row.speedup) << p;
      EXPECT_NEAR(*row.speedup, 80.0 / expected[i], 1e-9) << p;
    }
    const auto prediction = analysis::predict(*study.value, 0, p);
    ASSERT_TRUE(prediction && prediction->speedup) << p;
    EXPECT_NEAR(*prediction->speedup, 80.0 / expected[i], 1e-9) << p;
  }
}

// The machine's constant is the value the program reads: a cache of 800 bytes makes the block
// of one processor fit (8 tasks of 5 = 40), and 100 bytes none (80 at p = 1, 40 at p = 2).
TEST(RatesOfP, G10_TheConstantsValueIsTheMachines) {
  test_support::expect_means(kCached, "MACHINE NAME IS 'big';\nVARIABLE cache = 800;\n", 1,
                             {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
  test_support::expect_means(kCached, "MACHINE NAME IS 'small';\nVARIABLE cache = 100;\n", 2,
                             {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
}

// The problem grows with P only when a variable of P reaches a size: a problem size or a
// repetition count; in a runtime or a volume alone it is a rate.
TEST(RatesOfP, G10_WeakScalingOnlyWhenAVariableOfPSetsASize) {
  const auto weak = [](const std::string& pattern, const std::string& size, const std::string& runtime) {
    const std::string text = "PROGRAM NAME IS 'w';\nEXECUTION PATTERN IS " + pattern +
                             ";\nVARIABLE k = 2*P;\n"
                             "WORK PHASE work IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                             "  SUBTASK RUNTIME IS DETERMINISTIC(" +
                             runtime + ");\n  PROBLEM SIZE IS VECTOR cells(" + size +
                             ");\n  COMMUNICATION VOLUME IS k;\nEND;\n";
    const analysis::Case one = case_of(text, "MACHINE NAME IS 'm';\n");
    return models::is_weak_scaling(*one.program, one.environment);
  };
  EXPECT_TRUE(weak("work", "k", "1"));
  EXPECT_TRUE(weak("(work -> SYNC){k}", "8", "1"));
  EXPECT_FALSE(weak("work", "8", "k"));
  EXPECT_FALSE(weak("work", "8", "1"));  // k reaches only the volume
}

// Checked on a machine without the constant, the name is unbound where it is written; a variable
// may not take a constant's name (which would hide it from the program).
TEST(RatesOfP, G10_AMissingConstantOrAClashIsRefusedWhereItIsWritten) {
  const auto diagnostics = [](const std::string& text, const std::string& machine_text) {
    const models::Machine machine = test_support::machine_of_text(machine_text);
    const pdl::ParseResult parsed = pdl::parse(text, "t.pdl");
    pdl::CheckOptions options;
    options.machine = &machine;
    return pdl::format(pdl::check(*parsed.ast, parsed.source, options).diagnostics);
  };
  const std::string missing = diagnostics(kCached, "MACHINE NAME IS 'plain';\n");
  EXPECT_NE(missing.find("t.pdl:5:30: error: unbound variable 'cache'"), std::string::npos) << missing;
  const std::string clash = diagnostics(
      std::string(kCached).replace(std::string(kCached).find("VARIABLE n"), 10, "VARIABLE cache"), kCache400);
  EXPECT_NE(
      clash.find("t.pdl:3:10: error: variable 'cache' clashes with the constant of that name in machine 'cachey'"),
      std::string::npos)
      << clash;
}

}  // namespace
