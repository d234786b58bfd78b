// The order in which each port serves its messages (docs/semantics.md M12). A task graph has
// no queues: a port is an order of its messages, like a processor's order of its tasks, fixed
// when the graph is built. The order is first come, first served on the schedule where every
// node takes its mean time (for deterministic tasks, the schedule itself), each message on the
// first free of its processor's k ports of that direction, whatever its step: a next
// iteration's message ready first goes first, so a port's arcs may go back a step (the bounds
// then partition otherwise than by steps: solvers/bounds_reduction.cpp, steps_go_forward).
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "scaling/exact_builder.hpp"

namespace scaling::detail {

namespace {

// A node's time on the mean schedule; a pool of DYNAMIC tasks its tasks' rounds.
double mean_seconds(const graph::TaskNode& node) {
  const double one = distributions::mean(node.runtime);
  if (node.kind != NodeKind::DynamicPool || node.pool_processors <= 0) return one;
  const std::int64_t rounds = (node.pool_tasks + node.pool_processors - 1) / node.pool_processors;
  return one * static_cast<double>(rounds);
}

}  // namespace

void ExactBuilder::order_ports() {
  if (port_uses_.empty()) return;
  const std::size_t n = graph_.node_count();
  constexpr std::size_t kNoPort = static_cast<std::size_t>(-1);
  std::vector<std::size_t> port_of(n, kNoPort);
  for (const PortUse& use : port_uses_) port_of[use.node] = use.port;
  // The mean schedule, node by node in the order they become ready (ties by node number), each
  // port serving its messages as they come.
  std::vector<double> ready(n, 0.0);
  std::vector<std::size_t> waiting(n);
  using Event = std::pair<double, NodeId>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (NodeId v = 0; v < n; ++v) {
    waiting[v] = graph_.in_degree(v);
    if (waiting[v] == 0) events.emplace(0.0, v);
  }
  const auto k = static_cast<std::size_t>(ports());
  std::vector<double> free(2 * static_cast<std::size_t>(p_) * k, 0.0);
  std::vector<std::vector<NodeId>> served(free.size());
  while (!events.empty()) {
    const auto [at, v] = events.top();
    events.pop();
    double end = at + mean_seconds(graph_.node(v));
    if (port_of[v] != kNoPort) {
      const auto first = free.begin() + static_cast<std::ptrdiff_t>(port_of[v] * k);
      const auto port = std::min_element(first, first + static_cast<std::ptrdiff_t>(k));
      end += std::max(0.0, *port - at);  // it waits for the port
      *port = end;
      served[static_cast<std::size_t>(port - free.begin())].push_back(v);
    }
    for (const NodeId w : graph_.successors(v)) {
      ready[w] = std::max(ready[w], end);
      if (--waiting[w] == 0) events.emplace(ready[w], w);
    }
  }
  for (const std::vector<NodeId>& order : served) {
    for (std::size_t i = 1; i < order.size(); ++i) arc(order[i - 1], order[i]);
  }
  port_uses_.clear();
}

}  // namespace scaling::detail
