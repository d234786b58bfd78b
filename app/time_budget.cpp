#include "app/time_budget.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/cost.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/solves_cost.hpp"

namespace app {

bool shows_progress(const TimeBudget& budget, bool terminal) { return (terminal && !budget.quiet) || budget.progress; }

std::string limit_text(double seconds) {
  if (seconds >= 3600.0 && std::fmod(seconds, 3600.0) == 0.0) return fmt::format("{:g} h", seconds / 3600.0);
  if (seconds >= 60.0 && std::fmod(seconds, 60.0) == 0.0) return fmt::format("{:g} min", seconds / 60.0);
  return fmt::format("{:g} s", seconds);
}

// The run's estimated wall time against --time-limit: false (with the message, exit 2) when
// over it without --allow-long; said on stderr once when long and stderr is a terminal; kept in
// `estimated_seconds` for the report.
bool within_time_limit(const TimeBudget& budget, const std::vector<analysis::Case>& cases,
                       const analysis::Request& request, std::ostream& err, bool terminal,
                       std::optional<double>& estimated_seconds, std::optional<analysis::StudyPlan>& plan) {
  const bool announce = shows_progress(budget, terminal);
  auto planned = analysis::plan_study(cases, request, analysis::PlanLimits{analysis::kEstimatePlanSeconds});
  if (!planned.ok()) return true;  // a model cannot be built: the study says why
  const auto cost = analysis::estimate_cost(*planned.value, cases, request);
  if (!cost) return true;
  // The run reads the plan the estimate read; on several ranks it plans again, shared out (a
  // plan limited in time is this rank's alone).
  if (request.communicator == nullptr || request.communicator->alone()) plan = std::move(planned.value);
  estimated_seconds = cost->seconds;
  // Up to three, each at least a twentieth of the whole: smaller parts are timed pilots' noise,
  // which would change the message from run to run.
  std::string largest;
  for (std::size_t k = 0; k < cost->parts.size() && k < 3; ++k) {
    if (k > 0 && cost->parts[k].seconds < 0.05 * cost->seconds) break;
    largest += (k == 0 ? "" : "; ") + analysis::describe(cost->parts[k]);
  }
  const std::string bound = !cost->complete         ? " at least (building the models alone, extrapolated)"
                            : cost->states_at_limit ? " (at most: some state spaces counted at --max-states)"
                                                    : "";
  const bool monte_carlo = std::any_of(cost->parts.begin(), cost->parts.end(),
                                       [](const analysis::CostPart& part) { return part.method == "mc"; });
  if (cost->seconds > budget.limit_seconds && !budget.allow_long) {
    err << fmt::format(
        "pdl-scale: error: this analysis would take {}{} (estimated for {} distinct models on the "
        "reference machine of docs/performance.md), more than the limit of {}; the largest parts: "
        "{}. Give --allow-long to run it anyway, or --time-limit to raise the limit; fewer processor "
        "counts (--p) or methods (--method){} make it shorter\n",
        analysis::duration_text(cost->seconds), bound, cost->models, limit_text(budget.limit_seconds), largest,
        monte_carlo ? ", or fewer Monte Carlo samples (--samples N, or a larger --precision)," : "");
    return false;
  }
  if (announce && (cost->seconds > kAnnounceEstimateSeconds || budget.progress)) {
    err << fmt::format("pdl-scale: this analysis will take {}{} (estimated; largest part: {})\n",
                       analysis::duration_text(cost->seconds), bound,
                       cost->parts.empty() ? std::string("none") : analysis::describe(cost->parts.front()));
  }
  return true;
}

// A search's evaluations (analysis/solves_cost.hpp) against --time-limit: false with the message
// (exit 2) when over it without --allow-long; said on stderr when long and shown, or with
// --progress.
bool search_within_time_limit(const TimeBudget& budget, const std::vector<analysis::MachineInput>& machines,
                              const analysis::Request& request, const std::string& variable, double evaluations,
                              std::ostream& err, bool terminal) {
  const auto cost =
      analysis::estimate_search(machines, request.processors, variable, analysis::IsoefficiencyOptions{}.min_size,
                                evaluations, request.solver_options.series_parallel);
  if (!cost.ok()) return true;
  const double seconds = analysis::agreed_seconds(cost.value->seconds, request.communicator);  // timed
  const std::string parts = fmt::format(
      "{:.0f} (machine, p) searched, at most {:.0f} evaluations each, timed at the machines' values; larger sizes "
      "may cost more",
      static_cast<double>(cost.value->settings), evaluations);
  if (seconds > budget.limit_seconds && !budget.allow_long) {
    err << fmt::format(
        "pdl-scale: error: this search would take {} (estimated: {}), more than the limit of {}. Give "
        "--allow-long to run it anyway, or --time-limit to raise the limit; fewer processor counts (--p) or a "
        "smaller --iso-max make it shorter\n",
        analysis::duration_text(seconds), parts, limit_text(budget.limit_seconds));
    return false;
  }
  if (shows_progress(budget, terminal) && (seconds > kAnnounceEstimateSeconds || budget.progress)) {
    err << fmt::format("pdl-scale: this search will take {} (estimated: {})\n", analysis::duration_text(seconds),
                       parts);
  }
  return true;
}

}  // namespace app
