#include "models/program.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace models {

const char* to_string(DistKind kind) {
  switch (kind) {
    case DistKind::Deterministic: return "DETERMINISTIC";
    case DistKind::Exponential: return "EXPONENTIAL";
    case DistKind::Erlang: return "ERLANG";
    case DistKind::GeneralErlang: return "GERLANG";
    case DistKind::HyperExponential: return "HYPEREXPONENTIAL";
    case DistKind::Uniform: return "UNIFORM";
    case DistKind::Normal: return "NORMAL";
    case DistKind::LogNormal: return "LOGNORMAL";
    case DistKind::Weibull: return "WEIBULL";
    case DistKind::Pareto: return "PARETO";
    case DistKind::PhaseType: return "PHASETYPE";
    case DistKind::Mixture: return "MIXTURE";
    case DistKind::Samples: return "SAMPLES";
    case DistKind::Histogram: return "HISTOGRAM";
    case DistKind::Numerical: return "NUMERICAL";
  }
  return "?";
}

namespace {

std::string join(const std::vector<Expr>& exprs, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end && i < exprs.size(); ++i) {
    if (i > begin) out += ", ";
    out += to_string(exprs[i]);
  }
  return out;
}

std::string quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';  // a quote inside a PDL string is doubled
  }
  return out + "'";
}

}  // namespace

std::string to_string(const RuntimeSpec& spec) {
  std::string out = to_string(spec.kind);
  out += '(';
  switch (spec.kind) {
    case DistKind::Numerical:
      out += quote(spec.file);
      if (spec.smoothing != Smoothing::Empirical) out += std::string{", "} + to_string(spec.smoothing);
      break;
    case DistKind::PhaseType: {
      const std::size_t n = spec.order;
      out += '[' + join(spec.params, 0, n) + "], [";
      for (std::size_t row = 0; row < n; ++row) {
        if (row > 0) out += ", ";
        out += '[' + join(spec.params, n + row * n, n + (row + 1) * n) + ']';
      }
      out += ']';
      break;
    }
    case DistKind::Mixture:
      for (std::size_t i = 0; i < spec.params.size(); ++i) {
        if (i > 0) out += ", ";
        out += to_string(spec.params[i]);
        out += ", ";
        out += i < spec.components.size() ? to_string(spec.components[i]) : std::string("?");
      }
      break;
    default: out += join(spec.params, 0, spec.params.size()); break;
  }
  return out + ')';
}

RuntimeSpec zero_runtime() {
  RuntimeSpec spec;
  spec.kind = DistKind::Deterministic;
  spec.params.push_back(Expr::constant(0.0));
  return spec;
}

std::string resolve_file(const std::string& file, const std::string& machine_name) {
  static constexpr std::string_view kArch = "$ARCH";
  std::string out;
  for (std::size_t i = 0; i < file.size();) {
    if (file.compare(i, kArch.size(), kArch) == 0) {
      out += machine_name;
      i += kArch.size();
    } else {
      out += file[i++];
    }
  }
  return out;
}

namespace {

void print(const PatternNode& node, std::string& out, bool nested) {
  switch (node.kind) {
    case PatternNode::Kind::PhaseRef: out += node.phase; return;
    case PatternNode::Kind::Sync: out += "SYNC"; return;
    case PatternNode::Kind::Collective:
      out += std::string(to_string(node.collective)) + '(' + to_string(node.volume) + ')';
      return;
    case PatternNode::Kind::Repeat: {
      const PatternNode& body = node.children.at(0);
      const bool group = body.kind != PatternNode::Kind::PhaseRef && body.kind != PatternNode::Kind::Sync &&
                         body.kind != PatternNode::Kind::Collective;
      if (group) out += '(';
      print(body, out, false);
      if (group) out += ')';
      out += '{' + to_string(node.count) + '}';
      return;
    }
    case PatternNode::Kind::Sequence:
      if (nested && node.children.size() > 1) out += '(';
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out += " -> ";
        print(node.children[i], out, true);
      }
      if (nested && node.children.size() > 1) out += ')';
      return;
    case PatternNode::Kind::Alternatives:
      out += '(';
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out += " | ";
        if (i < node.probabilities.size()) out += to_string(node.probabilities[i]) + ": ";
        print(node.children[i], out, false);
      }
      out += ')';
      return;
  }
}

}  // namespace

std::string to_string(const PatternNode& pattern) {
  std::string out;
  print(pattern, out, false);
  return out;
}

const char* to_string(Scheme scheme) {
  switch (scheme) {
    case Scheme::Independent: return "INDEPENDENT";
    case Scheme::Neighbor: return "NEIGHBOR";
    case Scheme::NeighborTorus: return "NEIGHBOR-TORUS";
    case Scheme::Macropipeline: return "MACROPIPELINE";
    case Scheme::ForkJoin: return "FORK-JOIN";
    case Scheme::Paired: return "PAIRED";
    case Scheme::Arbitrary: return "ARBITRARY";
  }
  return "?";
}

const char* to_string(Scheduling scheduling) {
  switch (scheduling) {
    case Scheduling::Block: return "BLOCK";
    case Scheduling::Cyclic: return "CYCLIC";
    case Scheduling::Dynamic: return "DYNAMIC";
  }
  return "?";
}

const char* to_string(Shape shape) { return shape == Shape::Vector ? "VECTOR" : "GRID"; }
const char* to_string(Decomposition decomposition) { return decomposition == Decomposition::OneD ? "1D" : "2D"; }

const char* to_string(Concatenation concatenation) {
  switch (concatenation) {
    case Concatenation::Neighbor: return "NEIGHBOR";
    case Concatenation::NeighborTorus: return "NEIGHBOR-TORUS";
    case Concatenation::Torus: return "TORUS";
    case Concatenation::Serial: return "SERIAL";
    case Concatenation::Barrier: return "BARRIER";
  }
  return "?";
}

namespace {

void add_pattern_sizes(const PatternNode& node, std::vector<const Expr*>& out) {
  if (node.kind == PatternNode::Kind::Repeat) out.push_back(&node.count);
  for (const Expr& probability : node.probabilities) out.push_back(&probability);
  for (const PatternNode& child : node.children) add_pattern_sizes(child, out);
}

}  // namespace

std::vector<const Expr*> size_expressions(const Program& program) {
  std::vector<const Expr*> out;
  add_pattern_sizes(program.pattern, out);
  for (const auto& entry : program.phases) {
    const auto* phase = std::get_if<WorkPhase>(&entry.second);
    if (phase == nullptr) continue;
    if (phase->problem_size) {
      for (const Expr& extent : phase->problem_size->extents) out.push_back(&extent);
    }
    for (const Expr& distance : phase->dependencies) out.push_back(&distance);
    for (const auto* count : {&phase->units, &phase->jobs, &phase->stages, &phase->tasks_per_job}) {
      if (*count) out.push_back(&**count);
    }
  }
  return out;
}

bool declares_variable(const Program& program, const std::string& name) {
  return std::any_of(program.variables.begin(), program.variables.end(),
                     [&](const Variable& variable) { return variable.name == name; });
}

const WorkPhase* find_work_phase(const Program& program, const std::string& name) {
  const auto it = program.phases.find(name);
  return it == program.phases.end() ? nullptr : std::get_if<WorkPhase>(&it->second);
}

const SequentialPhase* find_sequential_phase(const Program& program, const std::string& name) {
  const auto it = program.phases.find(name);
  return it == program.phases.end() ? nullptr : std::get_if<SequentialPhase>(&it->second);
}

const Concatenation* find_concatenation(const Program& program, const std::string& first, const std::string& second) {
  const auto it = program.concatenations.find({first, second});
  return it == program.concatenations.end() ? nullptr : &it->second;
}

}  // namespace models
