// Monte Carlo simulation of the exact model (every scenario, dynamic pools too) as a Solver.
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <span>
#include <stdexcept>

#include "solvers/reference_costs.hpp"
#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

// One sample of the mixture at the reference costs of a task drawn and of a pool's task
// scheduled, the scenarios weighted by their probabilities.
double seconds_per_sample(std::span<const WeightedGraph> mixture) {
  double seconds = 0.0;
  for (const WeightedGraph& scenario : mixture) {
    double cost = 0.0;
    for (graph::NodeId v = 0; v < scenario.graph->node_count(); ++v) {
      const graph::TaskNode& node = scenario.graph->node(v);
      cost += node.kind == graph::NodeKind::DynamicPool
                  ? kSecondsPerPoolTaskSample * static_cast<double>(std::max<std::int64_t>(1, node.pool_tasks))
                  : kSecondsPerTaskSample;
    }
    seconds += scenario.probability * cost;
  }
  return seconds;
}

class MonteCarloSolver final : public Solver {
 public:
  explicit MonteCarloSolver(MonteCarloOptions options) : options_(std::move(options)) {
    options_.threads = 0;  // within the caller's arena
  }
  const SolverInfo& info() const override { return monte_carlo_info(); }
  // Fewer workers run when their scratch would not fit, so the plan is at most the budget.
  MemoryPlan plan_memory(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("Monte Carlo solver: no exact model");
    const auto budget = static_cast<double>(options_.memory_budget_bytes);
    MemoryPlan plan;
    plan.bytes = estimate_monte_carlo_memory(models.exact, options_, tbb::this_task_arena::max_concurrency());
    if (estimate_monte_carlo_memory(models.exact, options_, 0) > budget) {
      plan.refusal = over_budget(MemoryBudgetExceeded("Monte Carlo: the compiled task graph", plan.bytes, budget),
                                 largest_graph(models.exact));
    }
    plan.bytes = std::min(plan.bytes, budget);
    return plan;
  }
  // The samples `seconds` pay for at the reference costs of a task drawn and of a pool's task
  // scheduled, the scenarios weighted by their probabilities: in precision mode the precision
  // rule stops there at the latest (with a note giving the width reached), so at least its
  // first round must fit; a fixed sample count must fit whole.
  std::unique_ptr<Solver> within_seconds(const ScaledModels& models, double seconds) const override {
    if (models.exact.empty()) return nullptr;
    const double affordable = std::floor(seconds / std::max(kSecondsPerTaskSample, seconds_per_sample(models.exact)));
    MonteCarloOptions tuned = options_;
    if (tuned.relative_precision > 0.0) {
      if (affordable < static_cast<double>(tuned.min_samples)) return nullptr;
      // Compared as doubles: a budget of years pays for more samples than an int64 holds.
      if (affordable < static_cast<double>(tuned.max_samples))
        tuned.max_samples = static_cast<std::int64_t>(affordable);
    } else if (affordable < static_cast<double>(tuned.samples)) {
      return nullptr;
    }
    return std::make_unique<MonteCarloSolver>(std::move(tuned));
  }
  // Every task drawn in every sample (a pool's tasks are not told apart from the sizes).
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override {
    return {.seconds = costs.task_sample * sizes.tasks * expected_samples()};
  }
  // As within_seconds decides: the samples the budget pays for, if they are enough to start.
  std::optional<double> cost_within(const ModelSizes& sizes, const UnitCosts& costs, double seconds) const override {
    const double per_sample = costs.task_sample * sizes.tasks;
    const double needed =
        static_cast<double>(options_.relative_precision > 0.0 ? options_.min_samples : options_.samples);
    if (per_sample * needed > seconds) return std::nullopt;
    return std::min(seconds, per_sample * expected_samples());
  }
  // A pilot of the built models: under --precision its spread gives the samples the precision
  // rule needs (a heavy-tailed program can need 10^4 times those of kAssumedMakespanCv). With
  // costs.time_pilots the pilot runs twice, N and 4N samples on one thread, and their difference
  // gives the seconds per sample of this compiled graph, quantiles included, and the rest the
  // solve's fixed part (compiling, scratch); else a sample counts its tasks drawn (a dynamic
  // pool's tasks each scheduled, which the sizes do not tell).
  SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const override {
    if (models.exact.empty()) return cost(sizes, costs);
    const double to_costs = costs.task_sample / kSecondsPerTaskSample;
    const bool fixed = options_.relative_precision == 0.0;
    if (fixed && !costs.time_pilots)
      return {.seconds = seconds_per_sample(models.exact) * to_costs * static_cast<double>(options_.samples)};
    MonteCarloOptions options = pilot_options(sizes);
    const auto first_samples = static_cast<double>(options.samples);
    const TimedPilot first = timed_pilot(models.exact, options);
    TimedPilot pilot = first;
    double per_sample = seconds_per_sample(models.exact) * to_costs, fixed_part = 0.0;
    if (costs.time_pilots) {
      options.samples *= 4;
      pilot = timed_pilot(models.exact, options);
      const double difference = (pilot.seconds - first.seconds) / (3.0 * first_samples);
      per_sample = (difference > 0.0 ? difference : pilot.seconds / (4.0 * first_samples)) * to_costs;
      fixed_part = std::max(0.0, first.seconds * to_costs - first_samples * per_sample);
    }
    if (!pilot.result.solved() || !(pilot.result.mean > 0.0)) return cost(sizes, costs);
    if (fixed) return {.seconds = fixed_part + per_sample * static_cast<double>(options_.samples)};
    const Result& result = pilot.result;
    const double half_width = (result.upper - result.lower) / 2.0;
    const double cv = half_width * std::sqrt(static_cast<double>(result.statistics.samples)) / (kZ95 * result.mean);
    const double needed = std::pow(kZ95 * cv / options_.relative_precision, 2.0);
    return {.seconds = fixed_part + per_sample * std::clamp(needed, static_cast<double>(options_.min_samples),
                                                            static_cast<double>(options_.max_samples))};
  }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("Monte Carlo solver: no exact model");
    try {
      return solve_monte_carlo(models.exact, options_, nullptr, models.report_progress);
    } catch (const MemoryBudgetExceeded& over) {
      return refused(Method::MonteCarlo, over_budget(over, largest_graph(models.exact)));
    }
  }

 private:
  // In precision mode the sample count depends on the makespan's spread, unknown before the
  // run: the estimate assumes a coefficient of variation of kAssumedMakespanCv, within
  // [min_samples, max_samples].
  double expected_samples() const {
    if (options_.relative_precision == 0.0) return static_cast<double>(options_.samples);
    const double wanted = std::pow(kZ95 * kAssumedMakespanCv / options_.relative_precision, 2.0);
    return std::clamp(wanted, static_cast<double>(options_.min_samples), static_cast<double>(options_.max_samples));
  }

  // A pilot of about kPilotTaskSamples task samples, within [kMinPilotSamples,
  // kMaxPilotSamples]: a few milliseconds, enough to tell a spread of 1% from one of 30%, and
  // for a small graph enough samples that their time stands out of the solve's fixed part.
  MonteCarloOptions pilot_options(const ModelSizes& sizes) const {
    constexpr double kPilotTaskSamples = 1e6;
    constexpr double kMinPilotSamples = 4 * kMonteCarloBlock;
    constexpr double kMaxPilotSamples = 256 * kMonteCarloBlock;
    MonteCarloOptions pilot = options_;
    pilot.relative_precision = 0.0;  // the quantiles stay: they cost as much per sample as the rest
    const double samples =
        std::clamp(kPilotTaskSamples / std::max(1.0, sizes.tasks), kMinPilotSamples, kMaxPilotSamples);
    pilot.samples = static_cast<std::int64_t>(samples / kMonteCarloBlock) * kMonteCarloBlock;
    return pilot;
  }

  struct TimedPilot {
    Result result;
    double seconds = 0.0;
  };
  // The pilot on one thread: the estimate is for one free core.
  static TimedPilot timed_pilot(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options) {
    TimedPilot pilot;
    tbb::task_arena one_thread(1);
    const auto begin = std::chrono::steady_clock::now();
    one_thread.execute([&] { pilot.result = solve_monte_carlo(mixture, options, nullptr, {}); });
    pilot.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return pilot;
  }

  MonteCarloOptions options_;
};

}  // namespace

constexpr std::string_view kMonteCarloOwnOptions[] = {"samples", "precision"};

const SolverInfo& monte_carlo_info() {
  static const SolverInfo info{
      .method = Method::MonteCarlo,
      .name = "mc",
      .title = "monte carlo ± 95%",
      .interval_title = "",
      .presentation = Presentation::EstimatePlusMinus,
      .interval = IntervalKind::Confidence95,
      .needs_exact_model = true,
      .speedup_as_interval = false,
      .gives_quantiles = true,
      .prediction_rank = 3,
      .shared_by_ranks = true,
      .cost_needs_models = true,
      .own_options = kMonteCarloOwnOptions,
      .in_words = "Monte Carlo",
      .description = "Monte Carlo simulation of the exact model, with a 95% confidence interval",
  };
  return info;
}

std::unique_ptr<Solver> make_monte_carlo(const SolverOptions& options) {
  MonteCarloOptions monte_carlo = options.monte_carlo;
  monte_carlo.memory_budget_bytes = options.memory_budget_bytes;
  monte_carlo.quantiles = options.quantiles;
  return std::make_unique<MonteCarloSolver>(std::move(monte_carlo));
}

}  // namespace solvers::methods
