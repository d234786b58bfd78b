#include "analysis/loss.hpp"

#include <algorithm>
#include <optional>
#include <variant>

namespace analysis {

namespace {

void collect_phases(const models::PatternNode& node, std::vector<std::string>& names) {
  if (node.kind == models::PatternNode::Kind::PhaseRef &&
      std::find(names.begin(), names.end(), node.phase) == names.end()) {
    names.push_back(node.phase);
  }
  for (const models::PatternNode& child : node.children) collect_phases(child, names);
}

void make_free(models::WorkPhase& phase) {
  const models::Expr none = models::Expr::constant(0);
  if (phase.runtime) phase.runtime = models::zero_runtime();
  phase.volume = none;
  for (std::optional<models::Subtask>* subtask : {&phase.independent, &phase.dependent}) {
    if (*subtask) {
      (*subtask)->runtime = models::zero_runtime();
      (*subtask)->volume = none;
    }
  }
  if (phase.interarrival) phase.interarrival = models::zero_runtime();
  if (phase.join) phase.join = models::zero_runtime();
  for (models::Task& task : phase.tasks) task.runtime = models::zero_runtime();
  for (models::Arc& arc : phase.arcs) arc.volume = none;
}

bool has_sync(const models::PatternNode& node) {
  // A collective, like a barrier, stays in every phase's case and has its own with the barriers.
  if (node.kind == models::PatternNode::Kind::Sync || node.kind == models::PatternNode::Kind::Collective) return true;
  return std::any_of(node.children.begin(), node.children.end(), has_sync);
}

}  // namespace

bool pattern_has_sync(const models::Program& program) { return has_sync(program.pattern); }

std::vector<std::string> pattern_phases(const models::Program& program) {
  std::vector<std::string> names;
  collect_phases(program.pattern, names);
  return names;
}

models::Program with_only_phase(const models::Program& program, const std::string& kept) {
  models::Program copy = program;
  for (auto& [name, phase] : copy.phases) {
    if (name == kept) continue;
    if (auto* work = std::get_if<models::WorkPhase>(&phase)) {
      make_free(*work);
    } else {
      std::get<models::SequentialPhase>(phase).runtime = models::zero_runtime();
    }
  }
  return copy;
}

}  // namespace analysis
