// The runtime quantiles of a study (--quantiles): a block under the table, CSV columns and JSON
// fields. Only methods whose info says gives_quantiles have them (approx and mc).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/report.hpp"

namespace report::report_quantiles {

// The block under the table: per (case, p), a line per method with quantiles, each level as
// "estimate [lower, upper]", and a line naming the methods that give none. Empty when no
// quantile was asked for.
std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs);

// "q50", "q95", "q99.9": the column name of a level.
std::string level_name(double level);
// The CSV header's extra columns ("q50,q50_lower,q50_upper,..." with a leading comma) and one
// row's fields (empty where the method gives no quantiles or has no figure).
std::string csv_header(const ReportInputs& inputs);
std::string csv_fields(const ReportInputs& inputs, const solvers::Result& result);
// A result's "quantiles": an array of {level, estimate, lower, upper[, samples]}, or null where
// the method gives no quantiles or has no figure. A bound that does not exist (+infinity) is null.
// Times in the report's time unit, as everywhere.
nlohmann::ordered_json json_field(const solvers::Result& result, const ReportInputs& inputs);

}  // namespace report::report_quantiles
