// The cost estimate of a study (analysis/cost.hpp), with one unit cost at a time set to 1 so
// that the estimate counts units the program's definition fixes: the neighbor program of
// `columns` columns and `iterations` iterations has columns × iterations tasks on every p, and
// p > columns processors leave the extra ones idle, so p = columns.. share one model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/cost.hpp"
#include "analysis/cost_pilots.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

std::vector<analysis::Case> neighbor(double columns, double iterations) {
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(neighbor_program());
  one.machine = std::make_shared<const models::Machine>(models::ideal_machine());
  one.environment = neighbor_environment(columns, iterations);
  one.label.machine = "ideal";
  return {one};
}

analysis::Request request_for(int pmax, std::vector<solvers::Method> methods) {
  analysis::Request request;
  request.processors.clear();
  for (int p = 1; p <= pmax; ++p) request.processors.push_back(p);
  request.methods = std::move(methods);
  return request;
}

double estimate(const std::vector<analysis::Case>& cases, const analysis::Request& request,
                const analysis::UnitCosts& costs) {
  const auto cost = analysis::estimate_cost(cases, request, costs);
  EXPECT_TRUE(cost.has_value());
  return cost ? cost->seconds : -1.0;
}

TEST(CostEstimate, CountsEachDistinctModelOnce) {
  // 10 columns: p = 1..10 are distinct, p = 11..65536 the model of p = 10.
  const auto cases = neighbor(10, 2);
  const analysis::Request request = request_for(65536, {solvers::Method::Bounds});
  analysis::UnitCosts per_model;
  per_model.bounds_model = 1.0;
  const auto cost = analysis::estimate_cost(cases, request, per_model);
  ASSERT_TRUE(cost.has_value());
  EXPECT_EQ(cost->models, 10u);
  EXPECT_DOUBLE_EQ(cost->seconds, 10.0);
  // Largest first, per power-of-two range of p: 4-7 (4 models), 8-10 (3), 2-3 (2), 1.
  ASSERT_EQ(cost->parts.size(), 4u);
  EXPECT_EQ(analysis::describe(cost->parts[0]), "bounds on p = 4-7: about 4 s");
  EXPECT_EQ(analysis::describe(cost->parts[1]), "bounds on p = 8-10: about 3 s");
  EXPECT_EQ(analysis::describe(cost->parts[3]), "bounds on p = 1: about 1 s");

  analysis::UnitCosts per_task;
  per_task.bounds_task = 1.0;
  EXPECT_DOUBLE_EQ(estimate(cases, request, per_task), 10.0 * 20.0);
}

TEST(CostEstimate, CountsTheExactModelsTheRunCompares) {
  // The 65527 counts p >= 10 share an approximate model: the run builds each one's exact model
  // to compare them, and each of the 10 distinct models once more to solve it.
  const auto cases = neighbor(10, 2);
  analysis::UnitCosts per_exact_model;
  per_exact_model.exact_model = 1.0;
  EXPECT_DOUBLE_EQ(estimate(cases, request_for(65536, {solvers::Method::Bounds}), per_exact_model), 65527.0 + 10.0);
  // Without a method on the exact model nor the prediction's own solve, only T(1)'s is built.
  analysis::Request approx_only = request_for(65536, {solvers::Method::SeriesParallel});
  approx_only.prediction.seconds_per_model = 0.0;
  EXPECT_DOUBLE_EQ(estimate(cases, approx_only, per_exact_model), 1.0);
  // The prediction's own solve needs the exact models as bounds do.
  approx_only.prediction.seconds_per_model = 0.25;
  EXPECT_DOUBLE_EQ(estimate(cases, approx_only, per_exact_model), 65527.0 + 10.0);
}

TEST(CostEstimate, CountsThePredictionsOwnSolveAtMostItsBudget) {
  // The state space at its limit (2·10^7 states at 1 s each) does not fit the budget of 0.25 s;
  // Monte Carlo of the 20-task models at 10 µs per task drawn does start (its first 1000 samples
  // take 0.2 s) but would take longer: each of the 9 distinct models above p = 1 counts the
  // budget, 0.25 s (p = 4-7 the most).
  const auto cases = neighbor(10, 2);
  analysis::UnitCosts per_sample;
  per_sample.task_sample = 1e-5;
  per_sample.state = 1.0;
  analysis::Request request = request_for(64, {solvers::Method::SeriesParallel, solvers::Method::Bounds});
  const auto cost = analysis::estimate_cost(cases, request, per_sample);
  ASSERT_TRUE(cost);
  EXPECT_DOUBLE_EQ(cost->seconds, 9 * 0.25);
  EXPECT_EQ(analysis::describe(cost->parts.front()), "the prediction's own solve on p = 4-7: about 1 s");
  // At 1 s per task drawn not even the first samples fit: Monte Carlo refuses the budget, and
  // the prediction solves nothing of its own.
  per_sample.task_sample = 1.0;
  EXPECT_DOUBLE_EQ(analysis::estimate_cost(cases, request, per_sample)->seconds, 0.0);
  // With mc asked for and the state space beyond the budget, the prediction solves nothing of
  // its own either (Monte Carlo's cost is mc's).
  request.methods.push_back(solvers::Method::MonteCarlo);
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 1;
  EXPECT_DOUBLE_EQ(analysis::estimate_cost(cases, request, per_sample)->seconds, 20.0 * 10);
}

TEST(CostEstimate, MonteCarloCountsTaskSamples) {
  const auto cases = neighbor(10, 2);
  analysis::Request request = request_for(16, {solvers::Method::MonteCarlo});
  analysis::UnitCosts per_sample;
  per_sample.task_sample = 1.0;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 1000;
  EXPECT_DOUBLE_EQ(estimate(cases, request, per_sample), 1000.0 * 20.0 * 10.0);
}

// Under --precision the estimate counts the samples a pilot's spread says the precision rule
// needs: within 2x (either way) of those the solve then draws, on the neighbour program and on
// a heavy-tailed farm whose spread is 10 times the assumed one.
void expect_samples_within_twice(const std::vector<analysis::Case>& cases, int p, double precision) {
  analysis::Request request = request_for(1, {solvers::Method::MonteCarlo});
  request.processors = {p};
  request.prediction.seconds_per_model = 0.0;
  analysis::UnitCosts per_sample;
  per_sample.task_sample = 1.0;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 1000;
  const double thousand = estimate(cases, request, per_sample);
  request.solver_options.monte_carlo.relative_precision = precision;
  const double estimated_samples = 1000.0 * estimate(cases, request, per_sample) / thousand;
  const auto study = analysis::run_study(cases, request);
  ASSERT_TRUE(study.ok());
  const auto drawn = static_cast<double>(study.value->at(0, p, solvers::Method::MonteCarlo).result.statistics.samples);
  EXPECT_GT(drawn, 0.0);
  EXPECT_LE(estimated_samples, 2.0 * drawn) << "p = " << p;
  EXPECT_GE(estimated_samples, 0.5 * drawn) << "p = " << p;
}

TEST(CostEstimate, MonteCarloCountsTheSamplesItsPrecisionNeeds) {
  for (int p : {2, 5, 10}) expect_samples_within_twice(neighbor(10, 2), p, 1e-3);
  const std::string farm =
      "PROGRAM NAME IS 'farm'; EXECUTION PATTERN IS work; VARIABLE n = 256;\n"
      "WORK PHASE work IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS HYPEREXPONENTIAL(0.945, 1000*RTFactor, 0.05, 40000*RTFactor, 0.005, 400000*RTFactor);\n"
      "  PROBLEM SIZE IS VECTOR jobs(n); SCHEDULING IS DYNAMIC; END;\n";
  const std::vector<analysis::Case> farm_case{test_support::case_of(farm, "MACHINE NAME IS 'ideal';", {})};
  for (int p : {1, 4, 16}) expect_samples_within_twice(farm_case, p, 1e-2);
}

// The series-parallel reduction works on grids only where a leaf below is random: a program of
// deterministic tasks reduces in closed form and costs no grid point; the neighbour program's
// Erlang tasks make every inner node random.
TEST(CostEstimate, TheReductionCountsGridsOnlyAboveRandomLeaves) {
  analysis::Request request = request_for(4, {solvers::Method::SeriesParallel});
  request.prediction.seconds_per_model = 0.0;
  analysis::UnitCosts per_point;
  per_point.reduction_node_point = 1.0;
  const std::string deterministic =
      "PROGRAM NAME IS 'steps'; EXECUTION PATTERN IS (step){4}; VARIABLE n = 64;\n"
      "WORK PHASE step IS: PARALLELIZATION SCHEME IS NEIGHBOR; SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR cells(n); COMMUNICATION VOLUME IS 8; END;\n"
      "CONCATENATION IS step, step : NEIGHBOR; END;\n";
  EXPECT_DOUBLE_EQ(estimate({test_support::case_of(deterministic, "MACHINE NAME IS 'ideal';", {})}, request, per_point),
                   0.0);
  EXPECT_GT(estimate(neighbor(10, 2), request, per_point), 0.0);
}

TEST(CostEstimate, MethodsOnTheExactModelCostNothingBeyondTheTaskLimit) {
  const auto cases = neighbor(10, 2);
  analysis::Request request = request_for(16, {solvers::Method::Bounds, solvers::Method::MonteCarlo});
  request.max_exact_tasks = 19;  // the 20 tasks are over it: the run refuses them at once
  analysis::UnitCosts costs;
  costs.bounds_model = 1.0;
  costs.task_sample = 1.0;
  costs.exact_model = 1.0;
  EXPECT_DOUBLE_EQ(estimate(cases, request, costs), 0.0);
}

TEST(CostEstimate, StateSpacesByTheirSizeOrTheirRefusal) {
  // p = 1 is a chain of 20 Erlang(8) tasks: 20 x 8 states and the absorbing one. p = 2 has
  // two running at once, more than the limit of 200: refused, as every larger p is taken to be.
  const auto cases = neighbor(10, 2);
  analysis::Request request = request_for(16, {solvers::Method::StateSpace});
  request.solver_options.state_space.max_states = 200;
  analysis::UnitCosts costs;
  costs.state = 1.0;
  costs.state_estimate = 1000.0;
  const auto cost = analysis::estimate_cost(cases, request, costs);
  ASSERT_TRUE(cost.has_value());
  EXPECT_DOUBLE_EQ(cost->seconds, 161.0 + 9.0 * 1000.0);
  EXPECT_FALSE(cost->states_at_limit);
}

// The pilots the estimate's time allows span the sweep: p = 1, the largest, then the middle of
// each gap in log p, the widest first; two programs take turns.
TEST(CostEstimate, PilotsSpanTheSweep) {
  using analysis::cost_detail::PilotModel;
  std::vector<PilotModel> models;
  for (int p = 1; p <= 16; ++p) models.push_back({.case_index = 0, .p = p});
  const std::vector<std::size_t> order = analysis::cost_detail::pilot_order(models);
  std::vector<int> ps;
  for (std::size_t k : order) ps.push_back(models[k].p);
  ASSERT_EQ(ps.size(), 16u);
  EXPECT_EQ(std::vector<int>(ps.begin(), ps.begin() + 5), (std::vector<int>{1, 16, 4, 2, 8}));
  std::vector<int> sorted = ps;
  std::sort(sorted.begin(), sorted.end());
  for (int p = 1; p <= 16; ++p) EXPECT_EQ(sorted[static_cast<std::size_t>(p - 1)], p);

  std::vector<PilotModel> two;
  for (int p : {1, 2, 64, 4096}) {
    two.push_back({.case_index = 0, .p = p});
    two.push_back({.case_index = 1, .p = p});
  }
  std::sort(two.begin(), two.end(), [](const PilotModel& a, const PilotModel& b) {
    return std::pair(a.case_index, a.p) < std::pair(b.case_index, b.p);
  });
  std::vector<std::pair<std::size_t, int>> taken;
  for (std::size_t k : analysis::cost_detail::pilot_order(two)) taken.emplace_back(two[k].case_index, two[k].p);
  const std::vector<std::pair<std::size_t, int>> expected{{0, 1},  {1, 1},  {0, 4096}, {1, 4096},
                                                          {0, 64}, {1, 64}, {0, 2},    {1, 2}};
  EXPECT_EQ(taken, expected);
}

TEST(CostEstimate, Durations) {
  EXPECT_EQ(analysis::duration_text(0.5), "under 1 s");
  EXPECT_EQ(analysis::duration_text(40.0), "about 40 s");
  EXPECT_EQ(analysis::duration_text(14.2 * 60.0), "about 14 min");
  EXPECT_EQ(analysis::duration_text(3.0 * 3600.0), "about 3.0 h");
}

}  // namespace

// p = 1 not listed is only the base of the speedups: its one-processor model is a chain, so
// the study runs no method there (Study.AnUnlistedOneProcessorChainRunsNoMethod) and the
// estimate counts none, with the pilots' timing and without.
TEST(CostEstimate, AnUnlistedOneProcessorChainCountsNoMethod) {
  const auto mc_at_one = [](std::vector<int> processors, const analysis::UnitCosts& costs) {
    analysis::Request request = test_support::request_for(std::move(processors), {solvers::Method::MonteCarlo});
    request.solver_options.monte_carlo.relative_precision = 0.0;
    request.solver_options.monte_carlo.samples = 1000;
    const auto cost = analysis::estimate_cost(neighbor(10, 2), request, costs);
    EXPECT_TRUE(cost.has_value());
    double seconds = 0.0;
    for (const analysis::CostPart& part : cost ? cost->parts : std::vector<analysis::CostPart>{}) {
      if (part.method == "mc" && part.p_low == 1) seconds += part.seconds;
    }
    return seconds;
  };
  analysis::UnitCosts untimed = analysis::reference_costs();
  untimed.time_pilots = false;  // p = 1's exact model is then not built: taken for a chain
  for (const analysis::UnitCosts& costs : {untimed, analysis::reference_costs()}) {
    EXPECT_EQ(mc_at_one({4}, costs), 0.0);
    EXPECT_GT(mc_at_one({1, 4}, costs), 0.0);
  }
}
