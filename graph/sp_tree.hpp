// Series-parallel expressions over runtime distributions: the decomposition tree of a
// series-parallel task graph, and the compressed form in which the approximate scaled models
// are built.
//
// Besides series and parallel composition the tree has the compressed operators that keep the
// cost of the approximate models independent of the number of tasks: SeriesPower (n copies in
// series: a task repeated, an iteration repeated), ParallelPower (p identical branches joined
// by their maximum: identical processors) and Branch (probabilistic alternatives).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"

namespace graph {

enum class SpKind { Leaf, Series, Parallel, SeriesPower, ParallelPower, Branch };

std::string_view to_string(SpKind kind);

struct SpNode {
  SpKind kind = SpKind::Leaf;
  std::vector<std::size_t> children;  // indices into SpTree::nodes(); children precede parents
  // Leaf only: what the leaf stands for.
  TaskNode task;
  NodeId vertex = static_cast<NodeId>(-1);  // the task-graph node, for trees from decompose()
  std::int64_t count = 1;                   // SeriesPower / ParallelPower: number of copies
  // Leaf only: the nodes the leaf stands for in the exact model (a collective's messages are one
  // leaf here and a send, a transfer and a receive each there), counted by expanded_node_count.
  std::int64_t exact_nodes = 1;
  std::vector<double> probabilities;  // Branch: one per child, summing to 1
};

// A tree stored bottom-up: every node's children have smaller indices, so a forward sweep
// evaluates it without recursion.
// Branch probabilities that describe no mixture (one per child, each >= 0, summing to 1): the
// program's values, which the caller locates.
class InvalidBranch : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class SpTree {
 public:
  std::size_t leaf(TaskNode task, NodeId vertex = static_cast<NodeId>(-1));
  // A leaf that stands for `exact_nodes` >= 1 nodes of the exact model.
  std::size_t leaf_standing_for(TaskNode task, std::int64_t exact_nodes);
  // Series and parallel of one child return the child; nested nodes of the same kind are
  // flattened. Throws std::invalid_argument for an empty list.
  std::size_t series(std::vector<std::size_t> children);
  std::size_t parallel(std::vector<std::size_t> children);
  // n >= 1 copies (n == 1 returns the child).
  std::size_t series_power(std::size_t child, std::int64_t n);
  std::size_t parallel_power(std::size_t child, std::int64_t p);
  // Probabilities >= 0 summing to 1 within 1e-9, one per child; InvalidBranch otherwise.
  std::size_t branch(std::vector<double> probabilities, std::vector<std::size_t> children);

  void set_root(std::size_t root);
  std::size_t root() const;
  bool empty() const { return nodes_.empty(); }
  const std::vector<SpNode>& nodes() const { return nodes_; }
  const SpNode& node(std::size_t i) const { return nodes_.at(i); }

  // How many task-graph nodes the tree stands for when fully expanded (saturates at
  // INT64_MAX), each leaf counting its exact_nodes. A Branch counts its largest alternative.
  std::int64_t expanded_node_count() const;

  // Why the tree is no upper bound of the exact model where its builder knows it (docs/
  // semantics.md U2), in words a report shows under the method's figures; empty when none.
  // The first reason given is kept: one sentence per tree.
  void add_caveat(std::string caveat) {
    if (caveat_.empty()) caveat_ = std::move(caveat);
  }
  const std::string& caveat() const { return caveat_; }

 private:
  std::size_t add(SpNode node);
  std::size_t combine(SpKind kind, std::vector<std::size_t> children);
  std::size_t power(SpKind kind, std::size_t child, std::int64_t n);
  void check_child(std::size_t child) const;
  std::vector<SpNode> nodes_;
  std::size_t root_ = static_cast<std::size_t>(-1);
  std::string caveat_;
};

// The explicit task graph a tree stands for: every copy of a power becomes its own nodes and
// series composition joins every exit of one part to every entry of the next (through a
// zero-duration join node where that takes fewer arcs). Branch nodes cannot be expanded into
// one graph: the tree must not hold any. Throws std::length_error if the graph would have
// more than max_nodes nodes.
TaskGraph expand(const SpTree& tree, std::size_t max_nodes);

}  // namespace graph
