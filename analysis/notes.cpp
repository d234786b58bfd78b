#include "analysis/notes.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/prediction.hpp"
#include "solvers/solver.hpp"

namespace analysis {

const char* to_string(NoteKind kind) {
  switch (kind) {
    case NoteKind::NotComputed: return "not_computed";
    case NoteKind::Caveat: return "caveat";
    case NoteKind::PredictionCaveat: return "prediction_caveat";
    case NoteKind::PredictionFallback: return "prediction_fallback";
    case NoteKind::ApproxAboveBounds: return "approx_above_bounds";
    case NoteKind::ApproxBelowBounds: return "approx_below_bounds";
    case NoteKind::ApproxAboveMc: return "approx_above_mc";
    case NoteKind::ApproxBelowMc: return "approx_below_mc";
    case NoteKind::SameModel: return "same_model";
    case NoteKind::Interrupted: return "interrupted";
  }
  return "";
}

namespace {

bool same_subject(const Note& a, const Note& b) {
  if (a.kind != b.kind || a.method != b.method || a.caveat != b.caveat || a.same_as != b.same_as) return false;
  if (a.unsolved.has_value() != b.unsolved.has_value()) return false;
  return !a.unsolved ||
         (a.unsolved->reason == b.unsolved->reason && a.unsolved->explanation == b.unsolved->explanation &&
          a.unsolved->limit == b.unsolved->limit && a.unsolved->size == b.unsolved->size &&
          a.unsolved->limit_value == b.unsolved->limit_value && a.unsolved->bytes == b.unsolved->bytes);
}

// Adds p to the note of the same subject in `found`, or starts one.
Note& note_for(std::vector<Note>& found, Note subject, int p) {
  auto known = std::find_if(found.begin(), found.end(), [&](const Note& one) { return same_subject(one, subject); });
  if (known == found.end()) known = found.insert(found.end(), std::move(subject));
  known->processors.push_back(p);
  return *known;
}

Note subject(NoteKind kind, std::size_t c, solvers::Method method) {
  Note note;
  note.kind = kind;
  note.case_index = c;
  note.method = method;
  return note;
}

void add_caveat(std::vector<Note>& found, NoteKind kind, std::size_t c, int p, const solvers::Result& result) {
  if (result.note.empty()) return;
  Note one = subject(kind, c, result.method);
  one.caveat = result.note;
  Note& note = note_for(found, std::move(one), p);
  if (result.mean != 0.0) note.widest = std::max(note.widest, (result.upper - result.mean) / std::abs(result.mean));
}

// The methods asked for: not computed, caveats.
void method_notes(const StudyResult& study, std::size_t c, std::vector<Note>& found) {
  for (int p : study.processors()) {
    for (solvers::Method method : study.methods()) {
      const solvers::Result& result = study.at(c, p, method).result;
      if (result.solved()) {
        add_caveat(found, NoteKind::Caveat, c, p, result);
      } else {
        Note one = subject(NoteKind::NotComputed, c, method);
        one.unsolved = result.unsolved;
        note_for(found, std::move(one), p);
      }
    }
  }
}

void prediction_notes(const StudyResult& study, std::size_t c, std::vector<Note>& found) {
  for (int p : study.processors()) {
    if (const auto& own = study.prediction_solve(c, p); own && own->solved()) {
      add_caveat(found, NoteKind::PredictionCaveat, c, p, *own);
    }
  }
  if (!(study.prediction_options().seconds_per_model > 0.0)) return;
  for (int p : study.processors()) {
    const std::optional<Prediction> prediction = predict(study, c, p);
    if (prediction && (prediction->interval == PredictionIntervalKind::Bounds ||
                       prediction->interval == PredictionIntervalKind::None)) {
      note_for(found, subject(NoteKind::PredictionFallback, c, prediction->method), p);
    }
  }
}

// docs/semantics.md, U3: an approximation (a discretisation bracket) against the bounds and
// against Monte Carlo's confidence interval.
void far_off_notes(const StudyResult& study, std::size_t c, std::vector<Note>& found) {
  const auto& methods = study.methods();
  const auto with_interval = [&](solvers::IntervalKind kind) {
    return std::find_if(methods.begin(), methods.end(),
                        [kind](solvers::Method m) { return solvers::info(m).interval == kind; });
  };
  const auto bounds = with_interval(solvers::IntervalKind::BoundPair);
  const auto sampled = with_interval(solvers::IntervalKind::Confidence95);
  for (solvers::Method method : methods) {
    if (solvers::info(method).interval != solvers::IntervalKind::DiscretisationBracket) continue;
    std::vector<Note> kinds;
    for (int p : study.processors()) {
      const solvers::Result& figure = study.at(c, p, method).result;
      if (!figure.solved()) continue;
      if (bounds != methods.end()) {
        const solvers::Result& pair = study.at(c, p, *bounds).result;
        if (pair.solved() && figure.lower > 1.1 * pair.upper)
          note_for(kinds, subject(NoteKind::ApproxAboveBounds, c, method), p);
        // Both figures are sums of many terms: equal values may differ in their last digits.
        if (pair.solved() && figure.upper < pair.lower - 1e-9 * std::abs(pair.lower)) {
          note_for(kinds, subject(NoteKind::ApproxBelowBounds, c, method), p);
        }
      }
      if (sampled != methods.end()) {
        const solvers::Result& estimate = study.at(c, p, *sampled).result;
        if (estimate.solved() && figure.lower > 1.1 * estimate.upper)
          note_for(kinds, subject(NoteKind::ApproxAboveMc, c, method), p);
        if (estimate.solved() && figure.upper < 0.9 * estimate.lower)
          note_for(kinds, subject(NoteKind::ApproxBelowMc, c, method), p);
      }
    }
    std::stable_sort(kinds.begin(), kinds.end(), [](const Note& a, const Note& b) { return a.kind < b.kind; });
    found.insert(found.end(), kinds.begin(), kinds.end());
  }
}

}  // namespace

std::vector<Note> notes(const StudyResult& study) {
  std::vector<Note> found;
  if (!study.unsolved_processors().empty()) {
    Note interrupted;
    interrupted.kind = NoteKind::Interrupted;
    interrupted.processors = study.unsolved_processors();
    found.push_back(std::move(interrupted));
  }
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    std::vector<Note> of_case;
    method_notes(study, c, of_case);
    prediction_notes(study, c, of_case);
    far_off_notes(study, c, of_case);
    if (IdleProcessors idle = idle_processors(study, c); !idle.counts.empty()) {
      Note same;
      same.kind = NoteKind::SameModel;
      same.case_index = c;
      same.processors = std::move(idle.counts);
      same.same_as = idle.model_of;
      of_case.push_back(std::move(same));
    }
    found.insert(found.end(), of_case.begin(), of_case.end());
  }
  return found;
}

}  // namespace analysis
