#include "graph/dot.hpp"

#include <fmt/format.h>

#include <map>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "distributions/queries.hpp"

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

std::string number(double value) { return fmt::format("{:.6g}", value); }

// At most this many values of a parameter list are written; a label is for reading.
constexpr std::size_t kShownValues = 6;

// "1, 2, 3" of f(values), cut after kShownValues with the count of `what`.
template <typename F>
std::string values_text(std::size_t count, F value, const char* what) {
  std::string text;
  for (std::size_t k = 0; k < count && k < kShownValues; ++k) text += (k == 0 ? "" : ", ") + value(k);
  if (count > kShownValues) text += fmt::format(", … {} {}", count, what);
  return text;
}

// PDL text without the mean.
std::string pdl_text(const distributions::Distribution& d) {
  using Kind = distributions::ClosedFormParameters::Kind;
  const auto closed = distributions::closed_form(d);
  if (!closed) return fmt::format("measured ({}-point grid)", distributions::grid_size(d));
  const distributions::ClosedFormParameters& p = *closed;
  switch (p.kind) {
    case Kind::Deterministic: return fmt::format("DETERMINISTIC({})", number(p.value));
    case Kind::Exponential: return fmt::format("EXPONENTIAL({})", number(1.0 / p.rate));
    case Kind::Erlang: return fmt::format("ERLANG({}, {})", p.phases, number(1.0 / p.rate));
    case Kind::Hypoexponential:
      return fmt::format("GERLANG({})",
                         values_text(
                             p.rates.size(), [&](std::size_t k) { return number(1.0 / p.rates[k]); }, "stages"));
    case Kind::Hyperexponential:
      return fmt::format(
          "HYPEREXPONENTIAL({})",
          values_text(
              p.rates.size(),
              [&](std::size_t k) { return number(p.probabilities[k]) + ", " + number(1.0 / p.rates[k]); }, "branches"));
    case Kind::Uniform: return fmt::format("UNIFORM({}, {})", number(p.low), number(p.high));
    case Kind::TruncatedNormal: return fmt::format("NORMAL({}, {})", number(p.mu), number(p.sigma));
    case Kind::LogNormal: return fmt::format("LOGNORMAL({}, {})", number(p.mu), number(p.sigma));
    case Kind::Weibull: return fmt::format("WEIBULL({}, {})", number(p.shape), number(p.scale));
    case Kind::Pareto: return fmt::format("PARETO({}, {})", number(p.shape), number(p.scale));
    case Kind::PhaseType: return fmt::format("PHASETYPE of {} phases", p.alpha.size());
    case Kind::Mixture:
      return fmt::format(
          "MIXTURE({})",
          values_text(
              p.weights.size(), [&](std::size_t k) { return number(p.weights[k]) + ", " + pdl_text(p.components[k]); },
              "components"));
    case Kind::Shifted: return fmt::format("{} + {}", pdl_text(*p.base), number(p.offset));
  }
  return distributions::describe(d);
}

std::string node_label(const TaskNode& node) {
  if (node.kind == NodeKind::Join) return "";
  if (node.kind == NodeKind::DynamicPool) {
    if (node.pool_master) {
      return fmt::format("{}\n{} tasks from a master to {} workers, each {}, the master {} a task", node.label,
                         node.pool_tasks, node.pool_processors, pdl_runtime(node.runtime),
                         pdl_runtime(node.pool_master->service));
    }
    return fmt::format("{}\n{} tasks from one queue on {} processors, each {}", node.label, node.pool_tasks,
                       node.pool_processors, pdl_runtime(node.runtime));
  }
  return node.label + "\n" + pdl_runtime(node.runtime);
}

// The series-parallel tree drawn as the graph it stands for; each draw() returns the entry and
// exit node of what it drew.
class SpDrawing {
 public:
  explicit SpDrawing(const SpTree& tree) : tree_(tree) {}

  std::string draw() {
    draw(tree_.root(), 1);
    return std::move(out_);
  }

 private:
  struct Ends {
    std::string source, sink;
  };

  std::string indent(int depth) const { return std::string(2 * static_cast<std::size_t>(depth), ' '); }

  std::string node(int depth, const std::string& shape, const std::string& label) {
    // A subtree used in several places is drawn in each: a tree that shares deeply could
    // stand for more nodes than anyone can draw.
    if (next_ >= kMaxDrawnNodes) {
      throw DrawingTooLarge(fmt::format("the drawing has more than {} nodes", kMaxDrawnNodes));
    }
    const std::string id = fmt::format("t{}", next_++);
    out_ += fmt::format("{}{} [shape={}, label=\"{}\"];\n", indent(depth), id, shape, escape(label));
    return id;
  }

  void edge(int depth, const std::string& from, const std::string& to, const std::string& label = "") {
    out_ += label.empty() ? fmt::format("{}{} -> {};\n", indent(depth), from, to)
                          : fmt::format("{}{} -> {} [label=\"{}\"];\n", indent(depth), from, to, escape(label));
  }

  Ends draw(std::size_t index, int depth) {
    const SpNode& n = tree_.node(index);
    switch (n.kind) {
      case SpKind::Leaf: {
        const std::string id = node(depth, shape_of(n.task.kind), node_label(n.task));
        return {id, id};
      }
      case SpKind::Series: {
        Ends whole;
        for (std::size_t k = 0; k < n.children.size(); ++k) {
          const Ends part = draw(n.children[k], depth);
          if (k == 0)
            whole.source = part.source;
          else
            edge(depth, whole.sink, part.source);
          whole.sink = part.sink;
        }
        return whole;
      }
      case SpKind::Parallel:
      case SpKind::Branch: {
        const bool branch = n.kind == SpKind::Branch;
        const Ends whole{node(depth, "diamond", branch ? "branch" : "fork"),
                         node(depth, "diamond", branch ? "end of branch" : "join (the latest)")};
        for (std::size_t k = 0; k < n.children.size(); ++k) {
          const Ends part = draw(n.children[k], depth);
          edge(depth, whole.source, part.source, branch ? fmt::format("{:g}", n.probabilities[k]) : "");
          edge(depth, part.sink, whole.sink);
        }
        return whole;
      }
      case SpKind::SeriesPower:
      case SpKind::ParallelPower: {
        out_ += fmt::format("{}subgraph cluster_{} {{\n{}  label=\"× {} in {}\";\n", indent(depth), clusters_++,
                            indent(depth), n.count, n.kind == SpKind::SeriesPower ? "series" : "parallel");
        const Ends part = draw(n.children.front(), depth + 1);
        out_ += indent(depth) + "}\n";
        return part;
      }
    }
    return {};
  }

  static constexpr std::size_t kMaxDrawnNodes = 1'000'000;
  const SpTree& tree_;
  std::string out_;
  std::size_t next_ = 0;
  std::size_t clusters_ = 0;
};

}  // namespace

std::string pdl_runtime(const distributions::Distribution& runtime) {
  const std::string text = pdl_text(runtime);
  const auto closed = distributions::closed_form(runtime);
  if (closed && closed->kind == distributions::ClosedFormParameters::Kind::Deterministic) return text;
  return fmt::format("{}: mean {}", text, number(distributions::mean(runtime)));
}

std::string to_dot(const TaskGraph& graph, const std::string& title) {
  std::string out = fmt::format("digraph \"{}\" {{\n  label=\"{}\";\n  rankdir=TB;\n", escape(title), escape(title));
  std::map<int, std::vector<NodeId>> by_processor;
  for (NodeId v = 0; v < graph.node_count(); ++v) by_processor[graph.node(v).processor].push_back(v);
  for (const auto& [processor, nodes] : by_processor) {
    const bool cluster = processor >= 0;
    if (cluster) {
      out += fmt::format("  subgraph cluster_p{} {{\n    label=\"processor {}\";\n", processor, processor);
    }
    for (NodeId v : nodes) {
      const TaskNode& node = graph.node(v);
      out += fmt::format("{}  n{} [shape={}, label=\"{}\"];\n", cluster ? "  " : "", v, shape_of(node.kind),
                         escape(node_label(node)));
    }
    if (cluster) out += "  }\n";
  }
  std::vector<NodeId> sources, sinks;
  for (NodeId v = 0; v < graph.node_count(); ++v) {
    if (graph.in_degree(v) == 0) sources.push_back(v);
    if (graph.out_degree(v) == 0) sinks.push_back(v);
  }
  // One entry and one exit for the drawing: the program starts at once on every processor
  // that has a first task, and ends when the last one ends.
  if (sources.size() > 1) {
    out += "  start [shape=circle, label=\"start\"];\n";
    for (NodeId v : sources) out += fmt::format("  start -> n{};\n", v);
  }
  for (NodeId v = 0; v < graph.node_count(); ++v) {
    for (NodeId w : graph.successors(v)) out += fmt::format("  n{} -> n{};\n", v, w);
  }
  if (sinks.size() > 1) {
    out += "  end [shape=doublecircle, label=\"end\"];\n";
    for (NodeId v : sinks) out += fmt::format("  n{} -> end;\n", v);
  }
  out += "}\n";
  return out;
}

std::string to_dot(const SpTree& tree, const std::string& title) {
  std::string out = fmt::format("digraph \"{}\" {{\n  label=\"{}\";\n  rankdir=TB;\n", escape(title), escape(title));
  if (!tree.empty()) out += SpDrawing(tree).draw();
  out += "}\n";
  return out;
}

}  // namespace graph
