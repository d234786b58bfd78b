// The number to trust for each (case, p), and the bottom line of a study: the best-justified
// figure the run computed, never outside what the same run proved (docs/cli.md, "The
// prediction"), and what it says about the scaling.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/study.hpp"
#include "solvers/solver.hpp"

namespace analysis {

// Bounds whose width is at most this fraction of the lower bound are "tight": their midpoint is
// within 1% of the exact mean, and the prediction takes it when no exact or Monte Carlo figure
// was computed.
inline constexpr double kTightBounds = 0.02;

// What a prediction's [lower, upper] says about the exact model's mean.
enum class PredictionIntervalKind {
  Exact,         // the exact mean: lower == upper, or the task means' discretisation bracket
  Confidence95,  // Monte Carlo's 95% confidence interval, cut to the bounds where they are known
  Bounds,        // proven lower and upper bounds on the exact mean
  None,          // an approximation with nothing proven about its distance to the exact mean
};

// "exact", "confidence", "bounds", "none": CSV and JSON.
const char* to_string(PredictionIntervalKind interval);

struct Prediction {
  solvers::Method method = solvers::Method::SeriesParallel;  // the method the estimate comes from
  // True when the figure comes from the prediction's own solve, a method not asked for
  // (StudyResult::prediction_solve), or at p = 1 from the exact one-processor time.
  bool own_solve = false;
  PredictionIntervalKind interval = PredictionIntervalKind::Exact;
  // Empty when only the bounds are known (then the interval is the prediction).
  std::optional<double> estimate;
  // Empty for PredictionIntervalKind::None.
  std::optional<double> lower;
  std::optional<double> upper;
  // Against T(1): the exact one-processor time where known, else the same method's figure for
  // p = 1. The efficiency interval is the speedup interval over p.
  std::optional<double> speedup;
  std::optional<double> speedup_lower;
  std::optional<double> speedup_upper;
  std::optional<double> efficiency;
  std::optional<double> efficiency_lower;
  std::optional<double> efficiency_upper;
  // What the figure is, for the report (the method's detail; the chain sum at p = 1).
  std::string detail;
};

// The prediction of (case, p), from the figures the run computed for it, by the methods'
// prediction ranks (solvers::SolverInfo::prediction_rank) — at p = 1 the exact one-processor
// time where it is a chain; then the exact mean; Monte Carlo, its estimate clamped into the
// bounds and its interval cut to them; tight bounds' midpoint; an approximation only where it
// lies inside the bounds (with the bounds as its interval) or where no bounds are known (with no
// interval); the bounds' interval alone. Empty when no method solved this p.
std::optional<Prediction> predict(const StudyResult& study, std::size_t case_index, int p);

// The largest p whose efficiency reaches a threshold, as far as the predictions' intervals
// tell: `surely` is the largest p whose efficiency interval lies at or above it, `possibly` the
// largest whose interval reaches it; the exact model's answer lies between them. Equal when the
// intervals decide it.
struct EfficiencyReach {
  double threshold = 0.0;
  std::optional<int> surely;
  std::optional<int> possibly;
};

// Processor counts of a case whose model is that of a smaller count (the extra processors have
// no work), and that count: from the first on, nothing changes.
struct IdleProcessors {
  std::vector<int> counts;
  std::optional<int> model_of;
};
IdleProcessors idle_processors(const StudyResult& study, std::size_t case_index);

// What the predictions of one case say over the reported processor counts.
struct ScalingSummary {
  std::optional<int> fastest_p;  // the least predicted runtime (the smallest such p)
  std::optional<double> fastest_time;
  // One per threshold of PredictionOptions::efficiency_thresholds, in their order.
  std::vector<EfficiencyReach> efficiency;
  // Processor counts whose model is that of a smaller count (the extra processors have no
  // work), and that count: from idle_from on, nothing changes.
  std::vector<int> idle;
  std::optional<int> idle_model_of;
};
ScalingSummary summarise(const StudyResult& study, std::size_t case_index);

// Where one configuration overtakes another: at the smallest reported p `first` is faster (or
// slower), and from `at` on the order is the other way round. Only the first change is given.
struct Crossover {
  std::size_t faster_first = 0;  // case faster at the smallest p where both have an estimate
  std::size_t faster_after = 0;  // case faster from `at` on
  int at = 0;
};
// Every pair of whole-program cases (not the --loss ones) with the same swept values that
// differ in one thing only, the machine (one program on two machines) or the program (two
// programs on one machine), whose order by predicted runtime changes along p; in the order of
// the pairs' case indices. Two programs on two different machines are not compared.
std::vector<Crossover> crossovers(const StudyResult& study);

}  // namespace analysis
