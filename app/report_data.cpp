#include "app/report_data.hpp"

#include <fmt/format.h>

#include "app/report_quantiles.hpp"
#include "app/report_text.hpp"
#include "app/wording.hpp"

namespace app::report_data {

namespace {

using namespace report_text;

nlohmann::ordered_json json_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json swept_json(const std::vector<std::pair<std::string, double>>& swept) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (const auto& [name, value] : swept) object[name] = value;
  return object;
}

std::optional<double> figure(const solvers::Result& result, double value) {
  return result.solved() ? std::optional<double>(value) : std::nullopt;
}

std::string csv_line(const analysis::StudyResult& study, std::size_t c, const analysis::Row& row,
                     const ReportInputs& inputs) {
  const analysis::CaseLabel& label = study.cases()[c];
  std::string line = csv_text(label.machine) + ",";
  for (const auto& [name, value] : label.swept) line += fmt::format("{:.17g},", value);
  if (inputs.loss) {
    const analysis::Row& whole = study.at(whole_program_case(study, c), row.p, row.result.method);
    line += csv_text(label.phase) + "," + (label.phase.empty() ? std::string() : csv_number(share_of(row, whole))) + ",";
  }
  const solvers::Result& result = row.result;
  return line + fmt::format("{},{},{},{},{},{},{},{},{}{}\n", row.p, solvers::to_string(result.method),
                            csv_number(figure(result, result.mean)), csv_number(figure(result, result.lower)),
                            csv_number(figure(result, result.upper)), csv_number(row.speedup),
                            csv_number(row.efficiency), csv_number(row.speedup_lower), csv_number(row.speedup_upper),
                            report_quantiles::csv_fields(inputs, result));
}

nlohmann::ordered_json json_entry(const analysis::StudyResult& study, std::size_t c, const analysis::Row& row) {
  const analysis::CaseLabel& label = study.cases()[c];
  const solvers::Result& result = row.result;
  nlohmann::ordered_json entry = {{"machine", label.machine}, {"sweep", swept_json(label.swept)}};
  if (!label.phase.empty()) entry["phase"] = label.phase;
  entry.update(nlohmann::ordered_json{{"p", row.p},
                                      {"method", solvers::to_string(result.method)},
                                      {"mean", json_number(figure(result, result.mean))},
                                      {"lower", json_number(figure(result, result.lower))},
                                      {"upper", json_number(figure(result, result.upper))},
                                      {"speedup", json_number(row.speedup)},
                                      {"efficiency", json_number(row.efficiency)},
                                      {"speedup_lower", json_number(row.speedup_lower)},
                                      {"speedup_upper", json_number(row.speedup_upper)}});
  return entry;
}

}  // namespace

std::string csv(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out = "machine,";
  for (const analysis::SweepVariable& variable : inputs.sweeps) out += csv_text(variable.name) + ",";
  if (inputs.loss) out += "phase,share,";
  out += "p,method,mean,lower,upper,speedup,efficiency,speedup_lower,speedup_upper" +
         report_quantiles::csv_header(inputs) + "\n";
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    for (int p : study.processors()) {
      for (solvers::Method method : study.methods()) out += csv_line(study, c, study.at(c, p, method), inputs);
    }
  }
  return out;
}

nlohmann::ordered_json inputs_json(const ReportInputs& inputs) {
  nlohmann::ordered_json methods = nlohmann::ordered_json::array();
  for (solvers::Method method : inputs.request.methods) methods.push_back(solvers::to_string(method));
  nlohmann::ordered_json machines = nlohmann::ordered_json::array();
  for (const MachineInput& machine : inputs.machines) {
    machines.push_back({{"name", machine.name},
                        {"file", machine.file.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(machine.file)}});
  }
  nlohmann::ordered_json sweeps = nlohmann::ordered_json::object();
  for (const analysis::SweepVariable& variable : inputs.sweeps) sweeps[variable.name] = variable.values;
  const solvers::SolverOptions& solver_options = inputs.request.solver_options;
  return {{"program", {{"name", inputs.program_name}, {"file", inputs.program_file}}},
          {"machines", machines},
          {"variables", inputs.variables},
          {"sweep", sweeps},
          {"options",
           {{"processors", inputs.request.processors},
            {"methods", methods},
            {"grid_points", solver_options.series_parallel.grid.max_points},
            {"tail_mass", solver_options.series_parallel.grid.tail_mass},
            {"threads", inputs.request.threads},
            {"seed", solver_options.monte_carlo.seed},
            {"quantiles", solver_options.quantiles},
            {"loss", inputs.loss}}}};
}

std::string json(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["inputs"] = inputs_json(inputs);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  nlohmann::ordered_json loss = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    const bool phase_alone = !study.cases()[c].phase.empty();
    for (int p : study.processors()) {
      for (solvers::Method method : study.methods()) {
        const analysis::Row& row = study.at(c, p, method);
        nlohmann::ordered_json entry = json_entry(study, c, row);
        if (phase_alone) {
          entry["share"] = json_number(share_of(row, study.at(whole_program_case(study, c), p, method)));
          loss.push_back(std::move(entry));
          continue;
        }
        entry.update(nlohmann::ordered_json{
            {"detail", row.result.solved() ? row.result.detail : unsolved_text(*row.result.unsolved)},
            {"seconds", row.result.statistics.seconds},
            {"tree_nodes", row.result.statistics.tree_nodes},
            {"represented_tasks", row.result.statistics.represented_tasks},
            {"quantiles", report_quantiles::json_field(row.result)},
            {"same_model_as", row.same_model_as ? nlohmann::ordered_json(*row.same_model_as) : nlohmann::ordered_json()}});
        results.push_back(std::move(entry));
      }
    }
  }
  document["results"] = std::move(results);
  if (inputs.loss) document["loss"] = std::move(loss);
  document["seconds"] = study.seconds();
  return document.dump(2) + "\n";
}

// JSON Lines as Extra-P's reader takes them (extrap/fileio/file_reader/jsonlines_file_reader.py):
// one object per measurement with "params" (the same names on every line: p and the swept
// variables), "callpath", "metric" and "value". The machine and, with --loss, the phase go into
// the call path (machine->program or machine->program->phase), the method into the metric.
std::string jsonl(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string out;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    const analysis::CaseLabel& label = study.cases()[c];
    std::string callpath = label.machine + "->" + inputs.program_name;
    if (!label.phase.empty()) callpath += "->" + label.phase;
    for (int p : study.processors()) {
      for (solvers::Method method : study.methods()) {
        const analysis::Row& row = study.at(c, p, method);
        if (!row.result.solved()) continue;
        nlohmann::ordered_json params = {{"p", row.p}};
        for (const auto& [name, value] : label.swept) params[name] = value;
        const std::string method_name{solvers::to_string(method)};
        const std::pair<std::string, std::optional<double>> metrics[] = {
            {"time", row.result.mean}, {"speedup", row.speedup}, {"efficiency", row.efficiency}};
        for (const auto& [metric, value] : metrics) {
          if (!value) continue;
          const nlohmann::ordered_json line = {{"params", params},
                                               {"callpath", callpath},
                                               {"metric", metric + " (" + method_name + ")"},
                                               {"value", *value}};
          out += line.dump() + "\n";
        }
      }
    }
  }
  return out;
}

}  // namespace app::report_data
