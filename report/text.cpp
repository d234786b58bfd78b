#include "report/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace report::report_text {

std::size_t display_width(const std::string& text) {
  std::size_t columns = 0;
  for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
  return columns;
}

std::string_view interval_kind_name(solvers::IntervalKind kind) {
  switch (kind) {
    case solvers::IntervalKind::DiscretisationBracket: return "bracket";
    case solvers::IntervalKind::BoundPair: return "bounds";
    case solvers::IntervalKind::Confidence95: return "confidence";
    case solvers::IntervalKind::ExactOrProven: return "exact";
  }
  return "exact";
}

namespace {

std::string variables_text(const std::map<std::string, double>& variables) {
  std::string text;
  for (const auto& [name, value] : variables) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{}={:g}", name, value);
  }
  return text;
}

std::string machines_text(const ReportInputs& inputs) {
  std::string text;
  for (const MachineInput& machine : inputs.machines) {
    text += (text.empty() ? "" : ", ") + machine.name;
    if (!machine.constants.empty()) text += " (" + variables_text(machine.constants) + ")";
  }
  return (inputs.machines.size() == 1 ? "machine " : "machines ") + text;
}

}  // namespace

std::string number(double value) {
  if (std::abs(value) >= 1e9 || (value != 0.0 && std::abs(value) < 1e-3)) return fmt::format("{:.6g}", value);
  return fmt::format("{:.3f}", value);
}

std::string optional_number(const std::optional<double>& value) { return value ? number(*value) : std::string{"-"}; }

std::string figure_text(const std::optional<double>& estimate, double lower, double upper, const TimeUnit& unit) {
  if (!estimate) return fmt::format("[{}, {}]", number(unit.of(lower)), number(unit.of(upper)));
  const double half = std::max(upper - *estimate, *estimate - lower);
  if (half == 0.0) return number(unit.of(*estimate));
  return fmt::format("{} ± {}", number(unit.of(*estimate)), number(unit.of(half)));
}

std::string prediction_figure_text(const analysis::Prediction& prediction, const TimeUnit& unit) {
  if (!prediction.lower || !prediction.upper) return prediction.estimate ? number(unit.of(*prediction.estimate)) : "-";
  // An exact figure is shown alone, unless it carries the task means' discretisation bracket
  // (T(1) of measured runtimes): rounding alone never makes it look uncertain.
  if (prediction.interval == analysis::PredictionIntervalKind::Exact && prediction.estimate &&
      *prediction.upper - *prediction.lower <= 1e-12 * std::abs(*prediction.estimate)) {
    return number(unit.of(*prediction.estimate));
  }
  return figure_text(prediction.estimate, *prediction.lower, *prediction.upper, unit);
}

std::string prediction_source(const analysis::Prediction& prediction) {
  return std::string{solvers::to_string(prediction.method)} + (prediction.own_solve ? "*" : "");
}

std::string csv_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.17g}", *value) : std::string{};
}

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string align(const std::vector<std::vector<std::string>>& cells, std::size_t p_column, std::size_t left) {
  std::vector<std::size_t> width;
  for (const auto& line : cells) {
    if (width.size() < line.size()) width.resize(line.size(), 0);
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
  }
  if (width.size() > p_column) width[p_column] = std::max<std::size_t>(width[p_column], 4);
  std::string out;
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - display_width(line[c]), ' ');
      const std::string gap = c == 0 ? "" : "  ";
      text += c < left ? gap + line[c] + pad : gap + pad + line[c];
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

bool several_programs(const ReportInputs& inputs) { return inputs.programs.size() > 1; }

std::string heading(const ReportInputs& inputs) {
  std::string out;
  std::string programs;  // several: a line per program under the heading's first line
  if (several_programs(inputs)) {
    out = "programs on " + machines_text(inputs);
    for (const ProgramInput& program : inputs.programs) {
      programs += fmt::format("  {}: {} ({}){}\n", program.label, program.name, program.file,
                              program.variables.empty() ? "" : ", " + variables_text(program.variables));
    }
  } else {
    out = fmt::format("program {} ({}) on {}", inputs.program_name, inputs.program_file, machines_text(inputs));
    if (!inputs.variables.empty()) out += fmt::format(", {}", variables_text(inputs.variables));
  }
  for (const analysis::SweepVariable& sweep : inputs.sweeps) {
    // A long list as its ends: the table shows every value anyway.
    constexpr std::size_t kListed = 12;
    std::string values;
    for (std::size_t i = 0; i < sweep.values.size(); ++i) {
      if (sweep.values.size() > kListed && i == kListed / 2) {
        values += fmt::format(" … ({} values)", sweep.values.size());
        i = sweep.values.size() - kListed / 2;
      }
      values += fmt::format("{}{:g}", values.empty() ? "" : " ", sweep.values[i]);
    }
    out += fmt::format("; {} swept over {}", sweep.name, values);
  }
  return out + (programs.empty() ? "\n" : ":\n" + programs);
}

std::vector<std::string> key_header(const ReportInputs& inputs) {
  std::vector<std::string> header;
  if (several_programs(inputs)) header.push_back("program");
  if (inputs.machines.size() > 1) header.push_back("machine");
  for (const analysis::SweepVariable& sweep : inputs.sweeps) header.push_back(sweep.name);
  return header;
}

std::vector<std::string> key_cells(const ReportInputs& inputs, const analysis::CaseLabel& label) {
  std::vector<std::string> cells;
  if (several_programs(inputs)) cells.push_back(label.program);
  if (inputs.machines.size() > 1) cells.push_back(label.machine);
  for (const auto& [name, value] : label.swept) cells.push_back(fmt::format("{:g}", value));
  return cells;
}

std::size_t name_columns(const ReportInputs& inputs) {
  return (several_programs(inputs) ? 1 : 0) + (inputs.machines.size() > 1 ? 1 : 0);
}

std::size_t whole_program_case(const analysis::StudyResult& study, std::size_t c) {
  while (c > 0 && !study.cases()[c].phase.empty()) --c;
  return c;
}

std::optional<double> share_of(const analysis::Row& phase, const analysis::Row& whole) {
  if (!phase.result.solved() || !whole.result.solved() || !(whole.result.mean > 0.0)) return std::nullopt;
  return phase.result.mean / whole.result.mean;
}

std::string ranges(std::vector<int> processors) {
  std::sort(processors.begin(), processors.end());
  processors.erase(std::unique(processors.begin(), processors.end()), processors.end());
  std::string list;
  for (std::size_t i = 0; i < processors.size(); ++i) {
    // Runs of consecutive counts as ranges: "2-64" rather than 63 numbers.
    std::size_t j = i;
    while (j + 1 < processors.size() && processors[j + 1] == processors[j] + 1) ++j;
    if (!list.empty()) list += ", ";
    list += j > i ? fmt::format("{}-{}", processors[i], processors[j]) : std::to_string(processors[i]);
    i = j;
  }
  return list;
}

}  // namespace report::report_text
