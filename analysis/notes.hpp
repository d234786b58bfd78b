// What a study says besides its figures: methods not computed, caveats on figures, an
// approximation far from what the run knows of the exact mean, a prediction that could not be
// better, processor counts that repeat a smaller one's model. Decided here, per case, as data;
// the report words them (report/wording.hpp) under the table and in JSON (docs/cli.md, "Notes").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/study.hpp"
#include "solvers/result.hpp"

namespace analysis {

enum class NoteKind {
  Interrupted,         // the study was stopped (Request::stop) before these p were solved whole
  NotComputed,         // `method` did not solve these p: `unsolved` says why
  Caveat,              // `method`'s figure carries `caveat` (solvers::Result::note) at these p
  PredictionCaveat,    // the prediction's own solve by `method` carries `caveat`
  PredictionFallback,  // the prediction is only the bounds or an approximation at these p
  ApproxAboveBounds,   // `method`'s bracket lies more than 10% above the upper bound (U3)
  ApproxBelowBounds,   // its bracket lies below the lower bound: no upper bound there (U3)
  ApproxAboveMc,       // more than 10% above Monte Carlo's confidence interval (U3)
  ApproxBelowMc,       // more than 10% below it (U3)
  SameModel,           // these p scale to the model of `same_as` (their extra processors are idle)
};

// "interrupted", "not_computed", "caveat", "prediction_caveat", "prediction_fallback", "approx_above_bounds",
// "approx_below_bounds", "approx_above_mc", "approx_below_mc", "same_model": CSV and JSON.
const char* to_string(NoteKind kind);

struct Note {
  NoteKind kind = NoteKind::NotComputed;
  std::size_t case_index = 0;
  std::vector<int> processors;  // ascending
  std::optional<solvers::Method> method;
  std::optional<solvers::Unsolved> unsolved;  // NotComputed
  std::string caveat;                         // Caveat, PredictionCaveat
  double widest = 0.0;                        // Caveat: the largest (upper - mean) / |mean| among them
  std::optional<int> same_as;                 // SameModel
};

// Every note of the study: first that it was interrupted, if it was (case 0, the unsolved p); then
// per case in case order (whole-program cases; --loss phases have
// none): not computed and caveats in the order of their first (p, method), then the
// prediction's, then each approximation's far-off notes, then the processor counts sharing a
// model.
std::vector<Note> notes(const StudyResult& study);

}  // namespace analysis
