#include "report/sensitivity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/sensitivity_result.hpp"
#include "report/data.hpp"
#include "report/text.hpp"

namespace report::report_sensitivity {

namespace {

using namespace report_text;

const analysis::SensitivityRow* row_at(const analysis::StudyResult& study, std::size_t c, int p) {
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    if (row.case_index == c && row.p == p) return &row;
  }
  return nullptr;
}

const analysis::ConstantSensitivity* constant_in(const analysis::SensitivityRow* row, const std::string& name) {
  if (row == nullptr) return nullptr;
  for (const analysis::ConstantSensitivity& constant : row->constants) {
    if (constant.name == name) return &constant;
  }
  return nullptr;
}

// Three decimals, and two significant digits for the small ones.
std::string elasticity_number(double e) {
  if (e == 0.0) return "0";
  return std::abs(e) >= 0.001 ? fmt::format("{:.3f}", e) : fmt::format("{:.2g}", e);
}

// "0.620" or "0.620 ± 0.004" where the interval shows at three decimals.
std::string elasticity_text(const analysis::ConstantSensitivity& constant) {
  if (!constant.elasticity) return "-";
  const double e = *constant.elasticity;
  const double half = std::max(constant.upper - e, e - constant.lower);
  if (half < 0.0005 * std::max(1.0, std::abs(e))) return elasticity_number(e);
  return elasticity_number(e) + " ± " + elasticity_number(half);
}

std::string factor_text(const analysis::ConstantSensitivity& constant, std::size_t k) {
  if (constant.tolerances[k]) return fmt::format("×{:.4g}", *constant.tolerances[k]);
  return constant.unbounded[k] ? "∞" : "-";
}

// Constants with an elasticity other than 0 at some p of the whole-program cases: the table's
// columns (a constant the model does not read has e = 0 everywhere).
std::vector<std::string> read_constants(const analysis::StudyResult& study) {
  std::vector<std::string> names;
  for (const std::string& name : constant_names(study)) {
    for (const analysis::SensitivityRow& row : study.sensitivities()) {
      const auto* constant = constant_in(&row, name);
      if (constant != nullptr && (!constant->elasticity || *constant->elasticity != 0.0)) {
        names.push_back(name);
        break;
      }
    }
  }
  return names;
}

// The first three of a row's ranking (analysis::ranked) that surely have an effect: "ts > tc > tw".
std::string leaders_cell(const analysis::SensitivityRow& row) {
  std::string text;
  int shown = 0;
  for (const analysis::ConstantSensitivity* constant : analysis::ranked(row)) {
    if (shown == 3 || !(analysis::surely(*constant) > 0.0)) break;
    text += (shown++ == 0 ? "" : " > ") + constant->name;
  }
  return text.empty() ? "-" : text;
}

// One table: a line per (case, p) with a cell per constant, and with `leaders` the row's ranking.
std::string per_constant_table(const analysis::StudyResult& study, const ReportInputs& inputs,
                               const std::vector<std::string>& names,
                               std::string (*cell)(const analysis::ConstantSensitivity&), bool leaders) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = key_header(inputs);
  header.insert(header.end(), {"p", "from"});
  header.insert(header.end(), names.begin(), names.end());
  if (leaders) header.push_back("ranked");
  cells.push_back(std::move(header));
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    std::vector<std::string> line = key_cells(inputs, study.cases()[row.case_index]);
    line.push_back(std::to_string(row.p));
    line.push_back(row.why_not.empty() ? std::string(solvers::info(row.method).name) : "-");
    for (const std::string& name : names) {
      const auto* constant = constant_in(&row, name);
      line.push_back(constant == nullptr ? "-" : cell(*constant));
    }
    if (leaders) line.push_back(leaders_cell(row));
    cells.push_back(std::move(line));
  }
  return align(cells, key_header(inputs).size(), name_columns(inputs));
}

std::string tolerance_cell(const analysis::ConstantSensitivity& constant) {
  return factor_text(constant, 0) + " " + factor_text(constant, 1);
}

// "at p = 1,024: ts 0.62, tc 0.35, tw 0.03" for the largest p of each case, and where the
// leading constant changes.
std::string leaders_text(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    const std::vector<std::string> keys = key_cells(inputs, study.cases()[c]);
    std::string prefix;
    for (const std::string& key : keys) prefix += key + " ";
    const auto leaders = analysis::leading_constants(study.sensitivities(), c);
    if (leaders.empty()) continue;
    std::string changes;
    for (const analysis::LeadingConstant& leader : leaders) {
      changes += fmt::format("{}{} from p = {}", changes.empty() ? "" : ", ", leader.name, leader.from_p);
    }
    out += prefix + "leading constant: " + changes + "\n";
    const analysis::SensitivityRow* last = row_at(study, c, study.processors().back());
    if (last == nullptr) continue;
    std::string list;
    for (const analysis::ConstantSensitivity* constant : analysis::ranked(*last)) {
      if (!constant->elasticity || *constant->elasticity == 0.0) continue;
      list +=
          fmt::format("{}{} {}", list.empty() ? "" : ", ", constant->name, elasticity_number(*constant->elasticity));
    }
    out += fmt::format("{}at p = {}: {}\n", prefix, last->p, list);
  }
  return out;
}

}  // namespace

std::vector<std::string> constant_names(const analysis::StudyResult& study) {
  std::vector<std::string> names;
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      if (std::find(names.begin(), names.end(), constant.name) == names.end()) names.push_back(constant.name);
    }
  }
  return names;
}

std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs) {
  if (!inputs.request.sensitivity) return {};
  const std::vector<std::string> names = read_constants(study);
  std::string out =
      "\nwhat limits scaling: elasticity e = d ln T / d ln x of the prediction T (1% more x makes T about e% "
      "longer), with its interval; ranked: the first three by the |e| their interval guarantees\n";
  out += per_constant_table(study, inputs, names, elasticity_text, true);
  out += "\ntolerance: the factor x may grow by before T grows 1%, then 5% (∞: not within ×10⁶)\n";
  out += per_constant_table(study, inputs, names, tolerance_cell, false);
  out += leaders_text(study, inputs);
  std::vector<std::string> unread;
  for (const std::string& name : constant_names(study)) {
    if (std::find(names.begin(), names.end(), name) == names.end()) unread.push_back(name);
  }
  if (!unread.empty()) out += fmt::format("e = 0 at every p (T does not read them): {}\n", fmt::join(unread, ", "));
  std::vector<std::string> whole;
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      if (constant.whole_steps && std::find(whole.begin(), whole.end(), constant.name) == whole.end()) {
        whole.push_back(constant.name);
      }
    }
  }
  if (!whole.empty()) {
    out += fmt::format(
        "{}: whole numbers: differences over x - 1 and x + 1 (the interval spans the two one-sided slopes), "
        "tolerances whole values over x; not ranked\n",
        fmt::join(whole, ", "));
  }
  std::vector<std::string> why;
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    std::string text = row.why_not;
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      if (text.empty() && !constant.why_not.empty()) text = constant.name + ": " + constant.why_not;
    }
    if (!text.empty() && std::find(why.begin(), why.end(), text) == why.end()) why.push_back(text);
  }
  for (const std::string& text : why) out += "-: " + text + "\n";
  return out;
}

std::string csv_header(const std::vector<std::string>& constants, const ReportInputs& inputs) {
  if (!inputs.request.sensitivity) return {};
  std::string out;
  for (const std::string& name : constants) {
    const std::string field = csv_text(name);
    out += fmt::format(",e_{0},e_{0}_lower,e_{0}_upper,tolerance_1pct_{0},tolerance_5pct_{0}", field);
  }
  return out;
}

std::string csv_fields(const analysis::StudyResult& study, std::size_t case_index, int p, bool prediction,
                       const std::vector<std::string>& constants, const ReportInputs& inputs) {
  if (!inputs.request.sensitivity) return {};
  const analysis::SensitivityRow* row = prediction ? row_at(study, case_index, p) : nullptr;
  std::string out;
  for (const std::string& name : constants) {
    const auto* constant = constant_in(row, name);
    if (constant == nullptr || !constant->elasticity) {
      out += ",,,,,";
      continue;
    }
    out += fmt::format(",{},{},{},{},{}", csv_number(constant->elasticity), csv_number(constant->lower),
                       csv_number(constant->upper), csv_number(constant->tolerances[0]),
                       csv_number(constant->tolerances[1]));
  }
  return out;
}

nlohmann::ordered_json json_list(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const analysis::SensitivityRow& row : study.sensitivities()) {
    const nlohmann::ordered_json keys = report_data::case_json(inputs, study.cases()[row.case_index]);
    if (!row.why_not.empty()) {
      nlohmann::ordered_json entry = keys;
      entry.update(nlohmann::ordered_json{{"p", row.p}, {"name", nullptr}, {"why_not", row.why_not}});
      list.push_back(std::move(entry));
      continue;
    }
    const auto order = analysis::ranked(row);
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      nlohmann::ordered_json entry = keys;
      const bool has = constant.elasticity.has_value();
      const auto place = std::find(order.begin(), order.end(), &constant);
      entry.update(nlohmann::ordered_json{
          {"p", row.p},
          {"name", constant.name},
          {"owner", analysis::to_string(constant.owner)},
          {"value", constant.value},
          {"method", solvers::to_string(row.method)},
          {"interval_kind", analysis::to_string(constant.kind)},
          {"whole_steps", constant.whole_steps},
          {"rank", place == order.end() || !has ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(place - order.begin() + 1)},
          {"elasticity", report_data::json_number(constant.elasticity)},
          {"lower", report_data::json_number(has ? std::optional<double>(constant.lower) : std::nullopt)},
          {"upper", report_data::json_number(has ? std::optional<double>(constant.upper) : std::nullopt)},
          {"tolerance_1pct", report_data::json_number(constant.tolerances[0])},
          {"tolerance_5pct", report_data::json_number(constant.tolerances[1])},
          {"tolerance_1pct_unbounded", constant.unbounded[0]},
          {"tolerance_5pct_unbounded", constant.unbounded[1]},
          {"why_not",
           constant.why_not.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(constant.why_not)}});
      list.push_back(std::move(entry));
    }
  }
  return list;
}

}  // namespace report::report_sensitivity
