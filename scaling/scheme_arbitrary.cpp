// ARBITRARY: the phase's own task graph (tasks, arcs with volumes). A task's level is the
// longest chain of arcs into it; it runs on processor k mod p (ON PROCESSOR k) or, without
// one, on the processors in turn within its level.
// Exact: the tasks and arcs as given (a message on an arc across processors), each processor
// its tasks level by level; closed at both ends. Approximate: the levels one after the other,
// each the maximum over processors of their tasks in series, after the messages into it.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {
namespace {

// Per task (by index): the tasks its arcs come from, with their volumes in bytes.
using Incoming = std::vector<std::vector<std::pair<std::size_t, double>>>;

template <class Builder>
Incoming incoming_arcs(const Builder& builder, const models::WorkPhase& phase) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < phase.tasks.size(); ++i) index[phase.tasks[i].name] = i;
  Incoming incoming(phase.tasks.size());
  for (const models::Arc& arc : phase.arcs) {
    incoming[index.at(arc.to)].emplace_back(index.at(arc.from),
                                            builder.value(arc.volume, arc.location, "communication volume"));
  }
  return incoming;
}

// The processor of the k-th task of its level.
template <class Builder>
int processor_of_task(const Builder& builder, const models::Task& task, std::size_t k) {
  std::int64_t where = static_cast<std::int64_t>(k);
  if (task.processor) where = builder.count(*task.processor, task.location, "processor");
  return static_cast<int>(where % builder.processors());
}

// Longest-path levels by repeated relaxation in a topological order (Kahn).
std::vector<std::int64_t> kahn_levels(const models::WorkPhase& phase, const Incoming& incoming) {
  const std::size_t n = phase.tasks.size();
  std::vector<std::vector<std::size_t>> outgoing(n);
  std::vector<std::size_t> waiting(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (const auto& [u, bytes] : incoming[v]) {
      outgoing[u].push_back(v);
      ++waiting[v];
    }
  }
  std::vector<std::size_t> order;
  for (std::size_t v = 0; v < n; ++v)
    if (waiting[v] == 0) order.push_back(v);
  std::vector<std::int64_t> depth(n, 0);
  for (std::size_t head = 0; head < order.size(); ++head) {
    for (std::size_t v : outgoing[order[head]]) {
      depth[v] = std::max(depth[v], depth[order[head]] + 1);
      if (--waiting[v] == 0) order.push_back(v);
    }
  }
  if (order.size() != n) throw ScalingError(phase.location, "the task graph of the phase has a cycle");
  return depth;
}

// Longest-path levels by depth-first search (the checker has rejected cycles; tasks may come
// in any order).
std::vector<std::int64_t> depth_first_levels(const models::WorkPhase& phase, const Incoming& incoming) {
  std::vector<std::int64_t> depth(phase.tasks.size(), -1);
  std::vector<std::size_t> stack;
  for (std::size_t start = 0; start < phase.tasks.size(); ++start) {
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t v = stack.back();
      if (depth[v] >= 0) {
        stack.pop_back();
        continue;
      }
      bool ready = true;
      std::int64_t d = 0;
      for (const auto& [u, bytes] : incoming[v]) {
        if (depth[u] < 0) {
          ready = false;
          stack.push_back(u);
        } else {
          d = std::max(d, depth[u] + 1);
        }
      }
      if (stack.size() > 4 * phase.tasks.size() + 4) {
        throw ScalingError(phase.location, "the task graph of the phase has a cycle");
      }
      if (ready) {
        depth[v] = d;
        stack.pop_back();
      }
    }
  }
  return depth;
}

// The task indices of each level, in index order within a level.
std::map<std::int64_t, std::vector<std::size_t>> levels_of(const std::vector<std::int64_t>& depth) {
  std::map<std::int64_t, std::vector<std::size_t>> levels;
  for (std::size_t i = 0; i < depth.size(); ++i) levels[depth[i]].push_back(i);
  return levels;
}

// Each task's processor (A1).
template <class Builder>
std::vector<int> processors_of(const Builder& builder, const models::WorkPhase& phase,
                               const std::map<std::int64_t, std::vector<std::size_t>>& levels) {
  std::vector<int> processor(phase.tasks.size());
  for (const auto& [d, members] : levels) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      processor[members[k]] = processor_of_task(builder, phase.tasks[members[k]], k);
    }
  }
  return processor;
}

// A message: its sending task, receiving processor and bytes (M5).
using Message = std::tuple<std::size_t, int, double>;

// The bandwidth-sharing factor S of every message: the messages into one level are one step,
// each message counted in the level of its first receiving task (tasks in declaration order,
// arcs in order, as A3 attributes it). An arc of 0 bytes is no message (M3) and shares nothing.
// Empty (S = 1 for all) where the topology never shares.
template <class Builder>
std::map<Message, double> message_sharing(const Builder& builder, const Incoming& incoming,
                                          const std::vector<std::int64_t>& depth, const std::vector<int>& processor) {
  std::map<Message, double> sharing;
  if (!builder.shares_bandwidth()) return sharing;
  std::map<Message, std::int64_t> level_of;
  std::map<std::int64_t, std::vector<Transfer>> step;
  for (std::size_t v = 0; v < incoming.size(); ++v) {
    for (const auto& [u, bytes] : incoming[v]) {
      if (bytes == 0.0 || processor[u] == processor[v] ||
          !level_of.emplace(Message{u, processor[v], bytes}, depth[v]).second) {
        continue;
      }
      step[depth[v]].push_back({processor[u], processor[v]});
    }
  }
  std::map<std::int64_t, double> of_level;
  for (const auto& [d, transfers] : step) of_level[d] = builder.sharing(transfers);
  for (const auto& [message, d] : level_of) sharing[message] = of_level[d];
  return sharing;
}

double sharing_of(const std::map<Message, double>& sharing, const Message& message) {
  const auto found = sharing.find(message);
  return found == sharing.end() ? 1.0 : found->second;
}

}  // namespace

// The tasks and arcs as given; processors as in the approximate model (ON PROCESSOR k: k mod
// p, otherwise in turn within the task's level), each processor its tasks level by level.
void exact_arbitrary(ExactBuilder& builder, const models::WorkPhase& phase) {
  const std::size_t n = phase.tasks.size();
  const Incoming incoming = incoming_arcs(builder, phase);
  const std::vector<std::int64_t> depth = kahn_levels(phase, incoming);
  builder.enter_closed(phase);
  if (n == 0) return;
  const std::map<std::int64_t, std::vector<std::size_t>> levels = levels_of(depth);
  const std::vector<int> processor_of = processors_of(builder, phase, levels);
  const std::map<Message, double> sharing = message_sharing(builder, incoming, depth, processor_of);
  std::vector<NodeId> node(n, kNone);
  double work = 0.0;
  const std::int64_t step = builder.take_steps(static_cast<std::int64_t>(levels.size()));
  for (const auto& [d, members] : levels) {
    for (std::size_t k = 0; k < members.size(); ++k) {
      const models::Task& t = phase.tasks[members[k]];
      const int processor = processor_of[members[k]];
      const distributions::Distribution time = builder.runtime(t.runtime);
      work += distributions::mean(time);
      const NodeId v = builder.add(t.name, NodeKind::Task, time, processor, step + d);
      for (const auto& [u, bytes] : incoming[members[k]]) {
        builder.link(node[u], v, bytes, t.location, sharing_of(sharing, Message{u, processor, bytes}));
      }
      builder.run_on(static_cast<std::size_t>(processor), v);
      node[members[k]] = v;
    }
  }
  builder.leave_closed(phase, builder.contention_seconds(work, phase.location));
}

namespace {

// Per level: per processor the send and the receive overheads charged before it, per port
// (2k: processor k's sends, 2k + 1: its receives) the port times of the messages into it (M12),
// the longest message into it and its S. An arc of 0 bytes (M3) neither costs nor sets its
// level's S.
struct LevelMessages {
  std::map<std::int64_t, std::vector<double>> sending, receiving, ports;
  std::map<std::int64_t, std::vector<std::int64_t>> port_messages;  // per level and port: how many
  std::map<std::int64_t, double> transfer, sharing;
};
LevelMessages level_messages(const ApproximateBuilder& builder, const models::WorkPhase& phase,
                             const Incoming& incoming, const std::vector<std::int64_t>& depth,
                             const std::vector<int>& processor) {
  const std::map<Message, double> sharing = message_sharing(builder, incoming, depth, processor);
  const auto p = static_cast<std::size_t>(builder.processors());
  LevelMessages level;
  std::set<std::tuple<std::size_t, int, double>> sent;
  for (std::size_t v = 0; v < phase.tasks.size(); ++v) {
    for (const auto& [u, bytes] : incoming[v]) {
      if (bytes == 0.0 || processor[u] == processor[v] || !sent.emplace(u, processor[v], bytes).second) continue;
      const double s = sharing_of(sharing, Message{u, processor[v], bytes});
      level.sharing[depth[v]] = s;  // one S per receiving level
      const ApproximateBuilder::MessageCost cost = builder.message_cost(bytes, phase.location, s);
      const double o = cost.overhead;
      level.sending.try_emplace(depth[u] + 1, p, 0.0).first->second[static_cast<std::size_t>(processor[u])] += o;
      level.receiving.try_emplace(depth[v], p, 0.0).first->second[static_cast<std::size_t>(processor[v])] += o;
      // A node's processors share its ports; a message inside a node holds none (M15).
      const std::int64_t from_node = builder.node_of(processor[u]), to_node = builder.node_of(processor[v]);
      const double g = from_node == to_node ? 0.0 : cost.port;
      if (g > 0.0) {
        auto& port = level.ports.try_emplace(depth[v], 2 * p, 0.0).first->second;
        auto& messages = level.port_messages.try_emplace(depth[v], 2 * p, 0).first->second;
        for (const std::size_t k :
             {2 * static_cast<std::size_t>(from_node), 2 * static_cast<std::size_t>(to_node) + 1}) {
          port[k] += g;
          ++messages[k];
        }
      }
      level.transfer[depth[v]] = std::max(level.transfer[depth[v]], bytes);
    }
  }
  return level;
}

// The time the busiest port takes to serve its messages into level d, all ready at once, the
// largest `largest` (M12).
double busiest_port(const ApproximateBuilder& builder, const LevelMessages& level, std::int64_t d, double largest) {
  const auto sums = level.ports.find(d);
  if (sums == level.ports.end()) return 0.0;
  const std::vector<std::int64_t>& counts = level.port_messages.at(d);
  double most = 0.0;
  for (std::size_t k = 0; k < sums->second.size(); ++k) {
    most = std::max(most, builder.port_queue_seconds(sums->second[k], largest, counts[k]));
  }
  return most;
}

}  // namespace

// The tasks level by level, each on its processor, with a barrier between levels. Before
// level d, the messages as the exact model sends them (one per sending task, receiving
// processor and size, on an arc across processors): each processor's send overheads of the
// messages its level d - 1 tasks send, the longest transfer into level d, then each
// processor's receive overheads of the messages into its level d tasks, every term the most
// any processor pays. The exact model sends right after the sending task and receives right
// before the receiving one, so every path through a message is no longer than this.
Piece approximate_arbitrary(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const Incoming incoming = incoming_arcs(builder, phase);
  const std::vector<std::int64_t> depth = depth_first_levels(phase, incoming);
  const std::map<std::int64_t, std::vector<std::size_t>> levels = levels_of(depth);
  const std::vector<int> processor = processors_of(builder, phase, levels);
  const LevelMessages costs = level_messages(builder, phase, incoming, depth, processor);
  const auto& [sending, receiving, transfer, level_sharing] =
      std::tie(costs.sending, costs.receiving, costs.transfer, costs.sharing);
  const auto p = static_cast<std::size_t>(builder.processors());
  const auto most = [](const std::map<std::int64_t, std::vector<double>>& per_level, std::int64_t d) {
    const auto found = per_level.find(d);
    return found == per_level.end() ? 0.0 : *std::max_element(found->second.begin(), found->second.end());
  };
  // The levels in series, joined once at the end: extending a series node level by level
  // copies its children each time (quadratic in the levels).
  std::vector<std::size_t> middle;
  double work = 0.0;
  for (const auto& [d, members] : levels) {
    std::vector<std::vector<std::size_t>> on(p);
    for (std::size_t v : members) {
      const models::Task& task = phase.tasks[v];
      const distributions::Distribution runtime_of_task = builder.runtime(task.runtime);
      work += distributions::mean(runtime_of_task);
      on[static_cast<std::size_t>(processor[v])].push_back(builder.task_leaf(task.name, runtime_of_task, processor[v]));
    }
    std::vector<std::size_t> busy;
    for (auto& tasks : on) {
      if (!tasks.empty()) busy.push_back(builder.tree().series(std::move(tasks)));
    }
    const auto longest = transfer.find(d);
    const double bytes = longest == transfer.end() ? 0.0 : longest->second;
    const ApproximateBuilder::MessageCost cost =
        builder.message_cost(bytes, phase.location, level_sharing.count(d) != 0 ? level_sharing.at(d) : 1.0);
    builder.priced_as_eager(cost, phase, "ARBITRARY");
    // The busiest port serves its messages into the level one after another: send() below
    // charges the longest message's own port time, this the rest of the busiest port's.
    const double overheads =
        most(sending, d) + most(receiving, d) + std::max(0.0, busiest_port(builder, costs, d, cost.port) - cost.port);
    middle.push_back(builder.overheads(overheads));
    middle.push_back(builder.send(cost, 0, 0));
    middle.push_back(builder.tree().parallel(std::move(busy)));
  }
  middle.push_back(builder.contention(work, phase.location));
  std::erase(middle, kZero);
  Piece piece = builder.synchronised(middle.empty() ? kZero : builder.tree().series(std::move(middle)));
  if (phase.tasks.empty()) return {};
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

}  // namespace scaling::detail
