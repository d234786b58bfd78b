// Scaling studies (docs/scaling.md): variables that are expressions of P (weak scaling) bound
// per processor count, the scaled speedup, the Karp–Flatt, Amdahl and Gustafson figures, and
// isospeed. Every expected figure is worked out by hand from the program's closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "analysis/isospeed.hpp"
#include "analysis/prediction.hpp"
#include "analysis/scaled_speedup.hpp"
#include "analysis/scaling_laws.hpp"
#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::case_of;
using test_support::request_for;

const char* const kIdeal = "MACHINE NAME IS 'ideal';\n";

// A serial part of 20 and `columns` unit tasks over the processors: with columns = 100*P,
// T(p) = 20 + 100 and T1(W(p)) = 20 + 100 p, so the scaled speedup is (20 + 100p) / 120,
// Gustafson's law with s = 20/120 exactly.
std::string weak_program(const std::string& columns) {
  return "PROGRAM NAME IS 'weak';\n"
         "EXECUTION PATTERN IS setup -> work;\n"
         "VARIABLE columns = " +
         columns +
         ";\n"
         "SEQUENTIAL PHASE setup IS: RUNTIME IS DETERMINISTIC(20); END;\n"
         "WORK PHASE work IS:\n"
         "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "  PROBLEM SIZE IS VECTOR cells(columns);\n"
         "END;\n";
}

double approximate_mean(const analysis::Case& one, int p) {
  solvers::SeriesParallelOptions options;
  options.keep_distribution = false;
  return solvers::solve_series_parallel(scaling::approximate_model(*one.program, *one.machine, one.environment, p),
                                        options)
      .mean;
}

TEST(ScalingLaws, HandComputedValues) {
  // S = 3 on 4: e = (1/3 - 1/4) / (3/4) = 1/9.
  EXPECT_NEAR(*analysis::karp_flatt(3.0, 4), 1.0 / 9.0, 1e-15);
  // Amdahl, α = 0.1, p = 10: 1 / (0.1 + 0.09) = 100/19.
  EXPECT_NEAR(analysis::amdahl(0.1, 10), 100.0 / 19.0, 1e-13);
  // Gustafson, s = 0.1, p = 10: 10 - 0.9.
  EXPECT_NEAR(analysis::gustafson(0.1, 10), 9.1, 1e-13);
  // Gustafson's fraction of S = 9.1 on 10: (10 - 9.1) / 9.
  EXPECT_NEAR(*analysis::gustafson_fraction(9.1, 10), 0.1, 1e-13);
  EXPECT_FALSE(analysis::karp_flatt(1.0, 1));
  EXPECT_FALSE(analysis::karp_flatt(0.0, 4));
  // Amdahl's speedups give back their α at every p (the definition of e, solved by hand).
  for (int p : {2, 3, 16, 1000}) EXPECT_NEAR(*analysis::karp_flatt(analysis::amdahl(0.05, p), p), 0.05, 1e-12) << p;
}

TEST(ScalingLaws, TheFractionsComeFromTheSmallestPWithASpeedup) {
  // p = 1 has no fraction; p = 2 has none (no speedup); p = 4, S = 3: e = 1/9, s = 1/3.
  const analysis::ScalingLaws laws = analysis::scaling_laws({{1, 1.0}, {2, std::nullopt}, {4, 3.0}, {8, 5.0}});
  EXPECT_EQ(laws.alpha_p, 4);
  EXPECT_NEAR(*laws.amdahl_alpha, 1.0 / 9.0, 1e-15);
  EXPECT_NEAR(*laws.gustafson_alpha, 1.0 / 3.0, 1e-15);
  ASSERT_EQ(laws.rows.size(), 4u);
  EXPECT_FALSE(laws.rows[1].karp_flatt);
  // Both laws meet the speedup at p0 = 4, and at p = 8 give 1/(1/9 + 8/72) = 4.5 and 8 - 7/3.
  EXPECT_NEAR(*laws.rows[2].amdahl, 3.0, 1e-12);
  EXPECT_NEAR(*laws.rows[2].gustafson, 3.0, 1e-12);
  EXPECT_NEAR(*laws.rows[3].amdahl, 4.5, 1e-12);
  EXPECT_NEAR(*laws.rows[3].gustafson, 8.0 - 7.0 / 3.0, 1e-12);
  // e(8) = (1/5 - 1/8) / (7/8) = 3/35.
  EXPECT_NEAR(*laws.rows[3].karp_flatt, 3.0 / 35.0, 1e-15);
}

TEST(WeakScaling, AVariableOfPIsBoundPerProcessorCount) {
  const analysis::Case one = case_of(weak_program("100*P"), kIdeal);
  ASSERT_TRUE(models::is_weak_scaling(*one.program, one.environment));
  EXPECT_EQ(one.environment.values.count("columns"), 0u);
  for (int p : {1, 2, 3, 8}) {
    // 100p unit tasks over p processors, 100 each, after the serial 20.
    EXPECT_NEAR(approximate_mean(one, p), 120.0, 1e-9) << p;
    const auto base = analysis::scaled_sequential_time(*one.program, *one.machine, one.environment, p, {});
    ASSERT_TRUE(base) << p;
    EXPECT_NEAR(base->mean, 20.0 + 100.0 * p, 1e-9) << p;
  }
}

TEST(WeakScaling, LaterVariablesFollowAVariableOfP) {
  // half depends on P through columns: T(p) = 20 + ceil(50p / p) = 70.
  std::string text = weak_program("100*P");
  text.replace(text.find("VECTOR cells(columns)"), 21, "VECTOR cells(half)");
  text.replace(text.find("SEQUENTIAL"), 0, "VARIABLE half = columns/2;\n");
  const analysis::Case one = case_of(text, kIdeal);
  EXPECT_EQ(one.environment.per_processor.size(), 2u);
  EXPECT_NEAR(approximate_mean(one, 4), 70.0, 1e-9);
}

TEST(WeakScaling, ACountThatIsNotWholeAtSomePIsAnErrorThere) {
  const analysis::Case one = case_of(weak_program("100*P/3"), kIdeal);
  EXPECT_NEAR(approximate_mean(one, 3), 54.0, 1e-9);  // 100 tasks at P = 3: 20 + ceil(100/3)
  try {
    approximate_mean(one, 2);  // 66.67 tasks
    FAIL() << "no error";
  } catch (const scaling::ScalingError& error) {
    EXPECT_NE(std::string(error.what()).find("at P = 2"), std::string::npos) << error.what();
    EXPECT_EQ(error.location().line, 5u) << error.what();  // the phase whose count it is
  }
}

TEST(WeakScaling, TheSpeedupIsTheScaledSpeedupAndFollowsGustafson) {
  const auto study = analysis::run_study({case_of(weak_program("100*P"), kIdeal)},
                                         request_for({1, 2, 4, 8, 16}, {solvers::Method::SeriesParallel}));
  ASSERT_TRUE(study.ok());
  std::vector<std::pair<int, std::optional<double>>> speedups;
  for (int p : {1, 2, 4, 8, 16}) {
    const analysis::Row& row = study.value->at(0, p, solvers::Method::SeriesParallel);
    ASSERT_TRUE(row.speedup) << p;
    EXPECT_NEAR(*row.speedup, (20.0 + 100.0 * p) / 120.0, 1e-12) << p;
    speedups.emplace_back(p, row.speedup);
  }
  const analysis::ScalingLaws laws = analysis::scaling_laws(speedups);
  EXPECT_NEAR(*laws.gustafson_alpha, 20.0 / 120.0, 1e-12);
  for (const analysis::ScalingLawsRow& row : laws.rows) {
    EXPECT_NEAR(*row.gustafson, *row.speedup, 1e-9) << row.p;
    // e(p) = (6/(5p+1) - 1/p) / (1 - 1/p) = 1/(5p + 1) for p >= 2.
    if (row.p >= 2) {
      EXPECT_NEAR(*row.karp_flatt, 1.0 / (5.0 * row.p + 1.0), 1e-12) << row.p;
    }
  }
}

// The prediction's speedup is against T1(W(p)) like every method's (it was against T(1)):
// T(4) = 120, T1(W(4)) = 420.
TEST(WeakScaling, ThePredictionsSpeedupIsTheScaledOne) {
  const auto study =
      analysis::run_study({case_of(weak_program("100*P"), kIdeal)}, request_for({1, 4}, {solvers::Method::StateSpace}));
  ASSERT_TRUE(study.ok());
  const auto prediction = analysis::predict(*study.value, 0, 4);
  ASSERT_TRUE(prediction && prediction->speedup);
  EXPECT_NEAR(*prediction->speedup, 420.0 / 120.0, 1e-9);
}

TEST(WeakScaling, ASetExpressionReplacesTheDefault) {
  const std::string text = weak_program("7");
  const pdl::ParseResult parsed = pdl::parse(text, "weak.pdl");
  ASSERT_TRUE(parsed.ast);
  pdl::CheckOptions options;
  options.set_expressions = {{"columns", "10*P + 2"}};
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  ASSERT_TRUE(checked.program) << pdl::format(checked.diagnostics);
  const models::Binding binding = models::bind(*checked.program, models::ideal_machine(), {});
  ASSERT_TRUE(binding.ok());
  ASSERT_EQ(binding.environment.per_processor.size(), 1u);
  models::Environment at = binding.environment;
  ASSERT_FALSE(models::with_processors(at, 4));
  EXPECT_EQ(at.values.at("columns"), 42.0);
  EXPECT_EQ(at.values.at("P"), 4.0);
  at.problem_processors = 3;  // the problem of 3 processors, on 4
  ASSERT_FALSE(models::with_processors(at, 4));
  EXPECT_EQ(at.values.at("columns"), 32.0);
  EXPECT_EQ(at.values.at("P"), 4.0);

  options.set_expressions = {{"columns", "10*Q"}};
  const pdl::CheckResult bad = pdl::check(*parsed.ast, parsed.source, options);
  ASSERT_FALSE(bad.program);
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_EQ(bad.diagnostics.front().file, "--set columns");
  EXPECT_NE(bad.diagnostics.front().message.find("Q"), std::string::npos) << bad.diagnostics.front().message;

  options.set_expressions = {{"columns", "10*"}};
  const pdl::CheckResult syntax = pdl::check(*parsed.ast, parsed.source, options);
  ASSERT_FALSE(syntax.program);
  EXPECT_EQ(syntax.diagnostics.front().file, "--set columns");
}

// Isospeed on a serial part of 50 work units and n units spread evenly over the processors,
// on a machine of RTFactor 2: T(n, p) = 2 (50 + n/p), W = 50 + n, and the efficiency
// E = (50 + n) / (50 p + n). The average speed W / (p T) is E / 2; holding it at E0 needs
// n >= 50 (E0 p - 1) / (1 - E0).
const char* const kIsoProgram =
    "PROGRAM NAME IS 'iso';\n"
    "EXECUTION PATTERN IS serial -> spread;\n"
    "VARIABLE n = 91;\n"
    "SEQUENTIAL PHASE serial IS: RUNTIME IS DETERMINISTIC(50*RTFactor); END;\n"
    "WORK PHASE spread IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(n/P*RTFactor);\n"
    "  PROBLEM SIZE IS VECTOR parts(P);\n"
    "END;\n";
const char* const kRtFactor2 = "MACHINE NAME IS 'slow';\nRTFACTOR IS 2;\n";

analysis::MachineInput iso_input(std::map<std::string, double> values = {}) {
  const analysis::Case one = case_of(kIsoProgram, kRtFactor2);
  return {one.program, *one.machine, "", std::move(values)};
}

TEST(Isospeed, AGivenFractionNeedsTheClosedFormSize) {
  analysis::IsospeedOptions options;
  options.variable = "n";
  options.fraction = 0.71;
  const std::vector<int> processors{2, 4, 8, 16};
  const auto result = analysis::run_isospeed({iso_input()}, processors, options, 0);
  ASSERT_TRUE(result.ok());
  EXPECT_NEAR(result.value->speed.front(), 0.71 / 2, 1e-15);
  ASSERT_EQ(result.value->points.size(), 4u);
  for (const analysis::IsospeedPoint& point : result.value->points) {
    const double n = std::ceil(50.0 * (0.71 * point.p - 1.0) / 0.29);  // 73, 318, 807, 1787
    ASSERT_TRUE(point.size) << point.p;
    EXPECT_EQ(*point.size, n) << point.p;
    EXPECT_NEAR(point.work, 50.0 + n, 1e-9) << point.p;
    EXPECT_NEAR(point.mean, 2.0 * (50.0 + n / point.p), 1e-9) << point.p;
    EXPECT_NEAR(point.speed, (50.0 + n) / (2.0 * (50.0 * point.p + n)), 1e-12) << point.p;
    EXPECT_GE(point.speed, 0.71 / 2 - 1e-15);
  }
}

TEST(Isospeed, TheBaseHoldsTheSmallestPsSpeedAndPsiFollows) {
  analysis::IsospeedOptions options;
  options.variable = "n";
  const std::vector<int> processors{3, 4, 8, 16};
  const auto result = analysis::run_isospeed({iso_input()}, processors, options, 0);
  ASSERT_TRUE(result.ok());
  // E0 = (50 + 91) / (150 + 91) = 141/241; the size for p' solves
  // (50 + n') / (50 p' + n') = E0: n' = (141 p' - 241) / 2, so 161.5, 443.5, 1007.5, rounded up.
  const double e0 = 141.0 / 241.0;
  EXPECT_NEAR(result.value->fraction.front(), e0, 1e-12);
  const auto& points = result.value->points;
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(*points[0].size, 91.0);
  EXPECT_EQ(*points[1].size, 162.0);
  EXPECT_EQ(*points[2].size, 444.0);
  EXPECT_EQ(*points[3].size, 1008.0);
  // ψ(3, p') = p' W0 / (3 W'), W = 50 + n.
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double psi = points[i].p * (50.0 + 91.0) / (3.0 * (50.0 + *points[i].size));
    EXPECT_NEAR(*analysis::isospeed_scalability(points[0], points[i]), psi, 1e-12) << points[i].p;
  }
  // ψ(4, 8) from the two sizes.
  EXPECT_NEAR(*analysis::isospeed_scalability(points[1], points[2]), 8.0 * 212.0 / (4.0 * 494.0), 1e-12);
}

TEST(Isospeed, ABaseSizeComesFromSet) {
  analysis::IsospeedOptions options;
  options.variable = "n";
  const auto result = analysis::run_isospeed({iso_input({{"n", 30}})}, {2, 4}, options, 0);
  ASSERT_TRUE(result.ok());
  // E0 = 80 / 130; n' = (80 p' - 130) / 1 = 190 at p' = 4 (the closed form is whole here: the
  // search finds the smallest n whose E >= E0, 190 or 189 within rounding of E0 itself).
  EXPECT_EQ(*result.value->points[0].size, 30.0);
  EXPECT_NEAR(*result.value->points[1].size, 190.0, 1.0);
}

}  // namespace
