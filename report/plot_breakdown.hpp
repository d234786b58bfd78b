// --breakdown-plot FILE.svg: where the time goes, as stacked bars against p.
#pragma once

#include <string>

#include "analysis/study.hpp"
#include "report/report.hpp"

namespace report {

// Per whole-program case (program, machine and swept values; the --loss cases are not drawn) a
// panel of stacked bars, one per reported p, each its p's runtime as 100%: the shares of
// computation, communication, synchronisation and idle time (analysis/breakdown.hpp), from
// their estimates; an idle time without an estimate (wide bounds) is drawn from its lower end,
// one below 0 (noise around 0) as 0. A whisker on the idle part spans its interval (the
// prediction's), and the runtime is written above the bar (2.62M, 672.5k, 58.14 in the report's
// time unit) where the bars are wide enough. At most kBreakdownPanels panels, the first cases;
// the title says how many it left out. A p without a split has no bar. A self-contained SVG
// 1.1 document.
inline constexpr std::size_t kBreakdownPanels = 12;
std::string render_breakdown_plot(const analysis::StudyResult& study, const ReportInputs& inputs);

}  // namespace report
