// The exact scaled models: structure (the paper's Figure 13, processor orders, neighbour and
// communication nodes), the paper's Table 1 and Kleinöder's bound against the approximate
// model, both through Monte Carlo.
#include "scaling/exact_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "solvers/monte_carlo.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

using models::Expr;

const graph::TaskGraph& only_graph(const scaling::ExactModel& model) {
  EXPECT_EQ(model.scenarios.size(), 1u);
  return model.scenarios.front().graph;
}

// Column of a task of the neighbour example, from its label "w u<c> s<i>".
int column_of(const graph::TaskNode& node) { return std::stoi(node.label.substr(node.label.find(" u") + 2)); }

TEST(ExactModel, PaperFigure13TwoProcessorsDependOnlyBetweenColumns5And6) {
  const auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(),
                                          environment({{"columns", 10.0}, {"iterations", 2.0}}), 2);
  const graph::TaskGraph& g = only_graph(model);
  EXPECT_EQ(g.node_count(), 20u);
  // 9 processor-order arcs per processor, and the two neighbour arcs across the boundary.
  EXPECT_EQ(g.arc_count(), 20u);
  std::set<std::pair<int, int>> crossing;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    EXPECT_EQ(g.node(v).kind, graph::NodeKind::Task);
    EXPECT_EQ(g.node(v).processor, column_of(g.node(v)) < 5 ? 0 : 1);
    for (graph::NodeId w : g.successors(v)) {
      if (g.node(v).processor != g.node(w).processor) {
        crossing.insert({column_of(g.node(v)) + 1, column_of(g.node(w)) + 1});  // 1-based, as the paper
        EXPECT_EQ(g.node(v).step, 0);
        EXPECT_EQ(g.node(w).step, 1);
      }
    }
  }
  EXPECT_EQ(crossing, (std::set<std::pair<int, int>>{{5, 6}, {6, 5}}));
}

TEST(ExactModel, ProcessorsRunTheirBlocksLeftToRightEveryIteration) {
  const int p = 3, columns = 10, iterations = 3;
  const auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(),
                                          environment({{"columns", columns}, {"iterations", iterations}}), p);
  const graph::TaskGraph& g = only_graph(model);
  ASSERT_EQ(g.node_count(), static_cast<std::size_t>(columns * iterations));
  // Blocks 4, 3, 3: the first columns mod p processors take one more.
  const int first[4] = {0, 4, 7, 10};
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    const graph::TaskNode& node = g.node(v);
    const int c = column_of(node);
    EXPECT_GE(c, first[node.processor]);
    EXPECT_LT(c, first[node.processor + 1]);
    // The next task of the processor: the column to the right, or its first column next iteration.
    std::vector<graph::NodeId> same;
    for (graph::NodeId w : g.successors(v)) {
      if (g.node(w).processor == node.processor) same.push_back(w);
    }
    const bool last_of_all = c == first[node.processor + 1] - 1 && node.step == iterations - 1;
    ASSERT_EQ(same.size(), last_of_all ? 0u : 1u) << node.label;
    if (!last_of_all) {
      const graph::TaskNode& next = g.node(same.front());
      if (c + 1 < first[node.processor + 1]) {
        EXPECT_EQ(column_of(next), c + 1);
        EXPECT_EQ(next.step, node.step);
      } else {
        EXPECT_EQ(column_of(next), first[node.processor]);
        EXPECT_EQ(next.step, node.step + 1);
      }
    }
    // Every dependence on another processor is a neighbour one, one iteration back.
    for (graph::NodeId u : g.predecessors(v)) {
      if (g.node(u).processor == node.processor) continue;
      EXPECT_EQ(std::abs(column_of(g.node(u)) - c), 1) << node.label;
      EXPECT_EQ(g.node(u).step + 1, node.step);
    }
  }
}

TEST(ExactModel, TorusWrapsAround) {
  const auto model = scaling::exact_model(neighbor_program(models::Scheme::NeighborTorus), models::ideal_machine(),
                                          environment({{"columns", 6.0}, {"iterations", 2.0}}), 3);
  const graph::TaskGraph& g = only_graph(model);
  bool wrapped = false;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    for (graph::NodeId w : g.successors(v)) {
      if (column_of(g.node(v)) == 5 && column_of(g.node(w)) == 0) wrapped = true;
    }
  }
  EXPECT_TRUE(wrapped);
}

TEST(ExactModel, CommunicationNodesOnlyOnInterProcessorArcs) {
  models::Program program = neighbor_program();
  std::get<models::WorkPhase>(program.phases.at("w")).volume = Expr::constant(100);
  const auto model =
      scaling::exact_model(program, cluster_machine(), environment({{"columns", 12.0}, {"iterations", 3.0}}), 4);
  const graph::TaskGraph& g = only_graph(model);
  int messages = 0, final_exchange = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    const graph::TaskNode& node = g.node(v);
    if (node.kind == graph::NodeKind::Task) {
      // No task-to-task arc crosses processors: those carry a message.
      for (graph::NodeId w : g.successors(v)) {
        if (g.node(w).kind == graph::NodeKind::Task) {
          EXPECT_EQ(g.node(w).processor, node.processor);
        }
      }
      continue;
    }
    ASSERT_EQ(node.kind, graph::NodeKind::Communication);
    EXPECT_DOUBLE_EQ(distributions::mean(node.runtime), 0.5 + 0.01 * 100);
    ASSERT_EQ(g.predecessors(v).size(), 1u);
    if (g.successors(v).empty()) {
      ++final_exchange;  // the last instance's boundaries, sent at the end of the program
      continue;
    }
    ++messages;
    ASSERT_EQ(g.successors(v).size(), 1u);
    EXPECT_NE(g.node(g.predecessors(v).front()).processor, g.node(g.successors(v).front()).processor);
  }
  // 3 inner boundaries, 2 directions: 2 iteration changes carry them to the next instance,
  // and the last instance exchanges them too (docs/semantics.md, "NEIGHBOR exchange").
  EXPECT_EQ(messages, 3 * 2 * 2);
  EXPECT_EQ(final_exchange, 3 * 2);
  // On one processor there is nothing to send.
  const auto sequential =
      scaling::exact_model(program, cluster_machine(), environment({{"columns", 12.0}, {"iterations", 3.0}}), 1);
  EXPECT_EQ(only_graph(sequential).node_count(), 36u);
  EXPECT_EQ(only_graph(sequential).arc_count(), 35u);
}

TEST(ExactModel, BarrierAndSerialConcatenations) {
  models::Program program;
  program.phases.emplace("a", unit_phase("a", models::Scheme::Independent, exponential(1), Expr::constant(8)));
  program.phases.emplace("b", unit_phase("b", models::Scheme::Independent, exponential(1), Expr::constant(8)));
  program.pattern = sequence({phase_ref("a"), phase_ref("b"), sync_point(), phase_ref("a")});
  program.concatenations[{"a", "b"}] = models::Concatenation::Serial;
  const auto model = scaling::exact_model(program, cluster_machine(), environment({}), 4);
  const graph::TaskGraph& g = only_graph(model);
  int barriers = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    if (g.node(v).kind != graph::NodeKind::Barrier) continue;
    ++barriers;
    EXPECT_DOUBLE_EQ(distributions::mean(g.node(v).runtime), 2.0);  // log2(4)
    EXPECT_EQ(g.predecessors(v).size(), 4u);
    EXPECT_EQ(g.successors(v).size(), 4u);
  }
  EXPECT_EQ(barriers, 1);  // SERIAL between a and b, SYNC before the last a
  EXPECT_EQ(g.node_count(), 24u + 1u);
}

TEST(ExactModel, DynamicSchedulingIsOnePoolNode) {
  models::Program program;
  auto w = unit_phase("w", models::Scheme::Independent, exponential(0.5), Expr::constant(40));
  w.scheduling = models::Scheduling::Dynamic;
  program.phases.emplace("w", w);
  program.pattern = phase_ref("w");
  const auto model = scaling::exact_model(program, models::ideal_machine(), environment({}), 4);
  const graph::TaskGraph& g = only_graph(model);
  ASSERT_EQ(g.node_count(), 1u);
  EXPECT_EQ(g.node(0).kind, graph::NodeKind::DynamicPool);
  EXPECT_EQ(g.node(0).pool_tasks, 40);
  EXPECT_EQ(g.node(0).pool_processors, 4);
  solvers::MonteCarloSummary s;
  solvers::MonteCarloOptions options;
  options.samples = 20000;
  solvers::solve_monte_carlo(g, options, &s);
  // Exponential tasks of mean 0.5: (n - m + 1)/(m rate) + H_{m-1}/rate.
  EXPECT_NEAR(s.mean, 37 * 0.5 / 4 + (1 + 0.5 + 1 / 3.0) * 0.5, 4 * s.standard_error);
}

TEST(ExactModel, AlternativesBecomeScenariosAndTooManyAreRefused) {
  models::Program program;
  program.phases.emplace("s", models::SequentialPhase{"s", fixed(1), {}});
  program.phases.emplace("t", models::SequentialPhase{"t", fixed(3), {}});
  models::PatternNode alternatives;
  alternatives.kind = models::PatternNode::Kind::Alternatives;
  alternatives.probabilities = {Expr::constant(0.25), Expr::constant(0.75)};
  alternatives.children = {phase_ref("s"), phase_ref("t")};
  program.pattern = repeat(alternatives, Expr::identifier("n"));
  const auto model = scaling::exact_model(program, models::ideal_machine(), environment({{"n", 3.0}}), 2);
  ASSERT_EQ(model.scenarios.size(), 8u);
  double total = 0.0;
  std::vector<solvers::WeightedGraph> mixture;
  for (const auto& scenario : model.scenarios) {
    total += scenario.probability;
    mixture.push_back({scenario.probability, &scenario.graph});
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  solvers::MonteCarloOptions options;
  options.samples = 40000;
  solvers::MonteCarloSummary s;
  solvers::solve_monte_carlo(mixture, options, &s);
  EXPECT_NEAR(s.mean, 3 * (0.25 * 1 + 0.75 * 3), 4 * s.standard_error);
  try {
    scaling::exact_model(program, models::ideal_machine(), environment({{"n", 9.0}}), 2);
    FAIL() << "2^9 scenarios accepted";
  } catch (const scaling::ScalingError& error) {
    EXPECT_NE(std::string(error.what()).find("512 scenarios"), std::string::npos) << error.what();
  }
}

TEST(ExactModel, EverySchemeBuildsAndSimulates) {
  models::Program program;
  program.phases.emplace("pipe", pipeline_phase());
  program.phases.emplace("fork", fork_join_phase());
  program.phases.emplace("paired", paired_phase("paired"));
  models::WorkPhase dag;
  dag.name = "dag";
  dag.scheme = models::Scheme::Arbitrary;
  dag.volume = Expr::constant(0);
  for (const char* name : {"a", "b", "c", "d", "e"}) dag.tasks.push_back({name, exponential(1), std::nullopt, {}});
  for (auto [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"a", "c"}, {"b", "c"}, {"b", "d"}, {"c", "e"}}) {
    dag.arcs.push_back({from, to, Expr::constant(100), {}});
  }
  program.phases.emplace("dag", dag);
  program.pattern = sequence({phase_ref("pipe"), sync_point(), phase_ref("fork"), sync_point(), phase_ref("paired"),
                              sync_point(), phase_ref("dag")});
  for (int p : {1, 2, 3, 6}) {
    const auto model = scaling::exact_model(program, cluster_machine(), environment({}), p);
    const graph::TaskGraph& g = only_graph(model);
    int tasks = 0;
    for (graph::NodeId v = 0; v < g.node_count(); ++v) {
      tasks += g.node(v).kind == graph::NodeKind::Task;
      for (graph::NodeId w : g.successors(v)) EXPECT_LE(g.node(v).step, g.node(w).step) << g.node(v).label;
    }
    // 30 stages + 5 arrivals, 28 tasks + 4 drains, 24 loop parts, 5 tasks.
    EXPECT_EQ(tasks, 35 + 32 + 24 + 5) << "p = " << p;
    solvers::MonteCarloOptions options;
    options.samples = 4000;
    const auto result = solvers::solve_monte_carlo(g, options);
    EXPECT_GT(result.mean, 0.0);
  }
}

// Monte Carlo of the exact model: its mean and standard error.
solvers::MonteCarloSummary simulate(const scaling::ExactModel& model, std::int64_t samples, std::uint64_t seed) {
  solvers::MonteCarloOptions options;
  options.samples = samples;
  options.seed = seed;
  solvers::MonteCarloSummary summary;
  solvers::solve_monte_carlo(only_graph(model), options, &summary);
  return summary;
}

TEST(ExactModel, OneProcessorHasTheApproximateModelsMean) {
  const auto env = environment({{"columns", 10.0}, {"iterations", 2.0}});
  const auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(), env, 1);
  EXPECT_EQ(only_graph(model).arc_count(), 19u);  // one chain
  const auto s = simulate(model, 100000, 3);
  EXPECT_NEAR(s.mean, 160.0, 4 * s.standard_error);
  const auto approximate = solvers::solve_series_parallel(
      scaling::approximate_model(neighbor_program(), models::ideal_machine(), env, 1), {});
  EXPECT_DOUBLE_EQ(approximate.mean, 160.0);
}

// Kleinöder: the approximate model inserts barriers, so its mean bounds the exact one, for
// either order of the columns on a processor.
TEST(ExactModel, MeanIsBelowTheApproximateModel) {
  for (auto order : {scaling::NeighborOrder::LeftToRight, scaling::NeighborOrder::Alternating}) {
    scaling::ExactModelOptions options;
    options.neighbor_order = order;
    for (int iterations : {2, 4, 8}) {
      for (int p = 1; p <= 10; ++p) {
        const auto env = environment({{"columns", 10.0}, {"iterations", iterations}});
        const auto exact = simulate(scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p, options),
                                    20000, static_cast<std::uint64_t>(100 * iterations + p));
        const auto approximate = solvers::solve_series_parallel(
            scaling::approximate_model(neighbor_program(), models::ideal_machine(), env, p), {});
        EXPECT_LE(exact.mean, approximate.upper + 3 * exact.standard_error)
            << "p = " << p << ", " << iterations << " iterations";
      }
    }
  }
}

// The paper's Table 2: PEPP's lower and upper bounds of the exact model's mean, p = 1..10 and
// 2, 4, 8 iterations. Whatever the bounding method, the exact mean lies between them.
constexpr double kTable2[10][3][2] = {
    {{160, 160}, {320, 320}, {640, 640}},         {{85, 86.8}, {167.1, 172.7}, {330, 341.8}},
    {{64.5, 65.8}, {128.1, 130.4}, {256, 258.8}}, {{51.9, 53.9}, {101.5, 105.1}, {200, 209}},
    {{38.8, 38.9}, {73.5, 77.8}, {141, 154}},     {{37.7, 38.8}, {72.2, 77.7}, {135, 153}},
    {{36.8, 37.2}, {70.8, 75.3}, {138, 149}},     {{35.2, 36.7}, {68.5, 70.3}, {134, 142}},
    {{32.2, 32.3}, {64, 64.2}, {128, 130}},       {{23.7, 24.7}, {44.7, 48.1}, {85.8, 96.1}}};

// The left-to-right order of docs/semantics.md lies above the paper's upper bound for p = 5, 6, 7 (e.g.
// 39.97 against 38.8 - 38.9 for p = 5): the paper's model is the alternating order, which fits
// every row of Table 2.
TEST(ExactModel, AlternatingOrderLiesWithinThePapersBoundsOfTable2) {
  const int iterations[3] = {2, 4, 8};
  scaling::ExactModelOptions alternating;
  alternating.neighbor_order = scaling::NeighborOrder::Alternating;
  for (int column = 0; column < 3; ++column) {
    for (int p = 1; p <= 10; ++p) {
      const auto env = environment({{"columns", 10.0}, {"iterations", iterations[column]}});
      const auto s = simulate(scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p, alternating),
                              100000, static_cast<std::uint64_t>(1000 + 10 * column + p));
      // The paper rounds to one decimal (0.05) or to whole numbers in the 8-iteration column.
      const double rounding = column == 2 ? 0.5 : 0.05;
      EXPECT_GE(s.mean + 3 * s.standard_error + rounding, kTable2[p - 1][column][0])
          << "p = " << p << ", " << iterations[column] << " iterations";
      EXPECT_LE(s.mean - 3 * s.standard_error - rounding, kTable2[p - 1][column][1])
          << "p = " << p << ", " << iterations[column] << " iterations";
    }
  }
}

// The paper's Table 1 (PEPP's *approximate* state-space analysis, 2 iterations) gives 85, 64.6
// and 52.5 for p = 2, 3, 4. Our exact model, by Monte Carlo with 2e6 samples (half-widths
// about 0.01): left to right 86.07, 65.00, 52.83; alternating 85.03, 64.53, 51.94, which are
// the paper's Table 2 lower bounds (85, 64.5, 51.9) to the printed digit. Table 1 lies between
// the two orders, so neither reproduces it within 0.05; docs/methods.md discusses this. The
// test pins our values so that a change of the model shows up.
TEST(ExactModel, PaperTable1Comparison) {
  const double left_to_right[3] = {86.07, 65.00, 52.83};
  const double alternating[3] = {85.03, 64.53, 51.94};
  scaling::ExactModelOptions alternate;
  alternate.neighbor_order = scaling::NeighborOrder::Alternating;
  for (int p = 2; p <= 4; ++p) {
    const auto env = environment({{"columns", 10.0}, {"iterations", 2.0}});
    const auto a = simulate(scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p), 400'000,
                            static_cast<std::uint64_t>(p));
    EXPECT_NEAR(a.mean, left_to_right[p - 2], 3 * a.standard_error + 0.01) << "p = " << p;
    const auto b = simulate(scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p, alternate),
                            400'000, static_cast<std::uint64_t>(p));
    EXPECT_NEAR(b.mean, alternating[p - 2], 3 * b.standard_error + 0.01) << "p = " << p;
  }
}

TEST(ExactModel, LargeNeighborModelHasEveryTask) {
  const auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(),
                                          environment({{"columns", 1000.0}, {"iterations", 100.0}}), 64);
  const graph::TaskGraph& g = only_graph(model);
  EXPECT_EQ(g.node_count(), 100000u);
  // Per processor 99 * (its columns) ... : 100000 - 64 order arcs, 2 * 63 neighbour arcs per iteration change.
  EXPECT_EQ(g.arc_count(), 100000u - 64u + 2u * 63u * 99u);
}

TEST(ExactModel, InvalidValuesAreReported) {
  EXPECT_THROW(scaling::exact_model(neighbor_program(), models::ideal_machine(),
                                    environment({{"columns", 10.5}, {"iterations", 2.0}}), 2),
               scaling::ScalingError);
  EXPECT_THROW(scaling::exact_model(neighbor_program(), models::ideal_machine(),
                                    environment({{"columns", 10.0}, {"iterations", 2.0}}), 0),
               std::invalid_argument);
}

}  // namespace
