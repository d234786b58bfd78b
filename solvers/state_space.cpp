#include "solvers/state_space.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "distributions/distribution.hpp"
#include "solvers/state_space_estimate.hpp"
#include "solvers/state_space_model.hpp"
#include "solvers/state_space_packed_states.hpp"
#include "solvers/state_space_sweep.hpp"
#include "solvers/state_space_uniformisation.hpp"

namespace solvers {

using state_space_detail::bytes_text;
using state_space_detail::CompiledGraph;
using state_space_detail::distribution_from_jumps;
using state_space_detail::estimate_model;
using state_space_detail::jumps_for;
using state_space_detail::kMostWords;
using state_space_detail::Payload;
using state_space_detail::sweep;
using state_space_detail::SweepOutcome;
using state_space_detail::SweepSettings;

bool StateSpaceOptions::IsValid(std::string* why) const {
  auto fail = [&](const std::string& message) {
    if (why != nullptr) *why = message;
    return false;
  };
  if (memory_budget_bytes < (std::uint64_t{1} << 20)) {
    return fail("memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes));
  }
  if (max_states < 0) return fail("max_states must be >= 0 (0: no limit), got " + std::to_string(max_states));
  if (!(estimate_stop_states >= 0.0)) return fail("estimate_stop_states must be >= 0 (0: none)");
  if (distribution_points < 16 || distribution_points > (1 << 20)) {
    return fail("distribution_points must be in [16, 1048576], got " + std::to_string(distribution_points));
  }
  if (threads < 0) return fail("threads must be >= 0 (0: all cores), got " + std::to_string(threads));
  if (!(fit_cv2_tolerance > 0.0 && fit_cv2_tolerance <= 1.0)) {
    return fail("fit_cv2_tolerance must be in (0, 1], got " + std::to_string(fit_cv2_tolerance));
  }
  if (fit_cv2_tolerance < 1.0 / 4096) return fail("fit_cv2_tolerance must be >= 1/4096 (at most 4096 fitted phases)");
  return true;
}

StateSpaceTooLarge::StateSpaceTooLarge(const std::string& message, StateSpaceEstimate estimate)
    : std::runtime_error(message), estimate_(estimate) {}

namespace {

void refuse_if_too_large(const StateSpaceEstimate& e, const StateSpaceOptions& options) {
  const bool over_memory = e.rank_bytes > static_cast<double>(options.memory_budget_bytes);
  const bool over_states = options.max_states > 0 && e.states > static_cast<double>(options.max_states);
  if (!over_memory && !over_states) return;
  const std::string budget = bytes_text(static_cast<double>(options.memory_budget_bytes));
  std::string why = !over_memory   ? "max_states = " + std::to_string(options.max_states)
                    : e.ranks == 1 ? "needs " + bytes_text(e.bytes) + ", budget " + budget
                                   : "needs " + bytes_text(e.rank_bytes) + " on a rank of " + std::to_string(e.ranks) +
                                         ", budget " + budget + " per rank";
  throw StateSpaceTooLarge(
      "state space too large: " + e.BriefReport() + "; " + why + "; use bounds or Monte Carlo instead", e);
}

Result refused(std::string explanation) {
  Result result;
  result.method = Method::StateSpace;
  Unsolved& refusal = result.unsolved.emplace();
  refusal.reason = Unsolved::Reason::NotSupported;
  refusal.explanation = std::move(explanation);
  return result;
}

// Empty when the sweep may solve m; otherwise why it is refused.
std::string why_not_swept(const CompiledGraph& m, const StateSpaceOptions& options) {
  if (m.fitted_tasks > 0 && !options.fit_non_phase_type) {
    return "state space: not every task is of phase type (" + m.fit_detail +
           "); it would give the mean of that fitted model, not of this one";
  }
  // The packed encoding is checked before the size: a graph whose state needs more bits than
  // the encoding holds is refused for that reason, not with an estimate of its memory.
  if (m.words > kMostWords) {
    return "state space: a state of this graph needs " + std::to_string(m.key_bits) + " bits (" +
           std::to_string(m.chains.size()) + " chains of tasks, each with its progress and phase), more than the " +
           std::to_string(64 * kMostWords) + " bits of the state encoding; bounds and mc apply at any size";
  }
  return {};
}

// The model the sweep explores, or why it cannot take the graph (worded as the solve refuses
// it): the estimate and the solve both start here, so that they refuse the same graphs alike.
pdl_scale::Outcome<CompiledGraph, StateSpaceUnsupported> compile_for_sweep(const graph::TaskGraph& graph,
                                                                           const StateSpaceOptions& options) {
  pdl_scale::Outcome<CompiledGraph, StateSpaceUnsupported> compiled;
  try {
    compiled.value.emplace(state_space_detail::compile(graph, options.fit_cv2_tolerance));
  } catch (const state_space_detail::UnusableRuntime& unusable) {
    compiled.failure = StateSpaceUnsupported{unusable.what()};
    return compiled;
  }
  if (std::string why_not = why_not_swept(*compiled.value, options); !why_not.empty()) {
    compiled.value.reset();
    compiled.failure = StateSpaceUnsupported{std::move(why_not)};
  }
  return compiled;
}

// The first sweep: the mean, and the first two moments when the distribution is kept.
SweepSettings first_sweep_settings(const StateSpaceOptions& options) {
  SweepSettings settings;
  settings.budget = options.memory_budget_bytes;
  settings.max_states = options.max_states;
  settings.threads = options.threads;
  if (options.communicator != nullptr && !options.communicator->alone()) settings.communicator = options.communicator;
  settings.payload = options.keep_distribution ? Payload::Moments : Payload::None;
  settings.width = options.keep_distribution ? 2 : 0;
  return settings;
}

// Sets result.distribution, for a graph of tasks by a second sweep, uniformised, whose width
// the first sweep's mean and variance size; returns the note on it for result.detail.
std::string add_distribution(const CompiledGraph& m, const StateSpaceOptions& options, const SweepOutcome& first,
                             SweepSettings settings, const ProgressFunction& progress, double first_share,
                             Result& result) {
  if (m.law_of.empty()) {
    result.distribution = distributions::deterministic(0.0);
    return {};
  }
  const double variance = std::max(0.0, first.end_payload[1] - first.mean * first.mean);
  const double sd = std::sqrt(variance);
  settings.payload = Payload::Uniformised;
  settings.uniform_rate = m.largest_total_rate;
  settings.width = jumps_for(settings.uniform_rate, first.mean + 12.0 * sd);
  StateSpaceEstimate second = estimate_model(m, options, settings.width);
  refuse_if_too_large(second, options);
  const ProgressFunction second_part = progress_part(progress, first_share, 1.0);
  const SweepOutcome jumps = sweep(m, settings, second, second_part);
  double beyond = 0.0;
  result.distribution = distribution_from_jumps(jumps.end_payload, settings.uniform_rate, first.mean + 8.0 * sd,
                                                options.distribution_points, &beyond);
  char buffer[160];
  std::snprintf(buffer, sizeof buffer,
                "; distribution by uniformisation (%zu jumps, %d points, mass beyond %.2g: %.1e)", settings.width,
                options.distribution_points, first.mean + 8.0 * sd, beyond);
  return buffer;
}

// The bounds and the detail of a result whose mean is set.
void describe_result(const CompiledGraph& m, const std::string& distribution_note, Result& result) {
  const std::string states_text = std::to_string(result.statistics.states) + " states";
  if (m.fitted_tasks == 0) {
    result.lower = result.upper = result.mean;
    result.detail = "state space: exact, " + states_text + distribution_note;
  } else {
    result.lower = std::min(m.critical_path_of_means, result.mean);
    result.upper = m.fitted_only_deterministic ? result.mean : std::numeric_limits<double>::infinity();
    result.detail =
        "state space: mean of a fitted model, " + states_text + "; " + m.fit_detail +
        (m.fitted_only_deterministic ? "; an upper bound (deterministic tasks replaced by Erlangs of the same mean)"
                                     : "; not a bound") +
        distribution_note;
  }
}

}  // namespace

pdl_scale::Outcome<StateSpaceEstimate, StateSpaceUnsupported> estimate_state_count(const graph::TaskGraph& graph,
                                                                                   const StateSpaceOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("state-space options: " + why);
  auto compiled = compile_for_sweep(graph, options);
  if (!compiled.ok()) return {std::nullopt, std::move(compiled.failure)};
  const CompiledGraph& m = *compiled.value;
  const std::size_t width =
      options.keep_distribution ? jumps_for(m.largest_total_rate, 3.0 * m.critical_path_of_means) : 0;
  return {estimate_model(m, options, width), std::nullopt};
}

Result solve_state_space(const graph::TaskGraph& graph, const StateSpaceOptions& options,
                         const ProgressFunction& progress) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("state-space options: " + why);
  const auto start = std::chrono::steady_clock::now();
  auto compiled = compile_for_sweep(graph, options);
  if (!compiled.ok()) return refused(std::move(compiled.failure->reason));
  const CompiledGraph& m = *compiled.value;
  // A first guess of the uniformisation width (the second pass checks again with the real one).
  const std::size_t guessed_width =
      options.keep_distribution ? jumps_for(m.largest_total_rate, 3.0 * m.critical_path_of_means) : 0;
  const StateSpaceEstimate estimate = estimate_model(m, options, guessed_width);
  refuse_if_too_large(estimate, options);

  Result result;
  result.method = Method::StateSpace;
  const SweepSettings settings = first_sweep_settings(options);
  const double first_share = options.keep_distribution ? 0.5 : 1.0;
  const ProgressFunction first_part = progress_part(progress, 0.0, first_share);
  SweepOutcome first =
      m.law_of.empty() ? SweepOutcome{0.0, 1.0, {0.0, 0.0}, 1, 0.0} : sweep(m, settings, estimate, first_part);
  if (std::abs(first.absorbed - 1.0) > 1e-6) {
    throw std::logic_error("state space: the end is reached with probability " + std::to_string(first.absorbed));
  }
  result.mean = first.mean;
  result.statistics.states = first.states;
  std::string distribution_note;
  if (options.keep_distribution) {
    distribution_note = add_distribution(m, options, first, settings, progress, first_share, result);
  }
  describe_result(m, distribution_note, result);
  result.statistics.represented_tasks = static_cast<std::int64_t>(graph.node_count());
  if (result.distribution)
    result.statistics.grid_points = static_cast<std::int64_t>(distributions::grid_size(*result.distribution));
  result.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Result solve_state_space(std::span<const WeightedGraph> scenarios, const StateSpaceOptions& options,
                         const ProgressFunction& progress) {
  if (scenarios.empty()) throw std::invalid_argument("state space: no scenario");
  double total = 0.0;
  for (const WeightedGraph& s : scenarios) {
    if (s.graph == nullptr || !(s.probability >= 0.0)) {
      throw std::invalid_argument("state space: every scenario needs a graph and a probability >= 0");
    }
    total += s.probability;
  }
  if (std::abs(total - 1.0) > 1e-9) {
    throw std::invalid_argument("state space: scenario probabilities sum to " + std::to_string(total) + ", not 1");
  }
  const auto start = std::chrono::steady_clock::now();
  Result out;
  out.method = Method::StateSpace;
  std::vector<double> weights;
  std::vector<distributions::Distribution> parts;
  bool exact = true;
  const auto shares = static_cast<double>(scenarios.size());
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const WeightedGraph& s = scenarios[i];
    const ProgressFunction part =
        progress_part(progress, static_cast<double>(i) / shares, static_cast<double>(i + 1) / shares);
    const Result r = solve_state_space(*s.graph, options, part);
    if (!r.solved()) return r;
    out.mean += s.probability * r.mean;
    out.lower += s.probability * r.lower;
    out.upper =
        r.upper == std::numeric_limits<double>::infinity() || out.upper == std::numeric_limits<double>::infinity()
            ? std::numeric_limits<double>::infinity()
            : out.upper + s.probability * r.upper;
    out.statistics.states += r.statistics.states;
    out.statistics.represented_tasks += r.statistics.represented_tasks;
    exact = exact && r.lower == r.upper;
    if (r.distribution) {
      weights.push_back(s.probability);
      parts.push_back(*r.distribution);
    }
    if (scenarios.size() == 1)
      out.detail = r.detail;
    else if (!exact && out.detail.empty())
      out.detail = r.detail;
  }
  if (scenarios.size() > 1) {
    const std::string summary =
        std::to_string(scenarios.size()) + " scenarios, " + std::to_string(out.statistics.states) + " states";
    out.detail = exact ? "state space: exact, " + summary : summary + "; " + out.detail;
  }
  if (exact) out.lower = out.upper = out.mean;
  if (!parts.empty()) out.distribution = parts.size() == 1 ? parts.front() : distributions::mixture(weights, parts);
  out.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace solvers
