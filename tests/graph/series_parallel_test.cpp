// Series-parallel recognition: the decomposition tree must compute the longest path of the
// graph. With deterministic runtimes the longest path is plain arithmetic, computed here by
// dynamic programming over a topological order, independently of the tree.
#include "graph/dot.hpp"
#include "graph/series_parallel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace {

graph::TaskNode task(const std::string& name, double seconds) {
  return {name, graph::NodeKind::Task, distributions::deterministic(seconds), -1};
}

double longest_path(const graph::TaskGraph& g) {
  std::vector<double> finish(g.node_count(), 0.0);
  double makespan = 0.0;
  for (graph::NodeId v : graph::topological_order(g)) {
    double start = 0.0;
    for (graph::NodeId u : g.predecessors(v)) start = std::max(start, finish[u]);
    finish[v] = start + distributions::mean(g.node(v).runtime);
    makespan = std::max(makespan, finish[v]);
  }
  return makespan;
}

// The tree's value with + for series and max for parallel, on deterministic leaves.
double tree_value(const graph::SpTree& tree) {
  std::vector<double> value(tree.nodes().size(), 0.0);
  for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
    const graph::SpNode& node = tree.node(i);
    switch (node.kind) {
      case graph::SpKind::Leaf: value[i] = distributions::mean(node.task.runtime); break;
      case graph::SpKind::Series:
        for (auto c : node.children) value[i] += value[c];
        break;
      case graph::SpKind::Parallel:
        for (auto c : node.children) value[i] = std::max(value[i], value[c]);
        break;
      case graph::SpKind::SeriesPower: value[i] = static_cast<double>(node.count) * value[node.children.front()]; break;
      case graph::SpKind::ParallelPower: value[i] = value[node.children.front()]; break;
      case graph::SpKind::Branch: ADD_FAILURE() << "no branches expected"; break;
    }
  }
  return value[tree.root()];
}

std::size_t leaf_count(const graph::SpTree& tree) {
  std::size_t leaves = 0;
  for (const auto& node : tree.nodes()) leaves += node.kind == graph::SpKind::Leaf;
  return leaves;
}

TEST(SeriesParallel, ChainForkJoinAndTransitiveArcs) {
  graph::TaskGraph g;
  const auto a = g.add_node(task("a", 1));
  const auto b = g.add_node(task("b", 5));
  const auto c = g.add_node(task("c", 2));
  const auto d = g.add_node(task("d", 3));
  g.add_arc(a, b);
  g.add_arc(a, c);
  g.add_arc(b, d);
  g.add_arc(c, d);
  g.add_arc(a, d);  // transitive: implied by a -> b -> d
  const auto result = graph::decompose(g);
  ASSERT_TRUE(result.tree.has_value());
  EXPECT_FALSE(result.residual.has_value());
  EXPECT_EQ(leaf_count(*result.tree), 4u);
  EXPECT_DOUBLE_EQ(tree_value(*result.tree), 9.0);
}

TEST(SeriesParallel, SeveralSourcesAndSinksAreInParallel) {
  graph::TaskGraph g;
  g.add_node(task("x", 4));
  const auto y = g.add_node(task("y", 1));
  const auto z = g.add_node(task("z", 2));
  g.add_arc(y, z);
  const auto result = graph::decompose(g);
  ASSERT_TRUE(result.tree.has_value());
  EXPECT_EQ(result.tree->node(result.tree->root()).kind, graph::SpKind::Parallel);
  EXPECT_DOUBLE_EQ(tree_value(*result.tree), 4.0);
}

TEST(SeriesParallel, TheNGraphIsReportedWithItsArcs) {
  graph::TaskGraph g;
  const auto u1 = g.add_node(task("u1", 1));
  const auto u2 = g.add_node(task("u2", 1));
  const auto v1 = g.add_node(task("v1", 1));
  const auto v2 = g.add_node(task("v2", 1));
  g.add_arc(u1, v1);
  g.add_arc(u1, v2);
  g.add_arc(u2, v2);
  const auto result = graph::decompose(g);
  EXPECT_FALSE(result.tree.has_value());
  ASSERT_TRUE(result.residual.has_value());
  EXPECT_EQ(result.residual->nodes, (std::vector<graph::NodeId>{u1, u2, v1, v2}));
  EXPECT_EQ(result.residual->arcs.size(), 3u);
  EXPECT_NE(result.residual->description.find("u1 -> v2"), std::string::npos) << result.residual->description;
}

TEST(SeriesParallel, NeighborSynchronisationIsNotSeriesParallel) {
  // Two iterations of three columns, column c of iteration 1 after c-1, c, c+1 of iteration 0.
  graph::TaskGraph g;
  std::vector<graph::NodeId> first, second;
  for (int c = 0; c < 3; ++c) first.push_back(g.add_node(task("i0c" + std::to_string(c), 1)));
  for (int c = 0; c < 3; ++c) second.push_back(g.add_node(task("i1c" + std::to_string(c), 1)));
  for (int c = 0; c < 3; ++c)
    for (int d = std::max(0, c - 1); d <= std::min(2, c + 1); ++d) g.add_arc(first[d], second[c]);
  EXPECT_FALSE(graph::decompose(g).tree.has_value());
}

TEST(SeriesParallel, EmptyAndCyclicGraphsAreErrors) {
  graph::TaskGraph empty;
  EXPECT_THROW(graph::decompose(empty), std::invalid_argument);
  graph::TaskGraph cyclic;
  const auto a = cyclic.add_node(task("a", 1));
  const auto b = cyclic.add_node(task("b", 1));
  cyclic.add_arc(a, b);
  cyclic.add_arc(b, a);
  EXPECT_THROW(graph::decompose(cyclic), std::invalid_argument);
}

// A random series-parallel expression, built bottom-up in a tree.
std::size_t random_tree(graph::SpTree& tree, std::mt19937_64& rng, int depth, int& next_name) {
  std::uniform_int_distribution<int> pick(0, depth <= 0 ? 0 : 4);
  std::uniform_int_distribution<int> seconds(1, 9);
  std::uniform_int_distribution<int> arity(2, 4);
  const int what = pick(rng);
  if (what <= 1) {
    return tree.leaf(task("t" + std::to_string(next_name++), seconds(rng)));
  }
  if (what == 4) {
    const auto child = random_tree(tree, rng, depth - 1, next_name);
    return std::uniform_int_distribution<int>(0, 1)(rng) ? tree.series_power(child, arity(rng))
                                                         : tree.parallel_power(child, arity(rng));
  }
  std::vector<std::size_t> children;
  for (int i = arity(rng); i > 0; --i) children.push_back(random_tree(tree, rng, depth - 1, next_name));
  return what == 2 ? tree.series(children) : tree.parallel(children);
}

TEST(SeriesParallel, ExpandedRandomTreesAreRecognisedWithTheSameLongestPath) {
  std::mt19937_64 rng(20261121);
  for (int trial = 0; trial < 300; ++trial) {
    graph::SpTree tree;
    int next_name = 0;
    tree.set_root(random_tree(tree, rng, 5, next_name));
    const graph::TaskGraph g = graph::expand(tree, 200000);
    const double expected = longest_path(g);
    EXPECT_DOUBLE_EQ(tree_value(tree), expected) << "trial " << trial;
    const auto result = graph::decompose(g);
    ASSERT_TRUE(result.tree.has_value()) << "trial " << trial << ": " << result.residual->description;
    EXPECT_DOUBLE_EQ(tree_value(*result.tree), expected) << "trial " << trial;
  }
}

// Arcs implied by others change neither the runtime nor series-parallelness.
TEST(SeriesParallel, TransitiveArcsAreHarmless) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    graph::SpTree tree;
    int next_name = 0;
    tree.set_root(random_tree(tree, rng, 4, next_name));
    graph::TaskGraph g = graph::expand(tree, 100000);
    const double expected = longest_path(g);
    const auto order = graph::topological_order(g);
    for (int extra = 0; extra < 5; ++extra) {
      // A node two steps downstream of a random node, if there is one.
      const auto u = order[std::uniform_int_distribution<std::size_t>(0, order.size() - 1)(rng)];
      const auto next = g.successors(u);
      if (next.empty()) continue;
      const auto after = g.successors(next.front());
      if (after.empty()) continue;
      g.add_arc(u, after.front());
    }
    EXPECT_DOUBLE_EQ(longest_path(g), expected);
    const auto result = graph::decompose(g);
    ASSERT_TRUE(result.tree.has_value()) << "trial " << trial << ": " << result.residual->description;
    EXPECT_DOUBLE_EQ(tree_value(*result.tree), expected) << "trial " << trial;
  }
}

TEST(SeriesParallel, ExpandRefusesHugeTrees) {
  graph::SpTree tree;
  const auto leaf = tree.leaf(task("t", 1));
  tree.set_root(tree.series_power(tree.parallel_power(leaf, 100000), 100000));
  EXPECT_EQ(tree.expanded_node_count(), 10000000000);
  EXPECT_THROW(graph::expand(tree, 1000000), std::length_error);
}

TEST(SpTree, BranchesNeedProbabilitiesThatSumToOne) {
  graph::SpTree tree;
  const auto a = tree.leaf(task("a", 1));
  const auto b = tree.leaf(task("b", 2));
  EXPECT_THROW(tree.branch({0.5, 0.6}, {a, b}), std::invalid_argument);
  EXPECT_THROW(tree.branch({0.5}, {a, b}), std::invalid_argument);
  const auto branch = tree.branch({0.25, 0.75}, {a, b});
  tree.set_root(branch);
  EXPECT_EQ(tree.expanded_node_count(), 1);
  EXPECT_THROW(graph::expand(tree, 100), std::invalid_argument);
  const std::string dot = graph::to_dot(tree, "branch");
  EXPECT_NE(dot.find("label=\"0.75\""), std::string::npos) << dot;
}

}  // namespace
