// The number to trust for each (case, p), and the bottom line of a study: the best-justified
// figure the run computed (docs/cli.md, "The prediction") and what it says about the scaling.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/study.hpp"
#include "solvers/solver.hpp"

namespace analysis {

// Bounds whose width is at most this fraction of the lower bound are "tight": their midpoint is
// within half of it of the exact mean, and the prediction takes it when no exact or Monte Carlo
// figure was computed.
inline constexpr double kTightBounds = 0.02;

struct Prediction {
  solvers::Method method = solvers::Method::SeriesParallel;  // the method that gave it
  solvers::IntervalKind interval = solvers::IntervalKind::ExactOrProven;
  // The method's own estimate; for tight bounds their midpoint; empty for wide bounds, which
  // give an interval only.
  std::optional<double> estimate;
  double lower = 0.0;
  double upper = 0.0;
  // Against T(1): the exact one-processor time where known, else the prediction for p = 1.
  std::optional<double> speedup;
  std::optional<double> speedup_lower;
  std::optional<double> speedup_upper;
  std::optional<double> efficiency;
};

// The first that was solved of: exact (state space), Monte Carlo, bounds within kTightBounds,
// the approximate model, bounds of any width. Empty when no method solved this p.
std::optional<Prediction> predict(const StudyResult& study, std::size_t case_index, int p);

// What the predictions of one case say over the reported processor counts.
struct ScalingSummary {
  std::optional<int> fastest_p;         // the least predicted runtime (the smallest such p)
  std::optional<double> fastest_time;
  std::optional<int> efficient_half;    // the largest p with efficiency >= 0.5
  std::optional<int> efficient_80;      // the largest p with efficiency >= 0.8
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
