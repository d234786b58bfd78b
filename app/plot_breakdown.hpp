// --breakdown-plot FILE.svg: where the time goes, as stacked bars against p.
#pragma once

#include <string>

#include "analysis/study.hpp"
#include "app/report.hpp"

namespace app {

// Per whole-program case (machine and swept values; the --loss cases are not drawn) a panel of
// stacked bars, one per reported p: computation, communication, synchronisation and idle time
// per processor (analysis/breakdown.hpp), their estimates stacked from 0 in the report's time
// unit, so that a bar's height is the prediction; a whisker on the idle part spans its interval
// (the prediction's). An idle time without an estimate (wide bounds) is drawn from its lower
// end, a negative one (noise around 0) as 0. At most kBreakdownPanels panels, the first cases;
// the chart says how many it left out. A p without a split has no bar. A self-contained SVG
// 1.1 document.
inline constexpr std::size_t kBreakdownPanels = 12;
std::string render_breakdown_plot(const analysis::StudyResult& study, const ReportInputs& inputs);

}  // namespace app
