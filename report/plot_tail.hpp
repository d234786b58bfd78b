// --tail-plot FILE.svg: how the runtime's tail grows with p, as p95 / mean against p.
#pragma once

#include <string>

#include "analysis/study.hpp"
#include "report/plot.hpp"
#include "report/report.hpp"

namespace report {

// One line per (machine or swept value, method that gives quantiles: approx, mc) of the
// 95% quantile's estimate over the same method's mean, against p; each line in its own style
// (plot.hpp's line_style): the style of the same case and method in --plot's chart while there
// are at most 8 cases (a colour per case, a dash and marker per method), else the lines
// numbered in order; markers on the
// points, a dashed reference at 1 (no tail beyond the mean), round-number ticks on the ratio
// axis, the p axis linear or log2 as the speedup chart's (ChartOptions: log2 when the p are
// powers of two, at least three, or with --log-axes), the title of chart_title and a legend.
// The --loss cases are not drawn; a p where the method has no figure is left out of its line.
// The intervals of the quantile are in the reports (--quantiles), not drawn. A self-contained
// SVG 1.1 document.
// The level --tail-plot draws against the mean; the command adds it to the quantile levels.
inline constexpr double kTailLevel = 0.95;

std::string render_tail_plot(const analysis::StudyResult& study, const ReportInputs& inputs, const ChartOptions& chart);

}  // namespace report
