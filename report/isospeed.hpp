// --isospeed's report (docs/scaling.md): per machine and p, the size and work that hold the
// average speed, and Sun and Zhu's table of ψ(p, p').
#pragma once

#include <string>

#include "analysis/isospeed.hpp"
#include "report/report.hpp"

namespace report {

std::string render_isospeed(const analysis::IsospeedResult& result, const analysis::IsospeedOptions& options,
                            const ReportInputs& inputs, Format format);

}  // namespace report
