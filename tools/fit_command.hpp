// The fitting command, run as `pdl-fit FILE` and as `pdl-scale fit FILE`: the moments of a
// measured-data file (the format of NUMERICAL, docs/pdl.md) and the best fitting Erlang,
// general Erlang, hyperexponential and phase-type distributions, each as a PDL line ready to
// paste, best first.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace fitting {

// The report for one data file on `out`, its diagnostics on `err` (messages start with
// `command`, e.g. "pdl-fit: error: ..."). Returns 0, or 2 for a file that cannot be read or
// holds bad data.
int fit_report(const std::string& file, std::string_view command, std::ostream& out, std::ostream& err);

// The whole command on argv (argv[0] is the command's name as it is shown in the help, e.g.
// "pdl-scale fit"): its options, the report on `out` and diagnostics on `err`, and the exit
// status (0; 2 for bad usage or input).
int fit_main(std::string_view command, int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace fitting
