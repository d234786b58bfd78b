#include "report/scaling.hpp"

#include <fmt/format.h>

#include "analysis/scaling_laws.hpp"
#include "report/text.hpp"
#include "solvers/solver.hpp"

namespace report::report_scaling {

namespace {

using namespace report_text;

// The laws along the speedup curve of the study's first method for one case.
analysis::ScalingLaws laws_of(const analysis::StudyResult& study, std::size_t c) {
  std::vector<std::pair<int, std::optional<double>>> speedups;
  for (int p : study.processors()) speedups.emplace_back(p, study.at(c, p, study.methods().front()).speedup);
  return analysis::scaling_laws(speedups);
}

std::string weak_scaling_note(const ReportInputs& inputs) {
  if (inputs.per_processor_variables.empty()) return "";
  std::string variables;
  for (const auto& [name, expression] : inputs.per_processor_variables) {
    variables += fmt::format("{}{} = {}", variables.empty() ? "" : ", ", name, expression);
  }
  if (!inputs.weak_scaling) {
    return fmt::format(
        "rates of P ({}):\n"
        "no size depends on P: the problem is the same at every p and every speedup is T(1) / T(p)\n",
        variables);
  }
  return fmt::format(
      "weak scaling ({}): every speedup is the scaled speedup T1(W(p)) / T(p),\n"
      "the one-processor time of the problem of p processors over its time on p\n",
      variables);
}

}  // namespace

std::string text(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out = weak_scaling_note(inputs);
  if (!inputs.scaling_laws) return out;
  const std::string method{solvers::to_string(study.methods().front())};
  out += fmt::format(
      "\nscaling laws of the {} speedups S: Karp-Flatt serial fraction e(p) = (1/S - 1/p)/(1 - 1/p);\n"
      "Amdahl 1/(a + (1-a)/p) with a = e(p0), Gustafson p - s(p-1) with s = (p0 - S(p0))/(p0 - 1),\n"
      "p0 the smallest p >= 2\n",
      method);
  std::vector<std::vector<std::string>> cells;
  std::string key_line;  // the fractions of each case
  std::vector<std::string> header = key_header(inputs);
  for (const char* title : {"p", "speedup", "e(p)", "amdahl", "gustafson"}) header.emplace_back(title);
  cells.push_back(header);
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    const analysis::ScalingLaws laws = laws_of(study, c);
    if (laws.alpha_p > 0) {
      std::string keys;
      for (const std::string& key : key_cells(inputs, study.cases()[c])) keys += (keys.empty() ? "" : " ") + key;
      key_line += fmt::format("{}p0 = {}: a = {:.6g}, s = {:.6g}\n", keys.empty() ? "" : keys + ": ", laws.alpha_p,
                              *laws.amdahl_alpha, *laws.gustafson_alpha);
    }
    for (const analysis::ScalingLawsRow& row : laws.rows) {
      std::vector<std::string> line = key_cells(inputs, study.cases()[c]);
      line.push_back(std::to_string(row.p));
      line.push_back(optional_number(row.speedup));
      line.push_back(row.karp_flatt ? fmt::format("{:.5f}", *row.karp_flatt) : std::string("-"));
      line.push_back(optional_number(row.amdahl));
      line.push_back(optional_number(row.gustafson));
      cells.push_back(std::move(line));
    }
  }
  return out + align(cells, key_header(inputs).size(), name_columns(inputs)) + key_line;
}

void add_json(nlohmann::ordered_json& document, const analysis::StudyResult& study, const ReportInputs& inputs) {
  const auto number = [](const std::optional<double>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };
  if (!inputs.per_processor_variables.empty()) {
    nlohmann::ordered_json variables = nlohmann::ordered_json::object();
    for (const auto& [name, expression] : inputs.per_processor_variables) variables[name] = expression;
    if (inputs.weak_scaling) {
      document["weak_scaling"] = {{"variables", variables}, {"speedup", "T1(W(p)) / T(p)"}};
    } else {
      document["rates_of_p"] = {{"variables", variables}, {"speedup", "T(1) / T(p)"}};
    }
  }
  if (!inputs.scaling_laws) return;
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    const analysis::CaseLabel& label = study.cases()[c];
    if (!label.phase.empty()) continue;
    const analysis::ScalingLaws laws = laws_of(study, c);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const analysis::ScalingLawsRow& row : laws.rows) {
      rows.push_back({{"p", row.p},
                      {"speedup", number(row.speedup)},
                      {"karp_flatt", number(row.karp_flatt)},
                      {"amdahl", number(row.amdahl)},
                      {"gustafson", number(row.gustafson)}});
    }
    nlohmann::ordered_json sweep = nlohmann::ordered_json::object();
    for (const auto& [name, value] : label.swept) sweep[name] = value;
    nlohmann::ordered_json keys = several_programs(inputs) ? nlohmann::ordered_json{{"program", label.program}}
                                                           : nlohmann::ordered_json::object();
    keys.update(nlohmann::ordered_json{
        {"machine", label.machine},
        {"sweep", sweep},
        {"method", std::string{solvers::to_string(study.methods().front())}},
        {"p0", laws.alpha_p > 0 ? nlohmann::ordered_json(laws.alpha_p) : nlohmann::ordered_json(nullptr)},
        {"amdahl_alpha", number(laws.amdahl_alpha)},
        {"gustafson_alpha", number(laws.gustafson_alpha)},
        {"rows", rows}});
    cases.push_back(std::move(keys));
  }
  document["scaling_laws"] = cases;
}

}  // namespace report::report_scaling
