// Pieces shared by the report renderers: numbers, alignment, the heading and the key columns.
#pragma once

#include "analysis/prediction.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.hpp"
#include "solvers/solver.hpp"

namespace report::report_text {

// Characters on screen: "±" is two bytes of UTF-8 but one column.
std::size_t display_width(const std::string& text);
// What an interval is, as CSV and JSON name it: bracket, bounds, confidence, exact.
std::string_view interval_kind_name(solvers::IntervalKind kind);
// Enough digits to see the bracket, never scientific notation for ordinary runtimes.
std::string number(double value);
std::string optional_number(const std::optional<double>& value);
// A time (in microseconds) with its interval, in `unit`, as the table shows a prediction and
// its parts: "12.5" when the interval is that one point, "12.5 ± 0.03" around an estimate (the
// larger distance to the interval's ends: a bracket need not be centred), "[2.1, 3.4]" without
// an estimate (wide bounds).
std::string figure_text(const std::optional<double>& estimate, double lower, double upper, const TimeUnit& unit);
// A prediction's figure: as figure_text, an exact figure alone, and an approximation without an
// interval as its estimate alone.
std::string prediction_figure_text(const analysis::Prediction& prediction, const TimeUnit& unit);
// Where a prediction comes from, as the tables' `from` shows it: the method, with a `*` when the
// run solved it for the prediction itself ("mc*").
std::string prediction_source(const analysis::Prediction& prediction);
// "{:.17g}" or empty; a CSV field quoted when it must be.
std::string csv_number(const std::optional<double>& value);
std::string csv_text(const std::string& text);

// Right-aligned columns two spaces apart, at least 4 wide from column `p_column` (the p);
// the first `left` columns (names) left-aligned.
std::string align(const std::vector<std::vector<std::string>>& cells, std::size_t p_column, std::size_t left);

// "program NAME (FILE) on machine(s) …, variables; NAME swept over …" and a newline.
std::string heading(const ReportInputs& inputs);

// True when the study compares several programs (ReportInputs::programs).
bool several_programs(const ReportInputs& inputs);

// The columns that tell the cases apart: the program and the machine when there are several,
// the swept values.
std::vector<std::string> key_header(const ReportInputs& inputs);
std::vector<std::string> key_cells(const ReportInputs& inputs, const analysis::CaseLabel& label);
// How many of the key columns are names (program, machine), aligned left.
std::size_t name_columns(const ReportInputs& inputs);

// The case of the whole program that a --loss case (one phase alone) belongs to: cases come as
// the whole program, then each phase alone, for every machine and swept value.
std::size_t whole_program_case(const analysis::StudyResult& study, std::size_t c);

// The share of the whole program's runtime that one phase alone takes: T_phase(p) / T(p).
std::optional<double> share_of(const analysis::Row& phase, const analysis::Row& whole);

// "a-b, c" for the sorted processor counts: runs of consecutive counts as ranges.
std::string ranges(std::vector<int> processors);

}  // namespace report::report_text
