#include "report/notes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/text.hpp"
#include "report/wording.hpp"
#include "solvers/solver.hpp"

namespace report::report_notes {

namespace {

using report_text::ranges;

// The sentence with "{p}" where its processor counts go: notes of one template in several
// cases are one line under the table.
std::string template_of(const analysis::Note& note, const analysis::StudyResult& study) {
  const std::string method = note.method ? std::string(solvers::to_string(*note.method)) : std::string();
  switch (note.kind) {
    case analysis::NoteKind::NotComputed:
      return fmt::format("{} not computed for p = {{p}}: {}", method, unsolved_text(*note.unsolved));
    case analysis::NoteKind::Caveat: return fmt::format("{} for p = {{p}}: {}", method, note.caveat);
    case analysis::NoteKind::PredictionCaveat:
      return fmt::format("the prediction's own {} solve for p = {{p}}: {}", method, note.caveat);
    case analysis::NoteKind::PredictionFallback:
      return fmt::format(
          "the prediction for p = {{p}} comes from {}: neither the exact mean nor mc fit the "
          "prediction's budget of {:g} s per model (--prediction-budget) and the run's limits there",
          method, study.prediction_options().seconds_per_model);
    case analysis::NoteKind::ApproxAboveBounds:
      return fmt::format(
          "{} lies more than 10% above the upper bound of the exact mean for p = {{p}}: the approximate "
          "model is far off for this program there, and the prediction does not use it",
          method);
    case analysis::NoteKind::ApproxBelowBounds:
      return fmt::format(
          "{} lies below the lower bound of the exact mean for p = {{p}}: it is no upper bound for this "
          "program there, and the prediction does not use it (docs/semantics.md, U2)",
          method);
    case analysis::NoteKind::ApproxAboveMc:
    case analysis::NoteKind::ApproxBelowMc:
      return fmt::format(
          "{} lies more than 10% {} the mc confidence interval of the exact mean for p = {{p}}: the "
          "approximate model is far off for this program there; read mc",
          method, note.kind == analysis::NoteKind::ApproxAboveMc ? "above" : "below");
    case analysis::NoteKind::SameModel:
      return fmt::format("p = {{p}}: the same model as p = {} (the extra processors have no work), solved once",
                         note.same_as.value_or(0));
    case analysis::NoteKind::Interrupted:
      return "interrupted run (Ctrl-C or a termination signal): p = {p} not solved; the rows are the processor "
             "counts solved whole before it stopped";
  }
  return {};
}

std::string filled(const std::string& sentence, const std::vector<int>& processors, double widest, bool caveat) {
  std::string out = sentence;
  const std::size_t at = out.find("{p}");
  if (at != std::string::npos) out.replace(at, 3, ranges(processors));
  // How wide the figure's interval is, where it has one: a caveat on a figure without (approx's
  // "no upper bound" on a closed form) says nothing of its width.
  if (caveat && widest > 0.0) out += fmt::format(" (it is up to {:.3g} of the mean)", widest);
  return out;
}

bool is_caveat(const analysis::Note& note) {
  return note.kind == analysis::NoteKind::Caveat || note.kind == analysis::NoteKind::PredictionCaveat;
}

}  // namespace

std::string text(const analysis::Note& note, const analysis::StudyResult& study) {
  return filled(template_of(note, study), note.processors, note.widest, is_caveat(note));
}

std::string table_lines(const std::vector<analysis::Note>& notes, const analysis::StudyResult& study) {
  struct Line {
    analysis::NoteKind kind;
    std::string sentence;
    std::vector<int> processors;
    double widest = 0.0;
    bool caveat = false;
  };
  std::vector<Line> lines;
  for (const analysis::Note& note : notes) {
    if (note.kind == analysis::NoteKind::SameModel) continue;
    const std::string sentence = template_of(note, study);
    auto line = std::find_if(lines.begin(), lines.end(), [&](const Line& one) { return one.sentence == sentence; });
    if (line == lines.end()) line = lines.insert(lines.end(), Line{note.kind, sentence, {}, 0.0, is_caveat(note)});
    line->processors.insert(line->processors.end(), note.processors.begin(), note.processors.end());
    line->widest = std::max(line->widest, note.widest);
  }
  // Methods not computed first, then caveats, then the prediction's and the far-off notes.
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.kind < b.kind; });
  std::string out;
  for (const Line& line : lines) out += filled(line.sentence, line.processors, line.widest, line.caveat) + "\n";
  return out;
}

nlohmann::ordered_json json_fields(const analysis::Note& note, const analysis::StudyResult& study) {
  return {{"kind", analysis::to_string(note.kind)},
          {"p", note.processors},
          {"method", note.method ? nlohmann::ordered_json(solvers::to_string(*note.method)) : nlohmann::ordered_json()},
          {"text", text(note, study)}};
}

}  // namespace report::report_notes
