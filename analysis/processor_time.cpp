#include "analysis/processor_time.hpp"

#include "distributions/distribution.hpp"

#include <unordered_map>

namespace analysis {

namespace {

// The mean and bracket of each law, once: the builders share one law among the tasks that have
// it, and a measured law's mean takes a pass over its grid.
class Means {
 public:
  const Total& of(const distributions::Distribution& law) {
    auto found = known_.find(&law.node());
    if (found == known_.end()) {
      const distributions::Bracket bracket = distributions::mean_bracket(law);
      found = known_.emplace(&law.node(), Total{distributions::mean(law), bracket.lower, bracket.upper}).first;
    }
    return found->second;
  }

 private:
  std::unordered_map<const void*, Total> known_;
};

void add(Total& total, const Total& mean, double weight) {
  total.estimate += weight * mean.estimate;
  total.lower += weight * mean.lower;
  total.upper += weight * mean.upper;
}

}  // namespace

ProcessorTime processor_time(const scaling::ExactModel& model) {
  ProcessorTime busy;
  Means means;
  for (const scaling::Scenario& scenario : model.scenarios) {
    const graph::TaskGraph& g = scenario.graph;
    const double weight = scenario.probability;
    for (graph::NodeId v = 0; v < g.node_count(); ++v) {
      const graph::TaskNode& node = g.node(v);
      const bool on_processor = node.processor >= 0;
      switch (node.kind) {
        case graph::NodeKind::Task:
          if (on_processor) add(busy.computation, means.of(node.runtime), weight);
          break;
        case graph::NodeKind::DynamicPool:
          add(busy.computation, means.of(node.runtime), weight * static_cast<double>(node.pool_tasks));
          break;
        case graph::NodeKind::Communication:
          if (!node.in_flight) add(busy.communication, means.of(node.runtime), weight);
          break;
        case graph::NodeKind::Contention:
          add(on_processor ? busy.contention : busy.stall, means.of(node.runtime), weight);
          break;
        case graph::NodeKind::Barrier: add(busy.stall, means.of(node.runtime), weight); break;
        case graph::NodeKind::Join: break;
      }
    }
  }
  return busy;
}

}  // namespace analysis
