#include "report/data.hpp"

#include "analysis/prediction.hpp"
#include "report/scaling.hpp"

#include <fmt/format.h>

#include "analysis/notes.hpp"
#include "report/breakdown.hpp"
#include "report/notes.hpp"
#include "report/quantiles.hpp"
#include "report/sensitivity.hpp"
#include "report/text.hpp"
#include "report/wording.hpp"

namespace report::report_data {

nlohmann::ordered_json json_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json case_json(const ReportInputs& inputs, const analysis::CaseLabel& label) {
  nlohmann::ordered_json swept = nlohmann::ordered_json::object();
  for (const auto& [name, value] : label.swept) swept[name] = value;
  nlohmann::ordered_json keys = nlohmann::ordered_json::object();
  if (report_text::several_programs(inputs)) keys["program"] = label.program;
  keys["machine"] = label.machine;
  keys["sweep"] = std::move(swept);
  return keys;
}

namespace {

using namespace report_text;

// The figure in the report's time unit, where the method solved it.
std::optional<double> time_figure(const solvers::Result& result, double microseconds, const ReportInputs& inputs) {
  return result.solved() ? std::optional<double>(inputs.time_unit.of(microseconds)) : std::nullopt;
}

// A row's speedup and efficiency: none for bounds, whose midpoint is no estimate (their
// speedup interval stands).
std::optional<double> point_speedup(const analysis::Row& row) {
  return solvers::info(row.result.method).interval == solvers::IntervalKind::BoundPair ? std::nullopt : row.speedup;
}
std::optional<double> point_efficiency(const analysis::Row& row) {
  return solvers::info(row.result.method).interval == solvers::IntervalKind::BoundPair ? std::nullopt : row.efficiency;
}

// A method's own estimate: none for bounds, whose midpoint is no estimate.
std::optional<double> estimate_of(const solvers::Result& result, const ReportInputs& inputs) {
  if (solvers::info(result.method).interval == solvers::IntervalKind::BoundPair) return std::nullopt;
  return time_figure(result, result.mean, inputs);
}

std::string csv_keys(const analysis::StudyResult& study, std::size_t c, const analysis::Row& row,
                     const ReportInputs& inputs) {
  const analysis::CaseLabel& label = study.cases()[c];
  std::string line = several_programs(inputs) ? csv_text(label.program) + "," : std::string();
  line += csv_text(label.machine) + ",";
  for (const auto& [name, value] : label.swept) line += fmt::format("{:.17g},", value);
  if (inputs.loss) {
    const analysis::Row& whole = study.at(whole_program_case(study, c), row.p, row.result.method);
    line +=
        csv_text(label.phase) + "," + (label.phase.empty() ? std::string() : csv_number(share_of(row, whole))) + ",";
  }
  return line;
}

// `constants`: the --sensitivity columns' constants (report_sensitivity::constant_names).
std::string csv_line(const analysis::StudyResult& study, std::size_t c, const analysis::Row& row,
                     const ReportInputs& inputs, const std::vector<std::string>& constants) {
  const solvers::Result& result = row.result;
  return csv_keys(study, c, row, inputs) +
         fmt::format("{},{},{},{},{},{},{},{},{},{},", row.p, solvers::to_string(result.method),
                     csv_number(estimate_of(result, inputs)), csv_number(time_figure(result, result.lower, inputs)),
                     csv_number(time_figure(result, result.upper, inputs)),
                     result.solved() ? interval_kind_name(solvers::info(result.method).interval) : "",
                     csv_number(point_speedup(row)), csv_number(point_efficiency(row)), csv_number(row.speedup_lower),
                     csv_number(row.speedup_upper)) +
         report_quantiles::csv_fields(inputs, result) + report_breakdown::csv_fields(study, c, row.p, false, inputs) +
         report_sensitivity::csv_fields(study, c, row.p, false, constants, inputs) + "\n";
}

// The prediction of one (case, p) as a CSV line whose method is "prediction" and whose field
// `from` names the method it comes from; with --breakdown, its split ends the line.
std::string csv_prediction_line(const analysis::StudyResult& study, std::size_t c, int p, const ReportInputs& inputs,
                                const std::vector<std::string>& constants) {
  const analysis::Row& row = study.at(c, p, study.methods().front());
  const std::optional<analysis::Prediction> prediction = analysis::predict(study, c, p);
  // The prediction has no quantiles of its own: its quantile fields stay empty.
  const std::string no_quantiles = report_quantiles::csv_fields(inputs, solvers::Result{}) +
                                   report_breakdown::csv_fields(study, c, p, true, inputs) +
                                   report_sensitivity::csv_fields(study, c, p, true, constants, inputs) + "\n";
  if (!prediction) return csv_keys(study, c, row, inputs) + fmt::format("{},prediction,,,,,,,,,", p) + no_quantiles;
  const auto in_unit = [&](std::optional<double> value) {
    return value ? std::optional<double>(inputs.time_unit.of(*value)) : std::nullopt;
  };
  return csv_keys(study, c, row, inputs) +
         fmt::format("{},prediction,{},{},{},{},{},{},{},{},{}", p, csv_number(in_unit(prediction->estimate)),
                     csv_number(in_unit(prediction->lower)), csv_number(in_unit(prediction->upper)),
                     analysis::to_string(prediction->interval), csv_number(prediction->speedup),
                     csv_number(prediction->efficiency), csv_number(prediction->speedup_lower),
                     csv_number(prediction->speedup_upper), solvers::to_string(prediction->method)) +
         no_quantiles;
}

nlohmann::ordered_json command_json(const ReportInputs& inputs) {
  nlohmann::ordered_json args = nlohmann::ordered_json::array();
  args.push_back("pdl-scale");
  for (std::size_t i = 1; i < inputs.command.size(); ++i) args.push_back(inputs.command[i]);
  return args;
}

nlohmann::ordered_json json_entry(const analysis::StudyResult& study, std::size_t c, const analysis::Row& row,
                                  const ReportInputs& inputs) {
  const analysis::CaseLabel& label = study.cases()[c];
  const solvers::Result& result = row.result;
  nlohmann::ordered_json entry = case_json(inputs, label);
  if (!label.phase.empty()) entry["phase"] = label.phase;
  entry.update(nlohmann::ordered_json{{"p", row.p},
                                      {"method", solvers::to_string(result.method)},
                                      {"estimate", json_number(estimate_of(result, inputs))},
                                      {"lower", json_number(time_figure(result, result.lower, inputs))},
                                      {"upper", json_number(time_figure(result, result.upper, inputs))},
                                      {"interval_kind", result.solved() ? nlohmann::ordered_json(interval_kind_name(
                                                                              solvers::info(result.method).interval))
                                                                        : nlohmann::ordered_json(nullptr)},
                                      {"speedup", json_number(point_speedup(row))},
                                      {"efficiency", json_number(point_efficiency(row))},
                                      {"speedup_lower", json_number(row.speedup_lower)},
                                      {"speedup_upper", json_number(row.speedup_upper)}});
  return entry;
}

nlohmann::ordered_json prediction_json(const analysis::StudyResult& study, std::size_t c, int p,
                                       const ReportInputs& inputs) {
  const analysis::CaseLabel& label = study.cases()[c];
  nlohmann::ordered_json entry = case_json(inputs, label);
  entry["p"] = p;
  const std::optional<analysis::Prediction> prediction = analysis::predict(study, c, p);
  if (!prediction) {
    entry["method"] = nullptr;
    return entry;
  }
  const auto in_unit = [&](std::optional<double> value) {
    return json_number(value ? std::optional<double>(inputs.time_unit.of(*value)) : std::nullopt);
  };
  entry.update(nlohmann::ordered_json{{"method", solvers::to_string(prediction->method)},
                                      {"own_solve", prediction->own_solve},
                                      {"estimate", in_unit(prediction->estimate)},
                                      {"lower", in_unit(prediction->lower)},
                                      {"upper", in_unit(prediction->upper)},
                                      {"interval_kind", analysis::to_string(prediction->interval)},
                                      {"speedup", json_number(prediction->speedup)},
                                      {"efficiency", json_number(prediction->efficiency)},
                                      {"speedup_lower", json_number(prediction->speedup_lower)},
                                      {"speedup_upper", json_number(prediction->speedup_upper)},
                                      {"efficiency_lower", json_number(prediction->efficiency_lower)},
                                      {"efficiency_upper", json_number(prediction->efficiency_upper)},
                                      {"detail", prediction->detail}});
  if (inputs.request.breakdown) entry["breakdown"] = report_breakdown::json_field(study, c, p, inputs);
  return entry;
}

nlohmann::ordered_json optional_int(const std::optional<int>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// [{"threshold", "largest_p", "surely", "possibly"}]: largest_p where the intervals decide it
// (surely == possibly), null otherwise.
nlohmann::ordered_json reaches_json(const std::vector<analysis::EfficiencyReach>& reaches) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const analysis::EfficiencyReach& reach : reaches) {
    const bool decided = reach.surely == reach.possibly;
    list.push_back({{"threshold", reach.threshold},
                    {"largest_p", decided ? optional_int(reach.surely) : nlohmann::ordered_json(nullptr)},
                    {"surely", optional_int(reach.surely)},
                    {"possibly", optional_int(reach.possibly)}});
  }
  return list;
}

nlohmann::ordered_json notes_json(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const analysis::Note& note : analysis::notes(study)) {
    nlohmann::ordered_json entry = case_json(inputs, study.cases()[note.case_index]);
    entry.update(report_notes::json_fields(note, study));
    list.push_back(std::move(entry));
  }
  return list;
}

nlohmann::ordered_json summary_json(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    const analysis::CaseLabel& label = study.cases()[c];
    if (!label.phase.empty()) continue;
    const analysis::ScalingSummary summary = analysis::summarise(study, c);
    nlohmann::ordered_json entry = case_json(inputs, label);
    entry.update(nlohmann::ordered_json{
        {"fastest_p", optional_int(summary.fastest_p)},
        {"fastest_time",
         json_number(summary.fastest_time ? std::optional<double>(inputs.time_unit.of(*summary.fastest_time))
                                          : std::nullopt)},
        {"efficiency", reaches_json(summary.efficiency)},
        {"idle_processor_counts", summary.idle},
        {"idle_same_model_as", optional_int(summary.idle_model_of)}});
    list.push_back(std::move(entry));
  }
  return list;
}

nlohmann::ordered_json crossovers_json(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const analysis::Crossover& crossing : analysis::crossovers(study)) {
    list.push_back({{"faster_first", case_json(inputs, study.cases()[crossing.faster_first])},
                    {"faster_from", case_json(inputs, study.cases()[crossing.faster_after])},
                    {"p", crossing.at}});
  }
  return list;
}

}  // namespace

std::string csv(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const std::string& unit = inputs.time_unit.name;
  // Plain CSV: the header on line 1, every row as wide, units in the names; the run's
  // metadata (version, command, seed) is JSON's.
  const std::vector<std::string> constants = report_sensitivity::constant_names(study);
  std::string out = several_programs(inputs) ? "program,machine," : "machine,";
  for (const analysis::SweepVariable& variable : inputs.sweeps) out += csv_text(variable.name) + ",";
  if (inputs.loss) out += "phase,share,";
  out += fmt::format(
      "p,method,estimate_{0},lower_{0},upper_{0},interval_kind,speedup,efficiency,speedup_lower,"
      "speedup_upper,from{1}\n",
      unit,
      report_quantiles::csv_header(inputs) + report_breakdown::csv_header(inputs) +
          report_sensitivity::csv_header(constants, inputs));
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    for (int p : study.processors()) {
      if (study.cases()[c].phase.empty()) out += csv_prediction_line(study, c, p, inputs, constants);
      for (solvers::Method method : study.methods()) {
        out += csv_line(study, c, study.at(c, p, method), inputs, constants);
      }
    }
  }
  return out;
}

nlohmann::ordered_json inputs_json(const ReportInputs& inputs) {
  nlohmann::ordered_json methods = nlohmann::ordered_json::array();
  for (solvers::Method method : inputs.request.methods) methods.push_back(solvers::to_string(method));
  nlohmann::ordered_json machines = nlohmann::ordered_json::array();
  for (const MachineInput& machine : inputs.machines) {
    machines.push_back(
        {{"name", machine.name},
         {"file", machine.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(machine.file)}});
    if (!machine.constants.empty()) machines.back()["set"] = machine.constants;
    if (!machine.band.of.empty()) {
      nlohmann::ordered_json ranges = nlohmann::ordered_json::object();
      for (const auto& [name, range] : machine.band.ranges) ranges[name] = {range.first, range.second};
      machines.back()["band"] = {{"of", machine.band.of}, {"end", machine.band.end}, {"ranges", ranges}};
    }
  }
  nlohmann::ordered_json sweeps = nlohmann::ordered_json::object();
  for (const analysis::SweepVariable& variable : inputs.sweeps) sweeps[variable.name] = variable.values;
  const solvers::SolverOptions& solver_options = inputs.request.solver_options;
  nlohmann::ordered_json echoed;
  if (several_programs(inputs)) {
    // Several programs: each with its name, file and variables, in place of "program" and
    // "variables".
    nlohmann::ordered_json programs = nlohmann::ordered_json::array();
    for (const ProgramInput& program : inputs.programs) {
      programs.push_back(
          {{"label", program.label}, {"name", program.name}, {"file", program.file}, {"variables", program.variables}});
    }
    echoed = {{"programs", programs}, {"machines", machines}};
  } else {
    echoed = {{"program", {{"name", inputs.program_name}, {"file", inputs.program_file}}},
              {"machines", machines},
              {"variables", inputs.variables}};
  }
  echoed.update(nlohmann::ordered_json{{"sweep", sweeps},
                                       {"options",
                                        {{"processors", inputs.request.processors},
                                         {"methods", methods},
                                         {"grid_points", solver_options.series_parallel.grid.max_points},
                                         {"tail_mass", solver_options.series_parallel.grid.tail_mass},
                                         {"threads", inputs.request.threads},
                                         {"seed", solver_options.monte_carlo.seed},
                                         {"quantiles", solver_options.quantiles},
                                         {"prediction_budget", inputs.request.prediction.seconds_per_model},
                                         {"efficiency_thresholds", inputs.request.prediction.efficiency_thresholds},
                                         {"loss", inputs.loss}}}});
  return echoed;
}

std::string json(const analysis::StudyResult& study, const ReportInputs& inputs) {
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["tool"] = {{"name", "pdl-scale"}, {"version", PDL_SCALE_VERSION}};
  document["command"] = command_json(inputs);
  document["time_unit"] = inputs.time_unit.name;
  document["inputs"] = inputs_json(inputs);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  nlohmann::ordered_json loss = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    const bool phase_alone = !study.cases()[c].phase.empty();
    for (int p : study.processors()) {
      for (solvers::Method method : study.methods()) {
        const analysis::Row& row = study.at(c, p, method);
        nlohmann::ordered_json entry = json_entry(study, c, row, inputs);
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
            {"quantiles", report_quantiles::json_field(row.result, inputs)},
            {"same_model_as",
             row.same_model_as ? nlohmann::ordered_json(*row.same_model_as) : nlohmann::ordered_json()}});
        results.push_back(std::move(entry));
      }
    }
  }
  document["results"] = std::move(results);
  nlohmann::ordered_json predictions = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) predictions.push_back(prediction_json(study, c, p, inputs));
  }
  document["predictions"] = std::move(predictions);
  document["summary"] = summary_json(study, inputs);
  document["crossovers"] = crossovers_json(study, inputs);
  document["notes"] = notes_json(study, inputs);
  if (inputs.loss) document["loss"] = std::move(loss);
  if (inputs.request.sensitivity) document["sensitivities"] = report_sensitivity::json_list(study, inputs);
  report_scaling::add_json(document, study, inputs);
  document["seconds"] = study.seconds();
  if (inputs.estimated_seconds) {
    document["cost"] = {{"estimated_seconds", *inputs.estimated_seconds}, {"seconds", study.seconds()}};
  }
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
    // Several programs: each by its label (unique, where PROGRAM NAMEs need not be).
    std::string callpath = label.machine + "->" + (several_programs(inputs) ? label.program : inputs.program_name);
    if (!label.phase.empty()) callpath += "->" + label.phase;
    for (int p : study.processors()) {
      for (solvers::Method method : study.methods()) {
        const analysis::Row& row = study.at(c, p, method);
        if (!row.result.solved()) continue;
        nlohmann::ordered_json params = {{"p", row.p}};
        for (const auto& [name, value] : label.swept) params[name] = value;
        const std::string method_name{solvers::to_string(method)};
        // Bounds have no estimate of the time (their midpoint is none): no time line for them.
        const std::pair<std::string, std::optional<double>> metrics[] = {
            {"time [" + inputs.time_unit.name + "]", estimate_of(row.result, inputs)},
            {"speedup", point_speedup(row)},
            {"efficiency", point_efficiency(row)}};
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

}  // namespace report::report_data
