// Collective operations (BROADCAST(v), REDUCE(v), ALLREDUCE(v), GATHER(v), SCATTER(v),
// ALLTOALL(v) in the pattern; SYNC on a machine whose barrier is DISSEMINATION): the messages
// of the machine's algorithm (collective_schedule.cpp), docs/semantics.md section Q.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "scaling/bandwidth_sharing.hpp"
#include "scaling/scheme_builders.hpp"

namespace scaling::detail {

namespace {

// A round's messages are sent at once: their bandwidth-sharing factor on the machine's topology
// (docs/machine.md, "Topology and bandwidth sharing"), by either model's builder.
template <class Builder>
double round_sharing(const Builder& builder, const std::vector<CollectiveMessage>& round) {
  if (!builder.shares_bandwidth()) return 1.0;
  std::vector<Transfer> step;
  step.reserve(round.size());
  for (const CollectiveMessage& m : round) step.push_back({m.from, m.to});
  return builder.sharing(step);
}

// The exact model's nodes of one collective message at most: a send, a transfer and a receive,
// and two ports on a machine with ports.
template <class Builder>
double nodes_per_message(const Builder& builder) {
  return builder.has_ports() ? 5.0 : 3.0;
}

// The most link crossings the approximate model works out for one collective's rounds (about a
// second): an all-to-all on p processors has p(p - 1) messages, each over up to the diameter.
constexpr double kMostRoutedLinks = 1 << 26;

std::string size_text(double bytes) { return fmt::format("{:g} B", bytes); }

}  // namespace

CollectiveSchedule collective_schedule(const models::Machine& machine, models::CollectiveOperation operation,
                                       std::int64_t p, double volume) {
  return {operation, models::algorithm_of(machine, operation), p, volume};
}

// Round by round: every sender posts its sends in order (a node of o on its processor, then the
// transfer in flight), then every receiver takes its messages in order (a node of o, or of no
// duration, appended to its processor's order after the message). Each processor then goes on
// after its own last message; nothing waits for processors it never heard from.
void exact_collective(ExactBuilder& builder, const CollectiveSchedule& schedule, const models::SourceLocation& where) {
  builder.before_collective(where);
  const std::int64_t rounds = round_count(schedule);
  if (rounds == 0) return;
  builder.expect_nodes(nodes_per_message(builder) * message_count(schedule));
  const std::int64_t first_step = builder.take_steps(rounds);
  const std::string name = models::to_string(schedule.operation);
  for (std::int64_t k = 0; k < rounds; ++k) {
    const std::vector<CollectiveMessage> round = round_messages(schedule, k);
    const double sharing = round_sharing(builder, round);
    const std::int64_t step = first_step + k;
    std::vector<NodeId> departed(round.size(), kNone);
    std::vector<double> overhead(round.size(), 0.0);
    for (std::size_t i = 0; i < round.size(); ++i) {
      const CollectiveMessage& m = round[i];
      const auto cost = builder.collective_message(m.bytes, where, sharing, builder.route(m.from, m.to));
      overhead[i] = cost.overhead;
      NodeId at = builder.last()[static_cast<std::size_t>(m.from)];
      if (cost.overhead > 0.0) {
        at = builder.deterministic_node(name + " send " + size_text(m.bytes), NodeKind::Communication, cost.overhead,
                                        static_cast<int>(m.from), step);
        builder.run_on(static_cast<std::size_t>(m.from), at);
      }
      departed[i] = builder.transfer(at, static_cast<int>(m.from), static_cast<int>(m.to), {cost.port, cost.transfer},
                                     kNone, step, name + " " + size_text(m.bytes));
    }
    for (std::size_t i = 0; i < round.size(); ++i) {
      const CollectiveMessage& m = round[i];
      const std::string label = name + " receive " + size_text(m.bytes);
      const NodeId receive =
          overhead[i] > 0.0
              ? builder.deterministic_node(label, NodeKind::Communication, overhead[i], static_cast<int>(m.to), step)
              : builder.add(label, NodeKind::Communication, {}, static_cast<int>(m.to), step);
      builder.arc(departed[i], receive);
      builder.run_on(static_cast<std::size_t>(m.to), receive);
    }
  }
}

// Every processor enters together (the open work is closed first), and the collective takes
// its schedule's time from that common start: one deterministic leaf.
// The nodes whose processors share ports (M15); none without NODE.
PortPlacement port_placement(const ApproximateBuilder& builder) {
  if (builder.port_sharers() == 1) return {};
  return {builder.node_count(), builder.port_sharers(), [&builder](std::int64_t r) { return builder.node_of(r); }};
}

Piece approximate_collective(ApproximateBuilder& builder, const CollectiveSchedule& schedule,
                             const models::SourceLocation& where) {
  const bool routed = builder.shares_bandwidth();
  if (routed) {
    const double links = diameter(builder.machine().topology, schedule.processors);
    if (message_count(schedule) * links > kMostRoutedLinks) {
      throw ScalingError(
          where,
          fmt::format("{} ({}) on {} processors sends {:g} messages over up to {:g} links each on a "
                      "{}: more than the {:g} link crossings whose sharing is worked out; give the "
                      "machine a FULLY CONNECTED topology or analyse fewer processors",
                      models::to_string(schedule.operation), models::to_string(schedule.algorithm), schedule.processors,
                      message_count(schedule), links, models::to_string(builder.machine().topology), kMostRoutedLinks));
    }
  }
  std::int64_t sharing_round = -1;
  double sharing = 1.0;
  std::map<std::pair<double, double>, CollectiveCost> costs;
  const double seconds = collective_makespan(
      schedule,
      [&](std::int64_t k, double bytes) {
        if (routed && k != sharing_round) {
          sharing = round_sharing(builder, round_messages(schedule, k));
          sharing_round = k;
        }
        const auto key = std::make_pair(bytes, sharing);
        auto found = costs.find(key);
        if (found == costs.end()) {
          const auto cost = builder.collective_message(bytes, where, sharing);
          found = costs.emplace(key, CollectiveCost{cost.overhead, cost.transfer, cost.port}).first;
        }
        return found->second;
      },
      builder.ports(), builder.machine().port_sharing, port_placement(builder));
  if (seconds == 0.0) return builder.synchronised(kZero);
  const std::string label =
      fmt::format("{} of {} ({}, {} rounds)", models::to_string(schedule.operation), size_text(schedule.volume),
                  models::to_string(schedule.algorithm), round_count(schedule));
  // The leaf stands for the exact model's nodes of the collective, which the study's task limit
  // and memory estimate count.
  const double nodes = std::min(nodes_per_message(builder) * message_count(schedule), 9e18);
  return builder.synchronised(builder.tree().leaf_standing_for(
      {label, graph::NodeKind::Communication, distributions::deterministic(seconds), -1},
      std::max<std::int64_t>(1, static_cast<std::int64_t>(nodes))));
}

}  // namespace scaling::detail
