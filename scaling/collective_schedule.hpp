// The messages of a collective operation, round by round, as the machine's algorithm sends
// them among p processors (docs/semantics.md, section Q): the exact model turns every message
// into a send, a transfer and a receive; the approximate model charges the time the rounds take
// when every processor enters together (collective_makespan).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/collective.hpp"
#include "models/machine.hpp"  // PortSharing

namespace scaling {

struct CollectiveMessage {
  std::int64_t from = 0;
  std::int64_t to = 0;
  double bytes = 0.0;
};

struct CollectiveSchedule {
  models::CollectiveOperation operation = models::CollectiveOperation::Broadcast;
  models::CollectiveAlgorithm algorithm = models::CollectiveAlgorithm::Binomial;
  std::int64_t processors = 1;
  double volume = 0.0;  // the bytes the program names (per processor; docs/pdl.md, "Collectives")
};

// Rounds of the schedule; 0 on one processor (and for the FORMULA barrier, which sends nothing).
std::int64_t round_count(const CollectiveSchedule& schedule);
// Round k's messages, in the order their senders post them (and their receivers take them).
std::vector<CollectiveMessage> round_messages(const CollectiveSchedule& schedule, std::int64_t k);
// The messages of all rounds together, computed without listing them (the exact model refuses a
// collective that would pass its node limit before building any of it).
double message_count(const CollectiveSchedule& schedule);
// True when every round is a permutation of equal messages (each processor sends one and
// receives one of the same size), so that processors that enter together stay together and
// each round takes one message's 2o + t.
bool is_uniform(const CollectiveSchedule& schedule);

// One message's cost: the overhead on each end, the time on each of its two ports (M12) and the
// time in flight after them.
struct CollectiveCost {
  double overhead = 0.0;
  double transfer = 0.0;
  double port = 0.0;
};
// The cost of round k's messages of `bytes` (the round's sharing factor is the caller's).
using RoundCost = std::function<CollectiveCost(std::int64_t round, double bytes)>;

// The time from a common start until the last processor has taken its last message: in each
// round every sender first posts its sends (each occupies it for o), then every receiver takes
// its messages in order (each waits for its message's arrival, then occupies it for o). A
// message holds one of its sender's `ports` sending ports and one of its receiver's receiving
// ports for its port time, the first free of each, in round order, and arrives its transfer time
// after both.
// With fair sharing (M13) the ports are shared max-min among the messages that hold them at once
// (fair_ports.hpp), each processor doing its sends and receives in round order as above.
// With nodes (M15) a node's processors share its ports: `node_of` gives processor r's node, of
// `nodes`, the busiest holding `most_on_a_node` processors (a round where every processor sends
// one message then takes ⌈m/k⌉ port times); empty: every processor a node of its own.
struct PortPlacement {
  std::int64_t nodes = 0;
  std::int64_t most_on_a_node = 1;
  std::function<std::int64_t(std::int64_t)> node_of;
};
double collective_makespan(const CollectiveSchedule& schedule, const RoundCost& cost, std::int64_t ports = 1,
                           models::PortSharing sharing = models::PortSharing::FirstComeFirstServed,
                           const PortPlacement& placement = {});

}  // namespace scaling
