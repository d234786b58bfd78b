#include "graph/dot.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

namespace graph {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

const char* shape_of(NodeKind kind) {
  switch (kind) {
    case NodeKind::Task: return "box";
    case NodeKind::Communication: return "ellipse";
    case NodeKind::Barrier: return "box3d";
    case NodeKind::Contention: return "hexagon";
    case NodeKind::Join: return "point";
    case NodeKind::DynamicPool: return "box";
  }
  return "box";
}

std::string node_label(const TaskNode& node) {
  if (node.kind == NodeKind::Join) return "";
  return node.label + "\n" + distributions::describe(node.runtime);
}

}  // namespace

std::string to_dot(const TaskGraph& graph, const std::string& title) {
  std::string out = fmt::format("digraph \"{}\" {{\n  label=\"{}\";\n  rankdir=TB;\n",
                                escape(title), escape(title));
  std::map<int, std::vector<NodeId>> by_processor;
  for (NodeId v = 0; v < graph.node_count(); ++v) by_processor[graph.node(v).processor].push_back(v);
  for (const auto& [processor, nodes] : by_processor) {
    const bool cluster = processor >= 0;
    if (cluster) {
      out += fmt::format("  subgraph cluster_p{} {{\n    label=\"processor {}\";\n", processor,
                         processor);
    }
    for (NodeId v : nodes) {
      const TaskNode& node = graph.node(v);
      out += fmt::format("{}  n{} [shape={}, label=\"{}\"];\n", cluster ? "  " : "", v,
                         shape_of(node.kind), escape(node_label(node)));
    }
    if (cluster) out += "  }\n";
  }
  for (NodeId v = 0; v < graph.node_count(); ++v) {
    for (NodeId w : graph.successors(v)) out += fmt::format("  n{} -> n{};\n", v, w);
  }
  out += "}\n";
  return out;
}

std::string to_dot(const SpTree& tree, const std::string& title) {
  std::string out = fmt::format("digraph \"{}\" {{\n  label=\"{}\";\n  rankdir=TB;\n",
                                escape(title), escape(title));
  const auto& nodes = tree.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const SpNode& node = nodes[i];
    switch (node.kind) {
      case SpKind::Leaf:
        out += fmt::format("  t{} [shape={}, label=\"{}\"];\n", i, shape_of(node.task.kind),
                           escape(node_label(node.task)));
        break;
      case SpKind::Series:
      case SpKind::Parallel:
      case SpKind::Branch:
        out += fmt::format("  t{} [shape=circle, label=\"{}\"];\n", i, to_string(node.kind));
        break;
      case SpKind::SeriesPower:
        out += fmt::format("  t{} [shape=circle, label=\"series x {}\"];\n", i, node.count);
        break;
      case SpKind::ParallelPower:
        out += fmt::format("  t{} [shape=circle, label=\"parallel x {}\"];\n", i, node.count);
        break;
    }
    for (std::size_t k = 0; k < node.children.size(); ++k) {
      if (node.kind == SpKind::Branch) {
        out += fmt::format("  t{} -> t{} [label=\"{:g}\"];\n", i, node.children[k],
                           node.probabilities[k]);
      } else {
        out += fmt::format("  t{} -> t{};\n", i, node.children[k]);
      }
    }
  }
  out += "}\n";
  return out;
}

}  // namespace graph
