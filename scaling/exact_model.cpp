// exact_model(): the execution pattern walked once per scenario (sequence, repetition,
// probabilistic alternatives, SYNC), each phase added by its scheme's builder
// (scheme_builders.hpp) onto the scenario's task graph (exact_builder.hpp), which applies the
// concatenations between consecutive work phases.
#include "scaling/exact_model.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>

#include "scaling/exact_builder.hpp"
#include "scaling/scheme_builders.hpp"

namespace scaling {

ExactModelTooLarge::ExactModelTooLarge(std::size_t limit)
    : ScalingError({}, "the exact model has more than " + std::to_string(limit) +
                           " nodes (tasks, messages, barriers and joins), the most it is built with"),
      limit_(limit) {}

namespace {

using detail::ExactBuilder;

std::string location_text(const models::SourceLocation& where) {
  if (where.line == 0) return "the pattern";
  return std::to_string(where.line) + ":" + std::to_string(where.column);
}

// Builds one scenario: the pattern compiled with the choices encoded in a scenario index.
class ScenarioWalk {
 public:
  ScenarioWalk(const models::Program& program, const models::Machine& machine, const models::Environment& environment,
               int p, std::size_t max_nodes, NeighborOrder neighbor_order)
      : program_(program), builder_(program, machine, environment, p, max_nodes, neighbor_order) {}

  // Number of combinations of choices below `node` (saturating at 2^62).
  std::uint64_t scenario_count(const models::PatternNode& node) {
    const auto found = counts_.find(&node);
    if (found != counts_.end()) return found->second;
    constexpr std::uint64_t kCap = std::uint64_t{1} << 62;
    auto times = [&](std::uint64_t a, std::uint64_t b) { return (a != 0 && b > kCap / a) ? kCap : a * b; };
    using Kind = models::PatternNode::Kind;
    std::uint64_t n = 1;
    switch (node.kind) {
      case Kind::Sequence:
        for (const auto& child : node.children) n = times(n, scenario_count(child));
        break;
      case Kind::Repeat: {
        const std::uint64_t per = scenario_count(node.children.front());
        const std::int64_t copies = builder_.count(node.count, node.location, "repetition count");
        for (std::int64_t i = 0; i < copies && per > 1 && n < kCap; ++i) n = times(n, per);
        break;
      }
      case Kind::Alternatives:
        n = 0;
        for (const auto& child : node.children) n = std::min(kCap, n + scenario_count(child));
        break;
      case Kind::PhaseRef:
      case Kind::Sync:
      case Kind::Collective: break;
    }
    counts_[&node] = n;
    return n;
  }

  Scenario build(std::uint64_t index) {
    compile(program_.pattern, index);
    builder_.finish(program_.pattern.location);
    Scenario scenario;
    scenario.probability = probability_;
    scenario.description = description_;
    scenario.graph = builder_.take_graph();
    return scenario;
  }

 private:
  void compile(const models::PatternNode& node, std::uint64_t index) {
    using Kind = models::PatternNode::Kind;
    switch (node.kind) {
      case Kind::Sequence:
        for (const auto& child : node.children) {
          const std::uint64_t n = scenario_count(child);
          compile(child, index % n);
          index /= n;
        }
        return;
      case Kind::Repeat: {
        const std::int64_t copies = builder_.count(node.count, node.location, "repetition count");
        const std::uint64_t n = scenario_count(node.children.front());
        for (std::int64_t i = 0; i < copies; ++i) {
          compile(node.children.front(), index % n);
          index /= n;
        }
        return;
      }
      case Kind::Alternatives: alternative(node, index); return;
      case Kind::PhaseRef: phase(node.phase, node.location); return;
      case Kind::Sync:
        if (detail::barrier_sends_messages(builder_.machine())) {
          detail::exact_collective(builder_, detail::barrier_of(builder_), node.location);
          return;
        }
        builder_.synchronise(builder_.barrier_seconds(node.location), node.location);
        builder_.forget_last_phase();
        return;
      case Kind::Collective:
        detail::exact_collective(builder_, detail::collective_of(builder_, node), node.location);
        return;
    }
  }

  // The branch that `index` chooses.
  void alternative(const models::PatternNode& node, std::uint64_t index) {
    std::size_t branch = 0;
    while (branch + 1 < node.children.size() && index >= scenario_count(node.children[branch])) {
      index -= scenario_count(node.children[branch]);
      ++branch;
    }
    const double probability = builder_.value(node.probabilities[branch], node.location, "branch probability");
    probability_ *= probability;
    if (!description_.empty()) description_ += "; ";
    description_ += "branch " + std::to_string(branch + 1) + " of " + std::to_string(node.children.size()) + " at " +
                    location_text(node.location);
    // Alternatives are closed on both sides, as in the approximate model.
    builder_.synchronise(0.0, node.location);
    builder_.forget_last_phase();
    compile(node.children[branch], index);
    builder_.synchronise(0.0, node.location);
    builder_.forget_last_phase();
  }

  void phase(const std::string& name, const models::SourceLocation& where) {
    if (const models::SequentialPhase* sequential = models::find_sequential_phase(program_, name)) {
      detail::exact_sequential(builder_, *sequential, where);
      return;
    }
    const models::WorkPhase* work = models::find_work_phase(program_, name);
    if (work == nullptr) throw ScalingError(where, "no phase named '" + name + "'");
    detail::builders_of(work->scheme).exact(builder_, *work);
    builder_.finished_work_phase(name);
  }

  const models::Program& program_;
  ExactBuilder builder_;
  double probability_ = 1.0;
  std::string description_;
  std::map<const models::PatternNode*, std::uint64_t> counts_;
};

}  // namespace

ExactModel exact_model(const models::Program& program, const models::Machine& machine,
                       const models::Environment& environment, int p, const ExactModelOptions& options) {
  if (p < 1 || p > kMaxProcessors) {
    throw std::invalid_argument("processor count must be in [1, " + std::to_string(kMaxProcessors) + "], got " +
                                std::to_string(p));
  }
  const std::uint64_t scenarios =
      ScenarioWalk(program, machine, environment, p, options.max_nodes, options.neighbor_order)
          .scenario_count(program.pattern);
  if (scenarios > options.max_scenarios) {
    throw ScalingError(
        program.pattern.location,
        "the exact model has " +
            (scenarios >= (std::uint64_t{1} << 62) ? std::string("more than 2^62") : std::to_string(scenarios)) +
            " scenarios (combinations of probabilistic alternatives), more than the limit of " +
            std::to_string(options.max_scenarios) + "; use the approximate model");
  }
  ExactModel model;
  std::size_t nodes = 0;
  for (std::uint64_t s = 0; s < scenarios; ++s) {
    ScenarioWalk builder(program, machine, environment, p, options.max_nodes - nodes, options.neighbor_order);
    Scenario scenario = builder.build(s);
    nodes += scenario.graph.node_count();
    if (scenario.probability > 0.0) model.scenarios.push_back(std::move(scenario));
  }
  return model;
}

}  // namespace scaling
