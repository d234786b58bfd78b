#include "graph/dot.hpp"
#include "graph/task_graph.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

graph::TaskNode task(const std::string& name, double seconds = 1.0, int processor = -1) {
  return {name, graph::NodeKind::Task, distributions::deterministic(seconds), processor};
}

TEST(TaskGraph, ArcsAreStoredOnceAndValidated) {
  graph::TaskGraph g;
  const auto a = g.add_node(task("a"));
  const auto b = g.add_node(task("b"));
  g.add_arc(a, b);
  g.add_arc(a, b);
  EXPECT_EQ(g.arc_count(), 1u);
  EXPECT_EQ(g.successors(a), std::vector<graph::NodeId>{b});
  EXPECT_EQ(g.predecessors(b), std::vector<graph::NodeId>{a});
  EXPECT_THROW(g.add_arc(a, 7), std::out_of_range);
  EXPECT_THROW(g.add_arc(a, a), std::invalid_argument);
}

TEST(TaskGraph, TopologicalOrderPutsEveryArcForward) {
  graph::TaskGraph g;
  std::vector<graph::NodeId> v;
  for (int i = 0; i < 6; ++i) v.push_back(g.add_node(task("t" + std::to_string(i))));
  g.add_arc(v[5], v[0]);
  g.add_arc(v[0], v[3]);
  g.add_arc(v[4], v[3]);
  g.add_arc(v[3], v[1]);
  g.add_arc(v[1], v[2]);
  const auto order = graph::topological_order(g);
  ASSERT_EQ(order.size(), 6u);
  std::vector<std::size_t> position(6);
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (graph::NodeId u = 0; u < 6; ++u)
    for (graph::NodeId w : g.successors(u)) EXPECT_LT(position[u], position[w]);
}

TEST(TaskGraph, CycleIsNamed) {
  graph::TaskGraph g;
  const auto a = g.add_node(task("a"));
  const auto b = g.add_node(task("b"));
  const auto c = g.add_node(task("c"));
  const auto d = g.add_node(task("d"));
  g.add_arc(d, a);
  g.add_arc(a, b);
  g.add_arc(b, c);
  g.add_arc(c, a);
  try {
    graph::topological_order(g);
    FAIL() << "a cycle was not reported";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("cycle"), std::string::npos);
    EXPECT_NE(message.find("a -> b"), std::string::npos) << message;
    EXPECT_NE(message.find("c -> a"), std::string::npos) << message;
    EXPECT_EQ(message.find("d"), std::string::npos) << message;
  }
}

TEST(Dot, ClustersTasksByProcessorAndListsArcs) {
  graph::TaskGraph g;
  const auto a = g.add_node(task("col 0", 8.0, 0));
  const auto b = g.add_node(task("col 1", 8.0, 1));
  const auto c = g.add_node({"barrier", graph::NodeKind::Barrier, distributions::deterministic(2.0), -1});
  g.add_arc(a, c);
  g.add_arc(b, c);
  const std::string dot = graph::to_dot(g, "two \"processors\"");
  EXPECT_NE(dot.find("digraph \"two \\\"processors\\\"\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("subgraph cluster_p0"), std::string::npos);
  EXPECT_NE(dot.find("subgraph cluster_p1"), std::string::npos);
  EXPECT_NE(dot.find("label=\"processor 1\""), std::string::npos);
  EXPECT_NE(dot.find("n0 -> n2;"), std::string::npos);
  EXPECT_NE(dot.find("n1 -> n2;"), std::string::npos);
  EXPECT_NE(dot.find("shape=box3d"), std::string::npos);
  EXPECT_EQ(dot.back(), '\n');
}

}  // namespace
