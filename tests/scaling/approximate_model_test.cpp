// The approximate scaled models, checked against the paper's Table 3 and against Monte Carlo
// sampling of the same models (a small sampler here, independent of the reduction code).
#include "scaling/approximate_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "distributions/random.hpp"
#include "distributions/sampler.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

using models::Expr;

// Table 3 of the paper ("Results of Approximate Modeling"), p = 1..10.
constexpr double kTable3[10][3] = {
    {160, 320, 640}, {87.1, 174.2, 348.4}, {65.8, 131.6, 263.2}, {53.8, 107.6, 215.2}, {41.7, 83.4, 166.8},
    {40.5, 81, 162}, {38.9, 77.8, 155.6},  {36.7, 73.4, 146.8},  {33, 66, 132},        {25.7, 51.4, 102.8}};

// The paper printed the 2-iteration means cut (not rounded) to one decimal and obtained the
// 4- and 8-iteration columns as 2 and 4 times those printed values (every row of Table 3 is
// exactly proportional). So the exact mean m_k for k iterations satisfies
//   table <= m_k < table + 0.1 * k / 2,
// and the test demands that of the whole discretisation bracket, not only of the estimate.
TEST(ApproximateModel, ReproducesPaperTable3) {
  const models::Program program = neighbor_program();
  const models::Machine machine = models::ideal_machine();
  const int iterations[3] = {2, 4, 8};
  for (bool keep_distribution : {true, false}) {
    solvers::SeriesParallelOptions options;
    options.grid.max_points = 16384;
    options.keep_distribution = keep_distribution;
    for (int column = 0; column < 3; ++column) {
      for (int p = 1; p <= 10; ++p) {
        const auto tree = scaling::approximate_model(
            program, machine, environment({{"columns", 10.0}, {"iterations", iterations[column]}}), p);
        const solvers::Result result = solvers::solve_series_parallel(tree, options);
        const double printed = kTable3[p - 1][column];
        const double cut = 0.1 * iterations[column] / 2;
        EXPECT_GE(result.lower, printed - 1e-9) << "p = " << p << ", " << iterations[column] << " iterations";
        EXPECT_LT(result.upper, printed + cut) << "p = " << p << ", " << iterations[column] << " iterations";
        EXPECT_LE(result.lower, result.mean);
        EXPECT_LE(result.mean, result.upper);
        EXPECT_EQ(result.distribution.has_value(), keep_distribution);
      }
    }
  }
}

TEST(ApproximateModel, SolvingCostDoesNotGrowWithTasks) {
  const models::Program program = neighbor_program();
  const auto larger = scaling::approximate_model(program, models::ideal_machine(),
                                                 environment({{"columns", 1e7}, {"iterations", 1e5}}), 7);
  const auto large = scaling::approximate_model(program, models::ideal_machine(),
                                                environment({{"columns", 100000.0}, {"iterations", 1000.0}}), 7);
  EXPECT_EQ(larger.nodes().size(), large.nodes().size());
  EXPECT_EQ(large.expanded_node_count(), 100000 * 1000);
  EXPECT_EQ(larger.expanded_node_count(), std::int64_t{10000000} * 100000);
}

// ---- Monte Carlo of the same tree --------------------------------------------------------

// Samples the tree's value: leaves from their distributions, + for series, max for parallel.
class TreeSampler {
 public:
  explicit TreeSampler(const graph::SpTree& tree) : tree_(tree) {
    for (const auto& node : tree.nodes()) {
      samplers_.emplace_back(node.kind == graph::SpKind::Leaf
                                 ? distributions::Sampler(node.task.runtime)
                                 : distributions::Sampler(distributions::deterministic(0)));
    }
  }
  double operator()(distributions::Xoshiro256pp& rng) const { return sample(tree_.root(), rng); }

 private:
  double sample(std::size_t i, distributions::Xoshiro256pp& rng) const {
    const graph::SpNode& node = tree_.node(i);
    double value = 0.0;
    switch (node.kind) {
      case graph::SpKind::Leaf: return samplers_[i](rng);
      case graph::SpKind::Series:
        for (auto c : node.children) value += sample(c, rng);
        return value;
      case graph::SpKind::Parallel:
        for (auto c : node.children) value = std::max(value, sample(c, rng));
        return value;
      case graph::SpKind::SeriesPower:
        for (std::int64_t k = 0; k < node.count; ++k) value += sample(node.children.front(), rng);
        return value;
      case graph::SpKind::ParallelPower:
        for (std::int64_t k = 0; k < node.count; ++k) value = std::max(value, sample(node.children.front(), rng));
        return value;
      case graph::SpKind::Branch: {
        double u = distributions::uniform_closed_open(rng);
        for (std::size_t k = 0; k < node.children.size(); ++k) {
          if (u < node.probabilities[k] || k + 1 == node.children.size()) return sample(node.children[k], rng);
          u -= node.probabilities[k];
        }
        return value;
      }
    }
    return value;
  }
  const graph::SpTree& tree_;
  std::vector<distributions::Sampler> samplers_;
};

// Mean of the reduction against the sample mean: within 3 standard errors plus the
// discretisation bracket.
void expect_agrees_with_sampling(const models::Program& program, const models::Machine& machine,
                                 const models::Environment& env, int p, const std::string& what) {
  const auto tree = scaling::approximate_model(program, machine, env, p);
  const solvers::Result result = solvers::solve_series_parallel(tree, {});
  TreeSampler sampler(tree);
  distributions::Xoshiro256pp rng(12345, static_cast<std::uint64_t>(p));
  constexpr int kSamples = 200000;
  double sum = 0.0, sum_squares = 0.0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = sampler(rng);
    sum += x;
    sum_squares += x * x;
  }
  const double mean = sum / kSamples;
  const double standard_error = std::sqrt((sum_squares / kSamples - mean * mean) / (kSamples - 1));
  EXPECT_GE(mean + 3 * standard_error, result.lower) << what << ", p = " << p;
  EXPECT_LE(mean - 3 * standard_error, result.upper) << what << ", p = " << p;
}

TEST(ApproximateModel, NeighborAgreesWithSampling) {
  for (int p : {1, 3, 4, 7}) {
    expect_agrees_with_sampling(neighbor_program(), models::ideal_machine(),
                                environment({{"columns", 10.0}, {"iterations", 3.0}}), p, "neighbor");
  }
}

TEST(ApproximateModel, IndependentThenSerialNeighborAgreesWithSampling) {
  models::Program program;
  program.phases.emplace("a", unit_phase("a", models::Scheme::Independent, exponential(2), Expr::constant(13)));
  auto b = unit_phase("b", models::Scheme::NeighborTorus, erlang(3, 1), Expr::constant(9));
  b.volume = Expr::constant(40);
  program.phases.emplace("b", b);
  program.pattern = sequence({phase_ref("a"), repeat(phase_ref("b"), Expr::constant(3)), sync_point(), phase_ref("a")});
  program.concatenations[{"a", "b"}] = models::Concatenation::Serial;
  program.concatenations[{"b", "b"}] = models::Concatenation::Torus;
  for (int p : {1, 2, 4, 5}) {
    expect_agrees_with_sampling(program, cluster_machine(), environment({}), p, "independent+torus");
  }
}

TEST(ApproximateModel, PairedAgreesWithSampling) {
  models::Program program;
  program.phases.emplace("w", paired_phase("w"));
  program.pattern = phase_ref("w");
  for (int p : {1, 3, 4}) expect_agrees_with_sampling(program, cluster_machine(), environment({}), p, "paired");
}

TEST(ApproximateModel, PipelineAndForkJoinAgreeWithSampling) {
  models::Program program;
  program.phases.emplace("pipe", pipeline_phase());
  program.phases.emplace("fork", fork_join_phase());
  program.pattern = sequence({phase_ref("pipe"), sync_point(), phase_ref("fork")});
  for (int p : {1, 2, 3, 6})
    expect_agrees_with_sampling(program, cluster_machine(), environment({}), p, "pipeline+fork-join");
}

TEST(ApproximateModel, ArbitraryAndBranchesAgreeWithSampling) {
  models::Program program;
  models::WorkPhase dag;
  dag.name = "dag";
  dag.scheme = models::Scheme::Arbitrary;
  dag.volume = Expr::constant(0);
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    dag.tasks.push_back({name, exponential(1 + static_cast<double>(name[0] - 'a')), std::nullopt, {}});
  }
  for (auto [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"a", "c"}, {"b", "c"}, {"b", "d"}, {"c", "e"}}) {
    dag.arcs.push_back({from, to, Expr::constant(100), {}});
  }
  program.phases.emplace("dag", dag);
  program.phases.emplace("s", models::SequentialPhase{"s", erlang(2, 3), {}});
  models::PatternNode alternatives;
  alternatives.kind = models::PatternNode::Kind::Alternatives;
  alternatives.probabilities = {Expr::constant(0.3), Expr::constant(0.7)};
  alternatives.children = {phase_ref("dag"), phase_ref("s")};
  program.pattern = sequence({phase_ref("s"), repeat(alternatives, Expr::constant(2))});
  for (int p : {1, 2, 3})
    expect_agrees_with_sampling(program, cluster_machine(), environment({}), p, "arbitrary+branch");
}

TEST(ApproximateModel, InvalidBoundValuesAreReportedWithTheirPlace) {
  models::Program program = neighbor_program();
  program.pattern.location = {"neighbor.pdl", 3, 7};
  EXPECT_THROW(scaling::approximate_model(program, models::ideal_machine(),
                                          environment({{"columns", 10.0}, {"iterations", 2.5}}), 2),
               scaling::ScalingError);
  try {
    scaling::approximate_model(program, models::ideal_machine(), environment({{"columns", 10.0}, {"iterations", -1.0}}),
                               2);
    FAIL();
  } catch (const scaling::ScalingError& error) {
    EXPECT_EQ(error.location().line, 3u);
    EXPECT_NE(std::string(error.what()).find("repetition count"), std::string::npos);
  }
  EXPECT_THROW(scaling::approximate_model(program, models::ideal_machine(),
                                          environment({{"columns", 10.0}, {"iterations", 2.0}}), 0),
               std::invalid_argument);
}

}  // namespace
