// --sensitivity-plot FILE.svg: what limits scaling, each constant's elasticity against p.
#pragma once

#include <string>

#include "analysis/study.hpp"
#include "report/plot.hpp"
#include "report/report.hpp"

namespace report {

// One panel: per whole-program case and constant taken continuously (not a whole-number count or
// size, whose differences over x +- 1 are in the table) whose elasticity is not 0 at every p, a line
// of its elasticity d ln T / d ln x (analysis/sensitivity.hpp) against p with a whisker over its
// interval where that is wider than a line, and a reference at 0; the legend names the case and
// the constant. p on the axis of the tail chart (log2 with ChartOptions::log_axes or powers of
// two). A self-contained SVG 1.1 document.
std::string render_sensitivity_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                                    const ChartOptions& chart);

}  // namespace report
