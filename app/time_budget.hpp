// The wall-time guard, shared by every mode that has a TimeBudget (command.hpp): the estimate
// against --time-limit (refuse or announce) and its words.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/study.hpp"
#include "analysis/study_plan.hpp"
#include "app/command.hpp"

namespace app {

// Whether the estimate and the progress are said: on a terminal unless --quiet, anywhere with
// --progress.
bool shows_progress(const TimeBudget& budget, bool terminal);

// "10 min", "1 h", "90 s": --time-limit as given.
std::string limit_text(double seconds);

// The study's estimated wall time against --time-limit (plan, then estimate: the plan the run
// then reads into `plan`, on one process): false (with the message, exit 2) when over it without
// --allow-long; said on stderr when long and shown, or with --progress; kept in
// `estimated_seconds` for the report.
bool within_time_limit(const TimeBudget& budget, const std::vector<analysis::Case>& cases,
                       const analysis::Request& request, std::ostream& err, bool terminal,
                       std::optional<double>& estimated_seconds, std::optional<analysis::StudyPlan>& plan);

// A search's evaluations (analysis/solves_cost.hpp) against --time-limit: as within_time_limit.
bool search_within_time_limit(const TimeBudget& budget, const std::vector<analysis::MachineInput>& machines,
                              const analysis::Request& request, const std::string& variable, double evaluations,
                              std::ostream& err, bool terminal);

}  // namespace app
