// Where the time goes (--breakdown): each p's prediction split into computation, communication,
// synchronisation and idle time per processor (analysis/breakdown.hpp), as a block under the
// table, CSV columns on the prediction rows and a JSON field of each prediction.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "analysis/breakdown.hpp"
#include "report/report.hpp"

namespace report::report_breakdown {

// The split of one (case, p), where the study has the exact model's processor time and a
// prediction; empty otherwise.
std::optional<analysis::Breakdown> of(const analysis::StudyResult& study, std::size_t case_index, int p);

// The block under the table; empty without --breakdown.
std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs);

// The CSV header's extra columns (with a leading comma; empty without --breakdown) and a row's
// fields: filled on a prediction row (`prediction` true), empty on a method's row.
std::string csv_header(const ReportInputs& inputs);
std::string csv_fields(const analysis::StudyResult& study, std::size_t case_index, int p, bool prediction,
                       const ReportInputs& inputs);

// A prediction's "breakdown": {computation, communication, synchronisation, idle}, each
// {estimate, lower, upper} in the report's time unit; null where there is none.
nlohmann::ordered_json json_field(const analysis::StudyResult& study, std::size_t case_index, int p,
                                  const ReportInputs& inputs);

}  // namespace report::report_breakdown
