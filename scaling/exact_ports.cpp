// How each port serves its messages (docs/semantics.md M12, M13). A task graph has no queues:
// what a port does is fixed when the graph is built, on the schedule where every node takes its
// mean time (for deterministic tasks, the schedule itself).
// - First come, first served (M12): a port is an order of its messages, like a processor's
//   order of its tasks, each message on the first free of its processor's k ports of that
//   direction, whatever its step: a next iteration's message ready first goes first, so a port's
//   arcs may go back a step (the bounds then partition otherwise than by steps:
//   solvers/bounds_reduction.cpp, steps_go_forward).
// - Fair sharing (M13): the ports' capacity shared max-min among the messages that hold them
//   at once (fair_ports.hpp); each message's two port nodes last the time it then took, and no
//   arc joins a port's messages.
#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "scaling/exact_builder.hpp"
#include "scaling/fair_ports.hpp"

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
  if (machine().port_sharing == models::PortSharing::Fair) {
    share_ports_fairly();
    return;
  }
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
  std::vector<double> free(2 * static_cast<std::size_t>(bound_.node_count()) * k, 0.0);
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

// The mean schedule as events in time order: a node ends its mean time after it starts, a
// message's two port nodes (port_uses_ in pairs, sending port first) when fair sharing has sent
// it; every node starts when its last predecessor ends.
void ExactBuilder::share_ports_fairly() {
  const std::size_t n = graph_.node_count();
  constexpr std::size_t kNoMessage = static_cast<std::size_t>(-1);
  std::vector<std::size_t> message_of(n, kNoMessage);
  for (std::size_t i = 0; i < port_uses_.size(); ++i) message_of[port_uses_[i].node] = i / 2;
  const std::size_t messages = port_uses_.size() / 2;
  std::vector<double> started(messages, -1.0);
  std::vector<std::size_t> use_of_flow;  // FairPorts' message number: its first port use
  FairPorts network(2 * static_cast<std::size_t>(bound_.node_count()), static_cast<double>(ports()));
  using Event = std::pair<double, NodeId>;  // a node's end
  std::priority_queue<Event, std::vector<Event>, std::greater<>> ends;
  std::vector<std::size_t> waiting(n);
  const auto begin = [&](NodeId v, double at) {
    const std::size_t message = message_of[v];
    if (message == kNoMessage) {
      ends.emplace(at + mean_seconds(graph_.node(v)), v);
    } else if (started[message] < 0.0) {  // its other port node starts with it: the same arcs in
      started[message] = at;
      network.add(at, port_uses_[2 * message].port, port_uses_[2 * message + 1].port, mean_seconds(graph_.node(v)),
                  port_uses_[2 * message].connection);
      use_of_flow.push_back(2 * message);
    }
  };
  const auto end = [&](NodeId v, double at) {
    for (const NodeId w : graph_.successors(v)) {
      if (--waiting[w] == 0) begin(w, at);
    }
  };
  for (NodeId v = 0; v < n; ++v) waiting[v] = graph_.in_degree(v);
  for (NodeId v = 0; v < n; ++v) {
    if (waiting[v] == 0) begin(v, 0.0);
  }
  for (;;) {
    const double shared = network.next_finish();
    if (!ends.empty() && ends.top().first <= shared) {
      const auto [at, v] = ends.top();
      ends.pop();
      end(v, at);
      continue;
    }
    if (std::isinf(shared)) break;  // nothing left under way
    const FairPorts::Finished finished = network.pop_finished();
    for (const std::size_t flow : finished.messages) {
      const std::size_t use = use_of_flow[flow];
      const double took = finished.at - started[use / 2];
      for (const std::size_t u : {use, use + 1}) {
        graph_.node(port_uses_[u].node).runtime = distributions::deterministic(took);
        end(port_uses_[u].node, finished.at);
      }
    }
  }
  port_uses_.clear();
}

}  // namespace scaling::detail
