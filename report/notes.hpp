// The study's notes (analysis/notes.hpp) in words: under the table, merged over the cases that
// share one, and in JSON, one object per case.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/notes.hpp"
#include "analysis/study.hpp"
#include "report/report.hpp"

namespace report::report_notes {

// One note's sentence, e.g. "bounds not computed for p = 64: the exact model has about 300000
// tasks, more than --max-exact-tasks 200000".
std::string text(const analysis::Note& note, const analysis::StudyResult& study);

// The lines under the table (the same-model notes are in the summary instead): notes of the
// same sentence in several cases are one line, their processor counts together.
std::string table_lines(const std::vector<analysis::Note>& notes, const analysis::StudyResult& study);

// One note's fields after the case's keys: {"kind", "p": [...], "method", "text"}.
nlohmann::ordered_json json_fields(const analysis::Note& note, const analysis::StudyResult& study);

}  // namespace report::report_notes
