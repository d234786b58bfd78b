// The prediction's choice, its speedups and the summary, on study results written by hand
// (docs/cli.md, "Table"): every expected figure is worked out here from the rule.
#include "analysis/prediction.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace {

using solvers::Method;

solvers::Result solved(Method method, double mean, double lower, double upper) {
  solvers::Result result;
  result.method = method;
  result.mean = mean;
  result.lower = lower;
  result.upper = upper;
  return result;
}

solvers::Result unsolved(Method method) {
  solvers::Result result;
  result.method = method;
  result.unsolved.emplace().explanation = "not run";
  return result;
}

analysis::Row row(std::size_t c, int p, solvers::Result result) {
  analysis::Row r;
  r.case_index = c;
  r.p = p;
  r.result = std::move(result);
  return r;
}

analysis::CaseLabel label(const char* machine) {
  analysis::CaseLabel l;
  l.machine = machine;
  return l;
}

// One case, methods approx, bounds, mc, p = 1, 2, 4, 8, with T(1) = 100 exact:
//   p = 1: T(1) is exact                              -> exact (the chain), 100
//   p = 2: mc unsolved, bounds [50, 50.9], approx 52  -> bounds within 2%: midpoint 50.45
//   p = 4: bounds [25, 30] wide, approx 29 inside     -> approx's 29 with the bounds as interval
//   p = 8: only bounds [20, 30]                       -> bounds, no estimate
analysis::StudyResult one_case() {
  const std::vector<Method> methods{Method::SeriesParallel, Method::Bounds, Method::MonteCarlo};
  std::vector<analysis::Row> rows{row(0, 1, solved(Method::SeriesParallel, 100, 100, 100)),
                                  row(0, 1, solved(Method::Bounds, 100, 100, 100)),
                                  row(0, 1, solved(Method::MonteCarlo, 100.2, 99.9, 100.5)),
                                  row(0, 2, solved(Method::SeriesParallel, 52, 51.9, 52.1)),
                                  row(0, 2, solved(Method::Bounds, 50.45, 50, 50.9)),
                                  row(0, 2, unsolved(Method::MonteCarlo)),
                                  row(0, 4, solved(Method::SeriesParallel, 29, 28.9, 29.2)),
                                  row(0, 4, solved(Method::Bounds, 27.5, 25, 30)),
                                  row(0, 4, unsolved(Method::MonteCarlo)),
                                  row(0, 8, unsolved(Method::SeriesParallel)),
                                  row(0, 8, solved(Method::Bounds, 25, 20, 30)),
                                  row(0, 8, unsolved(Method::MonteCarlo))};
  std::vector<std::optional<solvers::Result>> bases{solved(Method::StateSpace, 100, 100, 100)};
  return analysis::StudyResult({label("m")}, {1, 2, 4, 8}, methods, std::move(rows), std::move(bases), 0.0);
}

TEST(Prediction, TakesTheBestJustifiedFigureInTheDocumentedOrder) {
  const analysis::StudyResult study = one_case();
  const auto at1 = analysis::predict(study, 0, 1);
  ASSERT_TRUE(at1);
  EXPECT_EQ(at1->method, Method::StateSpace);  // T(1), a chain: exact, above mc
  EXPECT_EQ(at1->interval, analysis::PredictionIntervalKind::Exact);
  EXPECT_DOUBLE_EQ(*at1->estimate, 100.0);

  const auto at2 = analysis::predict(study, 0, 2);
  ASSERT_TRUE(at2);
  EXPECT_EQ(at2->method, Method::Bounds);  // 0.9 <= 2% of 50; approx's 52 lies above them
  EXPECT_DOUBLE_EQ(*at2->estimate, 50.45);
  EXPECT_DOUBLE_EQ(*at2->speedup, 100.0 / 50.45);
  EXPECT_DOUBLE_EQ(*at2->efficiency, 100.0 / 50.45 / 2);
  EXPECT_DOUBLE_EQ(*at2->speedup_lower, 100.0 / 50.9);
  EXPECT_DOUBLE_EQ(*at2->speedup_upper, 100.0 / 50.0);

  const auto at4 = analysis::predict(study, 0, 4);
  ASSERT_TRUE(at4);
  EXPECT_EQ(at4->method, Method::SeriesParallel);  // bounds 5 wide: 20% of 25; approx inside
  EXPECT_EQ(at4->interval, analysis::PredictionIntervalKind::Bounds);
  EXPECT_DOUBLE_EQ(*at4->estimate, 29.0);
  EXPECT_DOUBLE_EQ(*at4->lower, 25.0);  // its error bar is the bounds', not its own bracket
  EXPECT_DOUBLE_EQ(*at4->upper, 30.0);

  const auto at8 = analysis::predict(study, 0, 8);
  ASSERT_TRUE(at8);
  EXPECT_EQ(at8->method, Method::Bounds);
  EXPECT_FALSE(at8->estimate);  // no midpoint of wide bounds
  EXPECT_FALSE(at8->speedup);
  EXPECT_DOUBLE_EQ(*at8->speedup_lower, 100.0 / 30);
  EXPECT_DOUBLE_EQ(*at8->speedup_upper, 100.0 / 20);
  EXPECT_DOUBLE_EQ(*at8->efficiency_lower, 100.0 / 30 / 8);
}

// p = 2 and 4 of a study whose p = 1 is not a chain (no exact T(1)):
//   p = 2: mc 41 ± 2 and bounds [40, 50]: mc, its interval cut to [40, 43], estimate 41;
//   p = 4: mc 19.5 ± 1 (its interval [18.5, 20.5]) and bounds [20, 30]: estimate clamped to 20,
//          interval [20, 20.5];
//   p = 8: approx 14 below bounds [15, 18] (no mc): the bounds alone, no point;
//   p = 16: approx alone (bounds not computed): its estimate, with no interval.
analysis::StudyResult against_the_bounds() {
  const std::vector<Method> methods{Method::SeriesParallel, Method::Bounds, Method::MonteCarlo};
  std::vector<analysis::Row> rows{row(0, 2, solved(Method::SeriesParallel, 45, 44.9, 45.1)),
                                  row(0, 2, solved(Method::Bounds, 45, 40, 50)),
                                  row(0, 2, solved(Method::MonteCarlo, 41, 39, 43)),
                                  row(0, 4, solved(Method::SeriesParallel, 25, 24.9, 25.1)),
                                  row(0, 4, solved(Method::Bounds, 25, 20, 30)),
                                  row(0, 4, solved(Method::MonteCarlo, 19.5, 18.5, 20.5)),
                                  row(0, 8, solved(Method::SeriesParallel, 14, 13.9, 14.1)),
                                  row(0, 8, solved(Method::Bounds, 16.5, 15, 18)),
                                  row(0, 8, unsolved(Method::MonteCarlo)),
                                  row(0, 16, solved(Method::SeriesParallel, 9, 8.9, 9.1)),
                                  row(0, 16, unsolved(Method::Bounds)),
                                  row(0, 16, unsolved(Method::MonteCarlo))};
  return analysis::StudyResult({label("m")}, {2, 4, 8, 16}, methods, std::move(rows), {std::nullopt}, 0.0);
}

TEST(Prediction, NeverLiesOutsideTheBoundsAndItsIntervalIsOnTheExactMean) {
  const analysis::StudyResult study = against_the_bounds();
  const auto at2 = analysis::predict(study, 0, 2);
  EXPECT_EQ(at2->method, Method::MonteCarlo);
  EXPECT_EQ(at2->interval, analysis::PredictionIntervalKind::Confidence95);
  EXPECT_DOUBLE_EQ(*at2->estimate, 41.0);
  EXPECT_DOUBLE_EQ(*at2->lower, 40.0);
  EXPECT_DOUBLE_EQ(*at2->upper, 43.0);

  const auto at4 = analysis::predict(study, 0, 4);
  EXPECT_EQ(at4->method, Method::MonteCarlo);
  EXPECT_DOUBLE_EQ(*at4->estimate, 20.0);
  EXPECT_DOUBLE_EQ(*at4->lower, 20.0);
  EXPECT_DOUBLE_EQ(*at4->upper, 20.5);

  const auto at8 = analysis::predict(study, 0, 8);
  EXPECT_EQ(at8->method, Method::Bounds);
  EXPECT_FALSE(at8->estimate);
  EXPECT_DOUBLE_EQ(*at8->lower, 15.0);
  EXPECT_DOUBLE_EQ(*at8->upper, 18.0);

  const auto at16 = analysis::predict(study, 0, 16);
  EXPECT_EQ(at16->method, Method::SeriesParallel);
  EXPECT_EQ(at16->interval, analysis::PredictionIntervalKind::None);
  EXPECT_DOUBLE_EQ(*at16->estimate, 9.0);
  EXPECT_FALSE(at16->lower);
  EXPECT_FALSE(at16->upper);
}

TEST(Prediction, ThePredictionsOwnSolveAnswersAboveTheMethodsAskedFor) {
  const std::vector<Method> methods{Method::SeriesParallel, Method::Bounds};
  std::vector<analysis::Row> rows{row(0, 2, solved(Method::SeriesParallel, 60, 59.9, 60.1)),
                                  row(0, 2, solved(Method::Bounds, 45, 40, 50))};
  analysis::StudyResult study({label("m")}, {2}, methods, std::move(rows), {std::nullopt}, 0.0);
  study.set_prediction_solves({solved(Method::StateSpace, 44.25, 44.25, 44.25)});
  const auto at2 = analysis::predict(study, 0, 2);
  EXPECT_EQ(at2->method, Method::StateSpace);
  EXPECT_TRUE(at2->own_solve);
  EXPECT_EQ(at2->interval, analysis::PredictionIntervalKind::Exact);
  EXPECT_DOUBLE_EQ(*at2->estimate, 44.25);
}

TEST(Prediction, SummarySaysTheFastestAndTheLargestEfficientProcessorCount) {
  const analysis::ScalingSummary summary = analysis::summarise(one_case(), 0);
  // Estimates 100, 50.45, 29 and none: least at p = 4. Efficiency intervals: p = 1 [1, 1],
  // p = 2 [100/50.9/2, 100/50/2] = [0.982, 1], p = 4 [100/30/4, 100/25/4] = [0.833, 1],
  // p = 8 [100/30/8, 100/20/8] = [0.417, 0.625]. >= 0.8: surely and possibly p = 4; >= 0.5:
  // surely p = 4, possibly p = 8.
  EXPECT_EQ(summary.fastest_p, 4);
  EXPECT_DOUBLE_EQ(*summary.fastest_time, 29.0);
  ASSERT_EQ(summary.efficiency.size(), 2u);
  EXPECT_DOUBLE_EQ(summary.efficiency[0].threshold, 0.8);
  EXPECT_EQ(summary.efficiency[0].surely, 4);
  EXPECT_EQ(summary.efficiency[0].possibly, 4);
  EXPECT_DOUBLE_EQ(summary.efficiency[1].threshold, 0.5);
  EXPECT_EQ(summary.efficiency[1].surely, 4);
  EXPECT_EQ(summary.efficiency[1].possibly, 8);
  EXPECT_TRUE(summary.idle.empty());
}

TEST(Prediction, SummaryTakesTheThresholdsAskedFor) {
  analysis::StudyResult study = one_case();
  analysis::PredictionOptions options;
  options.efficiency_thresholds = {0.99, 0.6};
  study.set_prediction_options(options);
  const analysis::ScalingSummary summary = analysis::summarise(study, 0);
  ASSERT_EQ(summary.efficiency.size(), 2u);
  EXPECT_EQ(summary.efficiency[0].surely, 1);    // p = 2's lower end 0.982 < 0.99
  EXPECT_EQ(summary.efficiency[0].possibly, 4);  // p = 4's upper end 1 >= 0.99
  EXPECT_EQ(summary.efficiency[1].surely, 4);
  EXPECT_EQ(summary.efficiency[1].possibly, 8);  // 0.625 >= 0.6
}

TEST(Prediction, CrossoverIsTheFirstProcessorCountWhereTheOrderChanges) {
  // Machine a: 100, 60, 40; machine b: 80, 60.5, 30 (mc only, no T(1)): b is faster at p = 1,
  // a at p = 2, b again at p = 4; the first change is at p = 2.
  const std::vector<Method> methods{Method::MonteCarlo};
  std::vector<analysis::Row> rows{
      row(0, 1, solved(Method::MonteCarlo, 100, 99, 101)), row(0, 2, solved(Method::MonteCarlo, 60, 59, 61)),
      row(0, 4, solved(Method::MonteCarlo, 40, 39, 41)),   row(1, 1, solved(Method::MonteCarlo, 80, 79, 81)),
      row(1, 2, solved(Method::MonteCarlo, 60.5, 60, 61)), row(1, 4, solved(Method::MonteCarlo, 30, 29, 31))};
  const analysis::StudyResult study({label("a"), label("b")}, {1, 2, 4}, methods, std::move(rows),
                                    {std::nullopt, std::nullopt}, 0.0);
  const auto found = analysis::crossovers(study);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].faster_first, 1u);
  EXPECT_EQ(found[0].faster_after, 0u);
  EXPECT_EQ(found[0].at, 2);
}

analysis::CaseLabel label(const char* machine, std::size_t program_index, const char* program) {
  analysis::CaseLabel l = label(machine);
  l.program_index = program_index;
  l.program = program;
  return l;
}

TEST(Prediction, CrossoversCompareProgramsOnOneMachineAndMachinesForOneProgramNeverBothAtOnce) {
  // Two programs (x, y) on two machines (a, b), cases x/a, x/b, y/a, y/b, mc only:
  //   x/a: 10, 20, 30     x/b: 11, 16, 17     y/a: 12, 11, 10     y/b: 40, 41, 42
  // Pairs differing in one thing: x/a-x/b (a faster at 1, b from 2), x/a-y/a (x faster at 1,
  // y from 2), x/b-y/b and y/a-y/b (no change). Of the pairs differing in both, x/b-y/a would
  // change order at 2 (11 < 12, then 16 > 11) but is not compared; x/a-y/b never changes.
  const std::vector<Method> methods{Method::MonteCarlo};
  const double figures[4][3] = {{10, 20, 30}, {11, 16, 17}, {12, 11, 10}, {40, 41, 42}};
  std::vector<analysis::Row> rows;
  const int processors[3] = {1, 2, 4};
  for (std::size_t c = 0; c < 4; ++c) {
    for (std::size_t k = 0; k < 3; ++k) {
      rows.push_back(
          row(c, processors[k], solved(Method::MonteCarlo, figures[c][k], figures[c][k] - 1, figures[c][k] + 1)));
    }
  }
  const analysis::StudyResult study({label("a", 0, "x"), label("b", 0, "x"), label("a", 1, "y"), label("b", 1, "y")},
                                    {1, 2, 4}, methods, std::move(rows),
                                    {std::nullopt, std::nullopt, std::nullopt, std::nullopt}, 0.0);
  const auto found = analysis::crossovers(study);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].faster_first, 0u);  // x/a: 10 < 11 at p = 1
  EXPECT_EQ(found[0].faster_after, 1u);  // x/b: 16 < 20 from p = 2
  EXPECT_EQ(found[0].at, 2);
  EXPECT_EQ(found[1].faster_first, 0u);  // x/a: 10 < 12 at p = 1
  EXPECT_EQ(found[1].faster_after, 2u);  // y/a: 11 < 20 from p = 2
  EXPECT_EQ(found[1].at, 2);
}

TEST(Prediction, ProgramsOnDifferentMachinesAreNotCompared) {
  // x on a: 10, 30; y on b: 20, 15. Their order changes at p = 2, but they differ in both the
  // program and the machine: no crossover.
  const std::vector<Method> methods{Method::MonteCarlo};
  std::vector<analysis::Row> rows{
      row(0, 1, solved(Method::MonteCarlo, 10, 9, 11)), row(0, 2, solved(Method::MonteCarlo, 30, 29, 31)),
      row(1, 1, solved(Method::MonteCarlo, 20, 19, 21)), row(1, 2, solved(Method::MonteCarlo, 15, 14, 16))};
  const analysis::StudyResult study({label("a", 0, "x"), label("b", 1, "y")}, {1, 2}, methods, std::move(rows),
                                    {std::nullopt, std::nullopt}, 0.0);
  EXPECT_TRUE(analysis::crossovers(study).empty());
}

}  // namespace
