#include "analysis/sequential_time.hpp"
#include "graph/adjacency_list.hpp"

#include <cmath>

#include "distributions/distribution.hpp"

namespace analysis {

namespace {

// Neumaier's compensated sum: a chain of 10^5 task means adds up to the correctly rounded total
// in all but contrived cases, so T(1) of a program whose every mean is exact is exact too.
class CompensatedSum {
 public:
  void add(double value) {
    const double total = sum_ + value;
    compensation_ += std::abs(sum_) >= std::abs(value) ? (sum_ - total) + value : (value - total) + sum_;
    sum_ = total;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

// The mean of a graph whose tasks all run one after another (consecutive nodes of its
// topological order joined by an arc, so the order is the only one and every path is part of
// it): the sum of the means, exact by linearity, each with its bracket; a dynamically scheduled
// pool on one processor is its tasks in series. Nothing for any other graph, and for a pool
// shared by several processors (not a fixed sum).
std::optional<distributions::Bracket> chain_mean(const graph::TaskGraph& g) {
  if (g.node_count() == 0) return std::nullopt;
  const std::vector<graph::NodeId> order = graph::topological_order(g);
  CompensatedSum lower, upper;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const graph::TaskNode& node = g.node(order[k]);
    // A pool on one processor runs its tasks one after another: pool_tasks means in series.
    if (node.kind == graph::NodeKind::DynamicPool && node.pool_processors > 1) return std::nullopt;
    if (k > 0 && !boost::edge(order[k - 1], order[k], g.boost_graph()).second) return std::nullopt;
    const distributions::Bracket mean = distributions::mean_bracket(node.runtime);
    const double copies = node.kind == graph::NodeKind::DynamicPool ? static_cast<double>(node.pool_tasks) : 1.0;
    lower.add(copies * mean.lower);
    upper.add(copies * mean.upper);
  }
  return distributions::Bracket{lower.value(), upper.value()};
}

}  // namespace

std::optional<solvers::Result> one_processor_time(const scaling::ExactModel& exact) {
  solvers::Result total;
  total.method = solvers::Method::SeriesParallel;
  total.detail = "the exact model on one processor: a chain, its mean the sum of the task means";
  for (const scaling::Scenario& scenario : exact.scenarios) {
    const auto mean = chain_mean(scenario.graph);
    if (!mean) return std::nullopt;
    total.lower += scenario.probability * mean->lower;
    total.upper += scenario.probability * mean->upper;
  }
  total.mean = 0.5 * (total.lower + total.upper);
  return total;
}

}  // namespace analysis
