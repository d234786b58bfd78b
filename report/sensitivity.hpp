// What limits scaling (--sensitivity; analysis/sensitivity.hpp, docs/sensitivity.md): the
// elasticities and tolerances of each p as blocks under the table, CSV columns on the
// prediction rows and the JSON list "sensitivities".
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "report/report.hpp"

namespace report::report_sensitivity {

// The constants in the reports' order: each name once, in the order the rows first give them.
std::vector<std::string> constant_names(const analysis::StudyResult& study);

// The blocks under the table (elasticities ranked, tolerances, the leading constant along p);
// empty without --sensitivity.
std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs);

// The CSV header's extra columns (with a leading comma; empty without --sensitivity): per
// constant of `constants` (constant_names, found once per report) e_NAME, e_NAME_lower,
// e_NAME_upper, tolerance_1pct_NAME, tolerance_5pct_NAME; and a row's fields, filled on a
// prediction row (`prediction` true), empty on a method's row.
std::string csv_header(const std::vector<std::string>& constants, const ReportInputs& inputs);
std::string csv_fields(const analysis::StudyResult& study, std::size_t case_index, int p, bool prediction,
                       const std::vector<std::string>& constants, const ReportInputs& inputs);

// The JSON list "sensitivities": one entry per (case, p, constant).
nlohmann::ordered_json json_list(const analysis::StudyResult& study, const ReportInputs& inputs);

}  // namespace report::report_sensitivity
