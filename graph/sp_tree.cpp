#include "graph/sp_tree.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace graph {

std::string_view to_string(SpKind kind) {
  switch (kind) {
    case SpKind::Leaf: return "leaf";
    case SpKind::Series: return "series";
    case SpKind::Parallel: return "parallel";
    case SpKind::SeriesPower: return "series power";
    case SpKind::ParallelPower: return "parallel power";
    case SpKind::Branch: return "branch";
  }
  return "unknown";
}

std::size_t SpTree::add(SpNode node) {
  nodes_.push_back(std::move(node));
  return nodes_.size() - 1;
}

void SpTree::check_child(std::size_t child) const {
  if (child >= nodes_.size()) {
    throw std::out_of_range("series-parallel tree: no node " + std::to_string(child));
  }
}

std::size_t SpTree::leaf(TaskNode task, NodeId vertex) {
  SpNode node;
  node.kind = SpKind::Leaf;
  node.task = std::move(task);
  node.vertex = vertex;
  return add(std::move(node));
}

std::size_t SpTree::leaf_standing_for(TaskNode task, std::int64_t exact_nodes) {
  if (exact_nodes < 1) throw std::invalid_argument("a leaf stands for at least one node");
  SpNode node;
  node.kind = SpKind::Leaf;
  node.task = std::move(task);
  node.exact_nodes = exact_nodes;
  return add(std::move(node));
}

std::size_t SpTree::combine(SpKind kind, std::vector<std::size_t> children) {
  if (children.empty()) {
    throw std::invalid_argument(std::string{"series-parallel tree: "} + std::string{to_string(kind)} +
                                " of no children");
  }
  std::vector<std::size_t> flat;
  for (std::size_t child : children) {
    check_child(child);
    if (nodes_[child].kind == kind) {
      flat.insert(flat.end(), nodes_[child].children.begin(), nodes_[child].children.end());
    } else {
      flat.push_back(child);
    }
  }
  if (flat.size() == 1) return flat.front();
  SpNode node;
  node.kind = kind;
  node.children = std::move(flat);
  return add(std::move(node));
}

std::size_t SpTree::series(std::vector<std::size_t> children) { return combine(SpKind::Series, std::move(children)); }

std::size_t SpTree::parallel(std::vector<std::size_t> children) {
  return combine(SpKind::Parallel, std::move(children));
}

namespace {
void check_count(std::int64_t n, const char* what) {
  if (n < 1) {
    throw std::invalid_argument(std::string{"series-parallel tree: "} + what + " needs a count >= 1, got " +
                                std::to_string(n));
  }
}
}  // namespace

std::size_t SpTree::power(SpKind kind, std::size_t child, std::int64_t n) {
  check_child(child);
  check_count(n, kind == SpKind::SeriesPower ? "series power" : "parallel power");
  if (n == 1) return child;
  SpNode node;
  node.kind = kind;
  node.children = {child};
  node.count = n;
  return add(std::move(node));
}

std::size_t SpTree::series_power(std::size_t child, std::int64_t n) { return power(SpKind::SeriesPower, child, n); }

std::size_t SpTree::parallel_power(std::size_t child, std::int64_t p) { return power(SpKind::ParallelPower, child, p); }

std::size_t SpTree::branch(std::vector<double> probabilities, std::vector<std::size_t> children) {
  if (children.empty() || probabilities.size() != children.size()) {
    throw InvalidBranch("series-parallel tree: a branch needs one probability per child");
  }
  double total = 0.0;
  for (std::size_t i = 0; i < children.size(); ++i) {
    check_child(children[i]);
    if (!(probabilities[i] >= 0.0) || !std::isfinite(probabilities[i])) {
      throw InvalidBranch("series-parallel tree: branch probability " + std::to_string(probabilities[i]) +
                          " is not in [0, 1]");
    }
    total += probabilities[i];
  }
  if (std::abs(total - 1.0) > 1e-9) {
    throw InvalidBranch("series-parallel tree: branch probabilities sum to " + std::to_string(total) + ", not 1");
  }
  if (children.size() == 1) return children.front();
  SpNode node;
  node.kind = SpKind::Branch;
  node.children = std::move(children);
  node.probabilities = std::move(probabilities);
  return add(std::move(node));
}

void SpTree::set_root(std::size_t root) {
  check_child(root);
  root_ = root;
}

std::size_t SpTree::root() const {
  if (root_ >= nodes_.size()) throw std::logic_error("series-parallel tree has no root");
  return root_;
}

std::int64_t SpTree::expanded_node_count() const {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  auto add_saturating = [](std::int64_t a, std::int64_t b) { return a > kMax - b ? kMax : a + b; };
  auto multiply_saturating = [](std::int64_t a, std::int64_t b) { return (b != 0 && a > kMax / b) ? kMax : a * b; };
  std::vector<std::int64_t> count(nodes_.size(), 0);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const SpNode& node = nodes_[i];
    switch (node.kind) {
      case SpKind::Leaf: count[i] = node.exact_nodes; break;
      case SpKind::Series:
      case SpKind::Parallel:
        for (std::size_t c : node.children) count[i] = add_saturating(count[i], count[c]);
        break;
      case SpKind::SeriesPower:
      case SpKind::ParallelPower: count[i] = multiply_saturating(count[node.children.front()], node.count); break;
      case SpKind::Branch:
        for (std::size_t c : node.children) count[i] = std::max(count[i], count[c]);
        break;
    }
  }
  return nodes_.empty() ? 0 : count[root()];
}

namespace {

// The entry and exit nodes of an expanded part.
struct ExpandedPart {
  std::vector<NodeId> entries;
  std::vector<NodeId> exits;
};

class Expander {
 public:
  Expander(const SpTree& tree, TaskGraph& graph) : tree_(tree), graph_(graph) {}

  ExpandedPart expand(std::size_t index) {
    const SpNode& node = tree_.node(index);
    switch (node.kind) {
      case SpKind::Leaf: {
        const NodeId v = graph_.add_node(node.task);
        return {{v}, {v}};
      }
      case SpKind::Series: {
        ExpandedPart whole = expand(node.children.front());
        for (std::size_t i = 1; i < node.children.size(); ++i) {
          ExpandedPart next = expand(node.children[i]);
          join(whole.exits, next.entries);
          whole.exits = std::move(next.exits);
        }
        return whole;
      }
      case SpKind::SeriesPower: {
        ExpandedPart whole = expand(node.children.front());
        for (std::int64_t i = 1; i < node.count; ++i) {
          ExpandedPart next = expand(node.children.front());
          join(whole.exits, next.entries);
          whole.exits = std::move(next.exits);
        }
        return whole;
      }
      case SpKind::Parallel:
      case SpKind::ParallelPower: {
        ExpandedPart whole;
        const std::int64_t copies = node.kind == SpKind::Parallel ? 1 : node.count;
        for (std::int64_t copy = 0; copy < copies; ++copy) {
          for (std::size_t child : node.children) {
            ExpandedPart part = expand(child);
            whole.entries.insert(whole.entries.end(), part.entries.begin(), part.entries.end());
            whole.exits.insert(whole.exits.end(), part.exits.begin(), part.exits.end());
          }
        }
        return whole;
      }
      case SpKind::Branch:
        throw std::invalid_argument("series-parallel tree: a probabilistic branch has no single task graph");
    }
    throw std::logic_error("series-parallel tree: unknown node kind");
  }

 private:
  // Every exit before every entry: directly when that takes fewer arcs than a join node.
  void join(const std::vector<NodeId>& exits, const std::vector<NodeId>& entries) {
    if (exits.size() * entries.size() <= exits.size() + entries.size()) {
      for (NodeId u : exits)
        for (NodeId v : entries) graph_.add_arc(u, v);
      return;
    }
    const NodeId junction = graph_.add_node(TaskNode{"join", NodeKind::Join, {}, -1});
    for (NodeId u : exits) graph_.add_arc(u, junction);
    for (NodeId v : entries) graph_.add_arc(junction, v);
  }

  const SpTree& tree_;
  TaskGraph& graph_;
};

}  // namespace

TaskGraph expand(const SpTree& tree, std::size_t max_nodes) {
  const std::int64_t needed = tree.expanded_node_count();
  // Join nodes come on top of the leaves: at most one per series junction, so at most as many
  // again as there are leaves.
  if (needed > static_cast<std::int64_t>(max_nodes / 2)) {
    throw std::length_error("the expanded task graph would have about " + std::to_string(needed) +
                            " task nodes, more than the limit of " + std::to_string(max_nodes / 2));
  }
  TaskGraph graph;
  Expander expander(tree, graph);
  expander.expand(tree.root());
  return graph;
}

}  // namespace graph
