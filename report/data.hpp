// The machine-readable reports: CSV, JSON and JSON Lines.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "report/report.hpp"

namespace report::report_data {

// One row per (case, p, method): the machine, the swept values, with --loss the phase (empty
// for the whole program) and its share of the whole program's runtime.
std::string csv(const analysis::StudyResult& study, const ReportInputs& inputs);
std::string json(const analysis::StudyResult& study, const ReportInputs& inputs);
// JSON Lines as Extra-P's reader takes them.
std::string jsonl(const analysis::StudyResult& study, const ReportInputs& inputs);

// A number, or null for none.
nlohmann::ordered_json json_number(const std::optional<double>& value);

// What tells a case apart in JSON: "program" (only with several programs), "machine", "sweep".
nlohmann::ordered_json case_json(const ReportInputs& inputs, const analysis::CaseLabel& label);

// The "inputs" object of the JSON reports.
nlohmann::ordered_json inputs_json(const ReportInputs& inputs);

}  // namespace report::report_data
