#include "app/report.hpp"

#include <cmath>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "app/report_data.hpp"
#include "app/report_quantiles.hpp"
#include "app/report_text.hpp"
#include "app/wording.hpp"
#include "solvers/solver.hpp"

namespace app {

namespace {

using namespace report_text;

// The header of the speedup table: the keys, p, each method's figure columns, each method's
// speedup, the first method's efficiency.
std::vector<std::string> table_header(const std::vector<solvers::Method>& methods, const ReportInputs& inputs) {
  std::vector<std::string> header = key_header(inputs);
  header.push_back("p");
  for (solvers::Method method : methods) {
    const solvers::SolverInfo& info = solvers::info(method);
    header.emplace_back(info.title);
    if (info.presentation == solvers::Presentation::EstimateAndInterval) header.emplace_back(info.interval_title);
  }
  for (solvers::Method method : methods) {
    header.push_back(methods.size() == 1 ? std::string{"speedup"} : "speedup " + std::string{solvers::to_string(method)});
  }
  header.push_back("efficiency");
  return header;
}

// A method's figure cells, as its info says to present it.
void add_figure(std::vector<std::string>& line, const solvers::Result& result) {
  const solvers::SolverInfo& info = solvers::info(result.method);
  const std::string interval = fmt::format("[{}, {}]", number(result.lower), number(result.upper));
  switch (info.presentation) {
    case solvers::Presentation::EstimateAndInterval:
      line.push_back(number(result.mean));
      line.push_back(interval);
      break;
    case solvers::Presentation::IntervalOnly: line.push_back(interval); break;
    case solvers::Presentation::EstimatePlusMinus:
      line.push_back(fmt::format("{} ± {}", number(result.mean), number(result.upper - result.mean)));
      break;
    case solvers::Presentation::EstimateOnly: line.push_back(number(result.mean)); break;
  }
}

void add_speedup(std::vector<std::string>& line, const analysis::Row& row) {
  if (solvers::info(row.result.method).speedup_as_interval) {
    line.push_back(row.speedup_lower && row.speedup_upper
                       ? fmt::format("[{}, {}]", number(*row.speedup_lower), number(*row.speedup_upper))
                       : std::string{"-"});
  } else {
    line.push_back(optional_number(row.speedup));
  }
}

// (method, reason) -> the processor counts it was not solved for, in order of first p.
using Unsolved = std::vector<std::pair<std::pair<std::string, std::string>, std::vector<int>>>;

std::vector<int>& unsolved_for(Unsolved& unsolved, std::pair<std::string, std::string> what) {
  for (auto& [known, processors] : unsolved) {
    if (known == what) return processors;
  }
  return unsolved.emplace_back(std::move(what), std::vector<int>{}).second;
}

// (method, note) -> the processor counts whose figure carries it and the widest relative
// half-width among them (Result::note: a caveat on a solved figure).
struct Caveat {
  std::vector<int> processors;
  double widest = 0.0;
};
using Caveats = std::vector<std::pair<std::pair<std::string, std::string>, Caveat>>;

void add_caveat(Caveats& caveats, const solvers::Result& result, int p) {
  if (result.note.empty()) return;
  std::pair<std::string, std::string> what{std::string{solvers::to_string(result.method)}, result.note};
  auto known = std::find_if(caveats.begin(), caveats.end(), [&](const auto& one) { return one.first == what; });
  if (known == caveats.end()) known = caveats.insert(caveats.end(), {std::move(what), Caveat{}});
  known->second.processors.push_back(p);
  if (result.mean != 0.0) {
    known->second.widest = std::max(known->second.widest, (result.upper - result.mean) / std::abs(result.mean));
  }
}

std::vector<std::string> table_line(const analysis::StudyResult& study, std::size_t c, int p,
                                    const ReportInputs& inputs, Unsolved& unsolved, Caveats& caveats) {
  std::vector<std::string> line = key_cells(inputs, study.cases()[c]);
  line.push_back(std::to_string(p));
  for (solvers::Method method : study.methods()) {
    const solvers::Result& result = study.at(c, p, method).result;
    if (result.solved()) {
      add_figure(line, result);
      add_caveat(caveats, result, p);
      continue;
    }
    line.push_back("-");
    if (solvers::info(method).presentation == solvers::Presentation::EstimateAndInterval) line.push_back("-");
    unsolved_for(unsolved, {std::string{solvers::to_string(method)}, unsolved_text(*result.unsolved)}).push_back(p);
  }
  for (solvers::Method method : study.methods()) add_speedup(line, study.at(c, p, method));
  line.push_back(optional_number(study.at(c, p, study.methods().front()).efficiency));
  return line;
}

// Where an approximation (a method whose interval is a discretisation bracket) lies far from
// what the run knows of the exact mean, a note says so, with the processor counts. Against the
// bounds: more than 10% above the upper bound (far off for this program), or below the lower
// bound (not an upper bound here). Against Monte Carlo's confidence interval, when the run has
// mc: more than 10% above or below it (docs/semantics.md, U3).
std::string far_off_notes(const analysis::StudyResult& study) {
  const auto& methods = study.methods();
  const auto with_interval = [&](solvers::IntervalKind kind) {
    return std::find_if(methods.begin(), methods.end(),
                        [kind](solvers::Method m) { return solvers::info(m).interval == kind; });
  };
  const auto bounds = with_interval(solvers::IntervalKind::BoundPair);
  const auto sampled = with_interval(solvers::IntervalKind::Confidence95);
  std::string out;
  for (solvers::Method method : methods) {
    if (solvers::info(method).interval != solvers::IntervalKind::DiscretisationBracket) continue;
    std::vector<int> above, below, above_sampled, below_sampled;
    for (std::size_t c = 0; c < study.cases().size(); ++c) {
      if (!study.cases()[c].phase.empty()) continue;
      for (int p : study.processors()) {
        const solvers::Result& figure = study.at(c, p, method).result;
        if (!figure.solved()) continue;
        if (bounds != methods.end()) {
          const solvers::Result& pair = study.at(c, p, *bounds).result;
          if (pair.solved()) {
            if (figure.lower > 1.1 * pair.upper) above.push_back(p);
            // Both figures are sums of many terms: equal values may differ in their last digits.
            if (figure.upper < pair.lower - 1e-9 * std::abs(pair.lower)) below.push_back(p);
          }
        }
        if (sampled != methods.end()) {
          const solvers::Result& estimate = study.at(c, p, *sampled).result;
          if (estimate.solved()) {
            if (figure.lower > 1.1 * estimate.upper) above_sampled.push_back(p);
            if (figure.upper < 0.9 * estimate.lower) below_sampled.push_back(p);
          }
        }
      }
    }
    const std::string name{solvers::to_string(method)};
    if (!above.empty()) {
      out += fmt::format("{} lies more than 10% above the upper bound of the exact mean for p = {}: the approximate "
                         "model is far off for this program there; read {} (or mc)\n",
                         name, ranges(above), solvers::to_string(*bounds));
    }
    if (!below.empty()) {
      out += fmt::format("{} lies below the lower bound of the exact mean for p = {}: it is no upper bound for this "
                         "program there (docs/methods.md)\n",
                         name, ranges(below));
    }
    if (sampled != methods.end()) {
      const std::string reference{solvers::to_string(*sampled)};
      for (const auto& [where, processors] : {std::pair{"above", &above_sampled}, std::pair{"below", &below_sampled}}) {
        if (processors->empty()) continue;
        out += fmt::format("{} lies more than 10% {} the {} confidence interval of the exact mean for p = {}: the "
                           "approximate model is far off for this program there; read {}\n",
                           name, where, reference, ranges(*processors), reference);
      }
    }
  }
  return out;
}

// Processor counts whose models equal a smaller count's (the extra processors have no work):
// one note per case and shared model, e.g. "p = 11-64: the same model as p = 10 ...". With
// several machines or swept values the note starts with the case's key.
std::string same_model_notes(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out;
  const solvers::Method first = study.methods().front();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    std::map<int, std::vector<int>> shared;
    for (int p : study.processors()) {
      if (const auto& same = study.at(c, p, first).same_model_as) shared[*same].push_back(p);
    }
    std::string key;
    for (const std::string& cell : key_cells(inputs, study.cases()[c])) key += cell + " ";
    if (!key.empty()) key = key.substr(0, key.size() - 1) + ": ";
    for (const auto& [solved, processors] : shared) {
      out += fmt::format("{}p = {}: the same model as p = {} (the extra processors have no work), solved once\n", key,
                         ranges(processors), solved);
    }
  }
  return out;
}

// One line per (case, processor count), a group of columns per method: the estimate with its
// error bar (bracket, bound interval or confidence interval), then the speedups. Several
// machines or swept values add key columns in front and a line per case and p.
std::string table(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::vector<std::vector<std::string>> cells{table_header(study.methods(), inputs)};
  Unsolved unsolved;
  Caveats caveats;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) cells.push_back(table_line(study, c, p, inputs, unsolved, caveats));
  }
  std::string out = heading(inputs) + align(cells, key_header(inputs).size(), inputs.machines.size() > 1 ? 1 : 0);
  for (auto& [what, processors] : unsolved) {
    out += fmt::format("{} not computed for p = {}: {}\n", what.first, ranges(processors), what.second);
  }
  for (auto& [what, caveat] : caveats) {
    out += fmt::format("{} for p = {}: {} (it is up to {:.3g} of the mean)\n", what.first, ranges(caveat.processors),
                       what.second, caveat.widest);
  }
  return out + same_model_notes(study, inputs) + far_off_notes(study);
}

// --loss: per (case, p), the whole program's runtime and each phase alone: its speedup and its
// share of the runtime, by the first method.
std::string loss_table(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const solvers::Method method = study.methods().front();
  const std::vector<std::string> keys = key_header(inputs);
  std::string out = fmt::format(
      "\nloss analysis (paper section 5), method {}: each phase alone, every other phase costing 0\n",
      solvers::to_string(method));
  std::vector<std::vector<std::string>> cells;
  const auto& cases = study.cases();
  for (std::size_t w = 0; w < cases.size(); ++w) {
    if (!cases[w].phase.empty()) continue;
    std::vector<std::size_t> parts;
    for (std::size_t c = w + 1; c < cases.size() && !cases[c].phase.empty(); ++c) parts.push_back(c);
    if (cells.empty()) {
      std::vector<std::string> header = keys;
      header.insert(header.end(), {"p", "runtime", "speedup"});
      for (std::size_t c : parts) {
        header.push_back("speedup " + cases[c].phase);
        header.push_back("share " + cases[c].phase);
      }
      cells.push_back(std::move(header));
    }
    for (int p : study.processors()) {
      const analysis::Row& whole = study.at(w, p, method);
      std::vector<std::string> line = key_cells(inputs, cases[w]);
      line.push_back(std::to_string(p));
      line.push_back(whole.result.solved() ? number(whole.result.mean) : std::string("-"));
      line.push_back(optional_number(whole.speedup));
      for (std::size_t c : parts) {
        const analysis::Row& alone = study.at(c, p, method);
        line.push_back(optional_number(alone.speedup));
        line.push_back(optional_number(share_of(alone, whole)));
      }
      cells.push_back(std::move(line));
    }
  }
  out += align(cells, keys.size(), inputs.machines.size() > 1 ? 1 : 0);
  out += "share: the phase alone's runtime / the whole program's. SYNC: every phase free, the barriers alone; "
         "they stay in every phase's case too, so the shares need not add up to 1 (nor do maxima over processors)\n";
  return out;
}

}  // namespace

std::string render(const analysis::StudyResult& study, const ReportInputs& inputs, Format format) {
  switch (format) {
    case Format::Table:
      return table(study, inputs) + report_quantiles::table_block(study, inputs) +
             (inputs.loss ? loss_table(study, inputs) : std::string{});
    case Format::Csv: return report_data::csv(study, inputs);
    case Format::Json: return report_data::json(study, inputs);
    case Format::Jsonl: return report_data::jsonl(study, inputs);
  }
  return {};
}

}  // namespace app
