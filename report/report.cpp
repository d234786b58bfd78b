#include "report/report.hpp"

#include <cmath>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "analysis/prediction.hpp"
#include "report/breakdown.hpp"
#include "report/sensitivity.hpp"
#include "analysis/notes.hpp"
#include "report/data.hpp"
#include "report/notes.hpp"
#include "report/scaling.hpp"
#include "report/quantiles.hpp"
#include "report/text.hpp"
#include "report/wording.hpp"
#include "solvers/solver.hpp"

namespace report {

namespace {

using namespace report_text;

// The widest a table may be before its column groups wrap into blocks (docs/cli.md).
constexpr std::size_t kTableWidth = 100;

std::string unit_title(const std::string& name, const ReportInputs& inputs) {
  return fmt::format("{} [{}]", name, inputs.time_unit.symbol);
}

std::string time_text(double microseconds, const ReportInputs& inputs) {
  return number(inputs.time_unit.of(microseconds));
}

std::string interval_text(double lower, double upper, const ReportInputs& inputs) {
  return fmt::format("[{}, {}]", time_text(lower, inputs), time_text(upper, inputs));
}

// A method's column title: its name and the time unit (and "± 95%" for a confidence interval).
std::vector<std::string> method_header(solvers::Method method, const ReportInputs& inputs) {
  const solvers::SolverInfo& info = solvers::info(method);
  const std::string name{solvers::to_string(method)};
  if (info.presentation == solvers::Presentation::EstimatePlusMinus) return {unit_title(name + " ± 95%", inputs)};
  return {unit_title(name, inputs)};
}

// A method's figure cell, as its info says to present it.
std::vector<std::string> method_cells(const solvers::Result& result, const ReportInputs& inputs) {
  const solvers::SolverInfo& info = solvers::info(result.method);
  if (!result.solved()) return {"-"};
  switch (info.presentation) {
    case solvers::Presentation::EstimateAndInterval: {
      // One column, as narrow as the prediction's: the bracket need not be centred, so ± its
      // larger side (CSV and JSON give both ends).
      const double half = std::max(result.upper - result.mean, result.mean - result.lower);
      return {fmt::format("{} ± {}", time_text(result.mean, inputs), time_text(half, inputs))};
    }
    case solvers::Presentation::IntervalOnly: return {interval_text(result.lower, result.upper, inputs)};
    case solvers::Presentation::EstimatePlusMinus:
      return {fmt::format("{} ± {}", time_text(result.mean, inputs), time_text(result.upper - result.mean, inputs))};
    case solvers::Presentation::EstimateOnly: break;
  }
  return {time_text(result.mean, inputs)};
}

// The prediction's cells: its figure (prediction_figure_text), the method it comes from (with a
// star when the prediction solved it itself: a method not asked for), speedup and efficiency.
std::vector<std::string> prediction_cells(const std::optional<analysis::Prediction>& prediction,
                                          const ReportInputs& inputs) {
  if (!prediction) return {"-", "-", "-", "-"};
  return {prediction_figure_text(*prediction, inputs.time_unit), prediction_source(*prediction),
          optional_number(prediction->speedup), optional_number(prediction->efficiency)};
}

// One line's column groups: the keys and p, the prediction, then each method's figure.
std::vector<std::vector<std::string>> table_line(const analysis::StudyResult& study, std::size_t c, int p,
                                                 const ReportInputs& inputs) {
  std::vector<std::vector<std::string>> groups;
  groups.push_back(key_cells(inputs, study.cases()[c]));
  groups.back().push_back(std::to_string(p));
  groups.push_back(prediction_cells(analysis::predict(study, c, p), inputs));
  for (solvers::Method method : study.methods()) groups.push_back(method_cells(study.at(c, p, method).result, inputs));
  return groups;
}

// The lines' column groups as blocks no wider than kTableWidth: each block repeats the first
// group (the keys and p) and takes the next groups while they fit; a group wider than the
// limit alone gets a block of its own.
std::string wrapped(const std::vector<std::vector<std::vector<std::string>>>& lines, std::size_t p_column,
                    std::size_t left) {
  const std::size_t groups = lines.front().size();
  std::vector<std::size_t> width(groups, 0);  // each group's width, its columns two spaces apart
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<std::size_t> columns;
    for (const auto& line : lines) {
      if (columns.size() < line[g].size()) columns.resize(line[g].size(), 0);
      for (std::size_t k = 0; k < line[g].size(); ++k) columns[k] = std::max(columns[k], display_width(line[g][k]));
    }
    for (std::size_t k = 0; k < columns.size(); ++k) width[g] += columns[k] + (k > 0 ? 2 : 0);
    if (g == 0) width[g] = std::max<std::size_t>(width[g], 4);
  }
  std::string out;
  for (std::size_t g = 1; g < groups;) {
    std::size_t end = g + 1, used = width[0] + 2 + width[g];
    while (end < groups && used + 2 + width[end] <= kTableWidth) used += 2 + width[end++];
    std::vector<std::vector<std::string>> cells;
    for (const auto& line : lines) {
      std::vector<std::string> row = line[0];
      for (std::size_t k = g; k < end; ++k) row.insert(row.end(), line[k].begin(), line[k].end());
      cells.push_back(std::move(row));
    }
    if (!out.empty()) out += '\n';
    out += align(cells, p_column, left);
    g = end;
  }
  return out;
}

// Per machine with interval-valued constants (its lower and upper machine) and per program and
// swept values: where the predictions of the two ends lie furthest apart, relative to the
// lower end's. Each end's own interval is part of the band.
std::string band_lines(const analysis::StudyResult& study, const ReportInputs& inputs,
                       const std::function<std::string(std::size_t)>& key_of) {
  std::string out;
  const auto end_of = [&](const analysis::CaseLabel& label) -> const MachineBand* {
    for (const MachineInput& machine : inputs.machines) {
      if (machine.name == label.machine && !machine.band.of.empty()) return &machine.band;
    }
    return nullptr;
  };
  const auto& cases = study.cases();
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const MachineBand* low = end_of(cases[c]);
    if (!cases[c].phase.empty() || low == nullptr || low->end != "lower") continue;
    for (std::size_t d = 0; d < cases.size(); ++d) {
      const MachineBand* high = end_of(cases[d]);
      if (high == nullptr || high->end != "upper" || high->of != low->of || cases[d].phase != cases[c].phase ||
          cases[d].program_index != cases[c].program_index || cases[d].swept != cases[c].swept) {
        continue;
      }
      std::optional<int> widest_p;
      double widest = -1.0, from = 0.0, to = 0.0;
      for (int p : study.processors()) {
        const auto a = analysis::predict(study, c, p);
        const auto b = analysis::predict(study, d, p);
        if (!a || !b || !a->lower || !b->lower || !(*a->lower > 0.0)) continue;
        const double lo = std::min(*a->lower, *b->lower), hi = std::max(*a->upper, *b->upper);
        if ((hi - lo) / *a->lower > widest) {
          widest = (hi - lo) / *a->lower;
          widest_p = p;
          from = lo;
          to = hi;
        }
      }
      if (!widest_p) continue;
      std::string ranges;
      for (const auto& [name, range] : low->ranges) {
        ranges += fmt::format("{}{} {:g} .. {:g}", ranges.empty() ? "" : ", ", name, range.first, range.second);
      }
      std::string key = key_of(c);
      const std::size_t at = key.find(cases[c].machine);
      if (at != std::string::npos) key.replace(at, cases[c].machine.size(), low->of);
      out += fmt::format("  {}: band over {}: widest at p = {}, {} .. {} {} ({:.1f}% of the lower)\n", key, ranges,
                         *widest_p, time_text(from, inputs), time_text(to, inputs), inputs.time_unit.symbol,
                         100.0 * widest);
    }
  }
  return out;
}

// ">= 0.8: p = 5", ">= 0.8: p = 4-6" where the intervals leave it open between them, ">= 0.8:
// none" (or "none or up to p = 3").
std::string reach_text(const analysis::EfficiencyReach& reach) {
  const std::string threshold = fmt::format(">= {:g}: ", reach.threshold);
  if (!reach.possibly) return threshold + "none";
  if (!reach.surely) return threshold + fmt::format("none or up to p = {}", *reach.possibly);
  if (*reach.surely == *reach.possibly) return threshold + fmt::format("p = {}", *reach.surely);
  return threshold + fmt::format("p = {}-{}", *reach.surely, *reach.possibly);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

// The bottom line of each case, from the prediction column: the least runtime, the largest p
// still efficient, where extra processors are idle; then where one configuration overtakes
// another. With several machines or swept values each line starts with the case's key.
std::string summary(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out;
  const auto key_of = [&](std::size_t c) {
    std::string key;
    for (const std::string& cell : key_cells(inputs, study.cases()[c])) key += (key.empty() ? "" : " ") + cell;
    return key;
  };
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    const analysis::ScalingSummary s = analysis::summarise(study, c);
    std::vector<std::string> parts;
    if (s.fastest_p) {
      parts.push_back(fmt::format("least runtime at p = {} ({} {})", *s.fastest_p, time_text(*s.fastest_time, inputs),
                                  inputs.time_unit.symbol));
    }
    std::vector<std::string> reaches;
    for (const analysis::EfficiencyReach& reach : s.efficiency) reaches.push_back(reach_text(reach));
    parts.push_back("largest p with efficiency " + join(reaches, "; "));
    if (!s.idle.empty()) {
      parts.push_back(fmt::format("p = {}: the same model as p = {} (the extra processors have no work), solved once",
                                  ranges(s.idle), *s.idle_model_of));
    }
    const std::string key = key_of(c);
    for (const std::string& part : parts) out += "  " + (key.empty() ? "" : key + ": ") + part + "\n";
  }
  out += band_lines(study, inputs, key_of);
  for (const analysis::Crossover& crossing : analysis::crossovers(study)) {
    out += fmt::format("  {} is faster below p = {}, {} from p = {} on\n", key_of(crossing.faster_first), crossing.at,
                       key_of(crossing.faster_after), crossing.at);
  }
  return out.empty() ? out : "summary (from the prediction):\n" + out;
}

// What the columns are, for the methods of this run.
std::string legend(const analysis::StudyResult& study) {
  std::string out = fmt::format(
      "prediction: the exact model's mean by the best figure the run computed: exact, else mc (cut to the bounds), "
      "else the bounds' midpoint when they are within {:g}%, else approx when inside the bounds (± to their ends), "
      "else the bounds; approx alone has no error bar; * solved for the prediction itself\n",
      100.0 * analysis::kTightBounds);
  for (solvers::Method method : study.methods()) {
    out += fmt::format("{}: {}\n", solvers::to_string(method), solvers::info(method).description);
  }
  return out;
}

// One line per (case, processor count): the keys and p, the prediction with its speedup and
// efficiency, then each method's figure with its error bar (bracket, bound interval or
// confidence interval), wrapped into blocks of at most kTableWidth columns. Several machines
// or swept values add key columns in front and a line per case and p.
std::string table(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::vector<std::vector<std::vector<std::string>>> lines;
  std::vector<std::vector<std::string>> header{key_header(inputs)};
  header.back().push_back("p");
  header.push_back({unit_title("prediction", inputs), "from", "speedup", "efficiency"});
  for (solvers::Method method : study.methods()) header.push_back(method_header(method, inputs));
  lines.push_back(std::move(header));
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) lines.push_back(table_line(study, c, p, inputs));
  }
  std::string out = heading(inputs) + wrapped(lines, key_header(inputs).size(), name_columns(inputs));
  out += report_notes::table_lines(analysis::notes(study), study);
  return out + report_scaling::text(study, inputs) + summary(study, inputs) + legend(study);
}

// --loss: per (case, p), the whole program's runtime and each phase alone: its speedup and its
// share of the runtime, by the first method.
std::string loss_table(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const solvers::Method method = study.methods().front();
  const std::vector<std::string> keys = key_header(inputs);
  std::string out =
      fmt::format("\nloss analysis (paper section 5), method {}: each phase alone, every other phase costing 0\n",
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
  out += align(cells, keys.size(), name_columns(inputs));
  out +=
      "share: the phase alone's runtime / the whole program's. SYNC: every phase free, the barriers alone; "
      "they stay in every phase's case too, so the shares need not add up to 1 (nor do maxima over processors)\n";
  return out;
}

}  // namespace

std::string render(const analysis::StudyResult& study, const ReportInputs& inputs, Format format) {
  switch (format) {
    case Format::Table:
      return table(study, inputs) + report_quantiles::table_block(study, inputs) +
             report_breakdown::table_block(study, inputs) + report_sensitivity::table_block(study, inputs) +
             (inputs.loss ? loss_table(study, inputs) : std::string{});
    case Format::Csv: return report_data::csv(study, inputs);
    case Format::Json: return report_data::json(study, inputs);
    case Format::Jsonl: return report_data::jsonl(study, inputs);
  }
  return {};
}

}  // namespace report
