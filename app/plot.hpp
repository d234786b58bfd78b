// --plot FILE.svg: the speedup and efficiency curves of a study as an SVG chart for a report.
#pragma once

#include <string>
#include <vector>

#include "analysis/study.hpp"
#include "app/report.hpp"

namespace app {

// Two panels over p, speedup above and efficiency below: one line per (machine or swept
// value, method), the intervals of bounds and confidence intervals as shaded bands, the ideal
// speedup (p) and efficiency (1) dashed for reference; round-number ticks, axis labels, a
// legend and a title naming the program, machines and variables. The --loss cases are not
// drawn. A self-contained SVG 1.1 document (no scripts, no external fonts).
std::string render_plot(const analysis::StudyResult& study, const ReportInputs& inputs);

// Round tick values covering [low, high]: steps of 1, 2, 2.5 or 5 times a power of ten, about
// `target` of them; integers only when `integers`.
std::vector<double> nice_ticks(double low, double high, int target, bool integers);

// Text for SVG content and attributes: & < > " escaped.
std::string svg_escape(const std::string& text);
// A tick's label: whole values without decimals, others as {:g}.
std::string tick_label(double value);

}  // namespace app
