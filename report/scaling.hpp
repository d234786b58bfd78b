// Weak scaling and the scaling laws in the study's report (docs/scaling.md): the note that
// says the speedups are scaled speedups, and with --scaling-laws the Karp–Flatt serial fraction
// and the Amdahl and Gustafson references per p. Kept apart from the main table's renderers.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "analysis/study.hpp"
#include "report/report.hpp"

namespace report::report_scaling {

// The text under the table: empty unless a variable depends on P or --scaling-laws is given.
std::string text(const analysis::StudyResult& study, const ReportInputs& inputs);

// Adds "weak_scaling" (when a variable depends on P) and "scaling_laws" (with --scaling-laws)
// to the JSON document.
void add_json(nlohmann::ordered_json& document, const analysis::StudyResult& study, const ReportInputs& inputs);

}  // namespace report::report_scaling
