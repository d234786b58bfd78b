#include "scaling/collective_schedule.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "scaling/fair_ports.hpp"

namespace scaling {

namespace {

using models::CollectiveAlgorithm;
using models::CollectiveOperation;

// ceil(log2 p) for p >= 1.
std::int64_t ceil_log2(std::int64_t p) {
  return p <= 1 ? 0 : static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(p - 1)));
}
// The largest power of two not above p.
std::int64_t floor_power(std::int64_t p) {
  return static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(p)));
}

// Binomial tree rooted at 0. Broadcast round k: every r < 2^k sends to r + 2^k. Reduce round k:
// every r with r mod 2^(k+1) = 2^k sends to r - 2^k. `bytes_of(r, k)` gives the message's
// size (the subtree a gather or scatter carries).
template <class Bytes>
std::vector<CollectiveMessage> tree_round(std::int64_t p, std::int64_t k, bool towards_root, Bytes bytes_of) {
  std::vector<CollectiveMessage> round;
  const std::int64_t half = std::int64_t{1} << k;
  if (towards_root) {
    for (std::int64_t r = half; r < p; r += 2 * half) round.push_back({r, r - half, bytes_of(r, k)});
  } else {
    for (std::int64_t r = 0; r < half && r + half < p; ++r) round.push_back({r, r + half, bytes_of(r + half, k)});
  }
  return round;
}

// Recursive doubling on p processors (MPICH's allreduce): with q the largest power of two not
// above p, each r >= q first sends to r - q; the q lower processors exchange with r XOR 2^k for
// k < log2 q; then each r - q sends the result back to r.
std::int64_t doubling_rounds(std::int64_t p) {
  const std::int64_t q = floor_power(p);
  return ceil_log2(q) + (q == p ? 0 : 2);
}

std::vector<CollectiveMessage> doubling_round(std::int64_t p, std::int64_t k, double bytes) {
  const std::int64_t q = floor_power(p);
  const bool extra = q != p;
  std::vector<CollectiveMessage> round;
  const std::int64_t last = doubling_rounds(p) - 1;
  if (extra && k == 0) {
    for (std::int64_t r = q; r < p; ++r) round.push_back({r, r - q, bytes});
  } else if (extra && k == last) {
    for (std::int64_t r = q; r < p; ++r) round.push_back({r - q, r, bytes});
  } else {
    const std::int64_t bit = std::int64_t{1} << (extra ? k - 1 : k);
    for (std::int64_t r = 0; r < q; ++r) round.push_back({r, r ^ bit, bytes});
  }
  return round;
}

}  // namespace

std::int64_t round_count(const CollectiveSchedule& s) {
  const std::int64_t p = s.processors;
  if (p <= 1) return 0;
  switch (s.algorithm) {
    case CollectiveAlgorithm::Formula: return 0;
    case CollectiveAlgorithm::Binomial: return ceil_log2(p);
    case CollectiveAlgorithm::Linear: return 1;
    case CollectiveAlgorithm::RecursiveDoubling: return doubling_rounds(p);
    case CollectiveAlgorithm::Ring: return 2 * (p - 1);
    case CollectiveAlgorithm::ReduceBroadcast: return 2 * ceil_log2(p);
    case CollectiveAlgorithm::Pairwise: return p - 1;
    case CollectiveAlgorithm::Dissemination: return ceil_log2(p);
  }
  return 0;
}

double message_count(const CollectiveSchedule& s) {
  const double p = static_cast<double>(s.processors);
  const double rounds = static_cast<double>(round_count(s));
  if (rounds == 0.0) return 0.0;
  if (is_uniform(s)) return rounds * p;  // every processor sends one message a round
  switch (s.algorithm) {
    case CollectiveAlgorithm::Binomial:
    case CollectiveAlgorithm::Linear: return p - 1;  // every processor but the root receives (or sends) one
    case CollectiveAlgorithm::ReduceBroadcast: return 2 * (p - 1);
    case CollectiveAlgorithm::RecursiveDoubling: {
      const double q = static_cast<double>(floor_power(s.processors));
      return 2 * (p - q) + q * static_cast<double>(ceil_log2(floor_power(s.processors)));
    }
    default: return rounds * p;
  }
}

bool is_uniform(const CollectiveSchedule& s) {
  switch (s.algorithm) {
    case CollectiveAlgorithm::Ring:
    case CollectiveAlgorithm::Pairwise:
    case CollectiveAlgorithm::Dissemination: return true;
    case CollectiveAlgorithm::RecursiveDoubling: return std::has_single_bit(static_cast<std::uint64_t>(s.processors));
    default: return false;
  }
}

std::vector<CollectiveMessage> round_messages(const CollectiveSchedule& s, std::int64_t k) {
  const std::int64_t p = s.processors;
  const double v = s.volume;
  const std::int64_t levels = ceil_log2(p);
  auto same = [v](std::int64_t, std::int64_t) { return v; };
  std::vector<CollectiveMessage> round;
  switch (s.algorithm) {
    case CollectiveAlgorithm::Formula: return round;
    case CollectiveAlgorithm::Binomial:
      switch (s.operation) {
        case CollectiveOperation::Broadcast: return tree_round(p, k, false, same);
        case CollectiveOperation::Reduce: return tree_round(p, k, true, same);
        // Round k of a gather carries the sender's subtree: ranks r .. min(r + 2^k, p) - 1.
        case CollectiveOperation::Gather:
          return tree_round(p, k, true, [p, v](std::int64_t r, std::int64_t level) {
            return v * static_cast<double>(std::min(std::int64_t{1} << level, p - r));
          });
        // A scatter is a gather backwards: the widest subtrees first. At level l every r with
        // r mod 2^(l+1) = 0 sends r + 2^l its subtree's blocks.
        case CollectiveOperation::Scatter: {
          const std::int64_t level = levels - 1 - k;
          const std::int64_t half = std::int64_t{1} << level;
          for (std::int64_t r = 0; r + half < p; r += 2 * half) {
            round.push_back({r, r + half, v * static_cast<double>(std::min(half, p - r - half))});
          }
          return round;
        }
        default: break;
      }
      break;
    case CollectiveAlgorithm::Linear: {
      const bool to_root = s.operation == CollectiveOperation::Reduce || s.operation == CollectiveOperation::Gather;
      for (std::int64_t r = 1; r < p; ++r)
        round.push_back(to_root ? CollectiveMessage{r, 0, v} : CollectiveMessage{0, r, v});
      return round;
    }
    case CollectiveAlgorithm::RecursiveDoubling: return doubling_round(p, k, v);
    // Reduce-scatter, then allgather: each round every r passes one block of v/p bytes to r + 1.
    case CollectiveAlgorithm::Ring:
      for (std::int64_t r = 0; r < p; ++r) round.push_back({r, (r + 1) % p, v / static_cast<double>(p)});
      return round;
    case CollectiveAlgorithm::ReduceBroadcast:
      return k < levels ? tree_round(p, k, true, same) : tree_round(p, k - levels, false, same);
    case CollectiveAlgorithm::Pairwise:
      for (std::int64_t r = 0; r < p; ++r) round.push_back({r, (r + k + 1) % p, v});
      return round;
    case CollectiveAlgorithm::Dissemination:
      for (std::int64_t r = 0; r < p; ++r) round.push_back({r, (r + (std::int64_t{1} << k)) % p, v});
      return round;
  }
  throw std::logic_error("collective schedule: an algorithm the checker does not allow for the operation");
}

namespace {

// Serves a message ready at `ready` for `seconds` on the first free of one processor's ports
// (`free` holds when each is free); returns when it is done.
double serve(std::vector<double>::iterator free, std::int64_t ports, double ready, double seconds) {
  const auto port = std::min_element(free, free + ports);
  *port = std::max(*port, ready) + seconds;
  return *port;
}

// Who holds processor r's ports: its node (M15), or itself without nodes; and how many hold ports.
std::size_t port_holder(const PortPlacement& placement, std::int64_t r) {
  return static_cast<std::size_t>(placement.node_of ? placement.node_of(r) : r);
}
std::size_t port_holders(const PortPlacement& placement, std::int64_t processors) {
  return static_cast<std::size_t>(placement.node_of ? placement.nodes : processors);
}

// Message m, ready at `at`, onto its sender's and its receiver's ports (each pair of processors
// a connection of its own).
void put_on_ports(FairPorts& network, const PortPlacement& placement, double at, const CollectiveMessage& m,
                  double port) {
  network.add(at, 2 * port_holder(placement, m.from), 2 * port_holder(placement, m.to) + 1, port,
              {static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to)});
}

// Every message of the schedule with its cost, and each processor's part in round order: its
// sends of a round, then its receives.
struct Parts {
  struct Step {
    std::size_t message;
    bool send;
  };
  std::vector<CollectiveMessage> messages;
  std::vector<CollectiveCost> costs;
  std::vector<std::vector<Step>> steps;  // per processor
};

Parts parts_of(const CollectiveSchedule& s, const RoundCost& cost) {
  Parts parts;
  parts.steps.resize(static_cast<std::size_t>(s.processors));
  for (std::int64_t k = 0; k < round_count(s); ++k) {
    const std::vector<CollectiveMessage> round = round_messages(s, k);
    for (const bool send : {true, false}) {
      for (std::size_t i = 0; i < round.size(); ++i) {
        const auto r = static_cast<std::size_t>(send ? round[i].from : round[i].to);
        parts.steps[r].push_back({parts.messages.size() + i, send});
      }
    }
    for (const CollectiveMessage& m : round) {
      parts.messages.push_back(m);
      parts.costs.push_back(cost(k, m.bytes));
    }
  }
  return parts;
}

// collective_makespan with fair sharing: events in time order (a processor going on, a message
// ready at its ports, a message through them), each processor's sends and receives in round order.
double fair_makespan(const CollectiveSchedule& s, const RoundCost& cost, std::int64_t ports,
                     const PortPlacement& placement) {
  const auto p = static_cast<std::size_t>(s.processors);
  const Parts parts = parts_of(s, cost);
  const auto& [messages, costs, steps] = parts;
  constexpr double kNotYet = std::numeric_limits<double>::infinity();
  std::vector<double> arrival(messages.size(), kNotYet);
  std::vector<std::size_t> next(p, 0), flow_message;
  std::vector<bool> waiting(p, false);  // a processor waiting for a message
  FairPorts network(2 * port_holders(placement, s.processors), static_cast<double>(ports));
  // (time, processor or message, kind): a processor goes on, or a message is ready at its ports.
  using Event = std::tuple<double, std::size_t, bool>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (std::size_t r = 0; r < p; ++r) events.emplace(0.0, r, false);
  double makespan = 0.0;
  const auto arrive = [&](std::size_t i, double at) {
    arrival[i] = at;
    const auto to = static_cast<std::size_t>(messages[i].to);
    if (waiting[to]) events.emplace(at, to, false);
    waiting[to] = false;
  };
  const auto go_on = [&](std::size_t r, double at) {
    for (; next[r] < steps[r].size(); ++next[r]) {
      const Parts::Step step = steps[r][next[r]];
      const CollectiveCost& c = costs[step.message];
      if (step.send) {
        at += c.overhead;
        events.emplace(at, step.message, true);
      } else if (arrival[step.message] == kNotYet) {
        waiting[r] = true;
        return;
      } else {
        at = std::max(at, arrival[step.message]) + c.overhead;
      }
    }
    makespan = std::max(makespan, at);
  };
  for (;;) {
    const double shared = network.next_finish();
    if (!events.empty() && std::get<0>(events.top()) <= shared) {
      const auto [at, who, ready] = events.top();
      events.pop();
      if (!ready) {
        go_on(who, at);
      } else if (costs[who].port > 0.0) {
        put_on_ports(network, placement, at, messages[who], costs[who].port);
        flow_message.push_back(who);
      } else {
        arrive(who, at + costs[who].transfer);
      }
      continue;
    }
    if (std::isinf(shared)) break;
    const FairPorts::Finished finished = network.pop_finished();
    for (const std::size_t flow : finished.messages) {
      arrive(flow_message[flow], finished.at + costs[flow_message[flow]].transfer);
    }
  }
  return makespan;
}

}  // namespace

double collective_makespan(const CollectiveSchedule& s, const RoundCost& cost, std::int64_t ports,
                           models::PortSharing sharing, const PortPlacement& placement) {
  const std::int64_t rounds = round_count(s);
  if (sharing == models::PortSharing::Fair && !is_uniform(s)) return fair_makespan(s, cost, ports, placement);
  if (is_uniform(s)) {
    // Every processor sends one message and takes one of the same size per round, all in step; a
    // node's m processors' messages at its ports, k at a time.
    const double port_rounds = static_cast<double>((placement.most_on_a_node + ports - 1) / ports);
    double total = 0.0;
    for (std::int64_t k = 0; k < rounds; ++k) {
      const double bytes =
          s.algorithm == CollectiveAlgorithm::Ring ? s.volume / static_cast<double>(s.processors) : s.volume;
      const CollectiveCost c = cost(k, bytes);
      total += 2.0 * c.overhead + port_rounds * c.port + c.transfer;
    }
    return total;
  }
  const auto p = static_cast<std::size_t>(s.processors);
  const auto per_processor = static_cast<std::size_t>(ports);
  const std::size_t port_count = port_holders(placement, s.processors);
  std::vector<double> clock(p, 0.0), sending_port(port_count * per_processor, 0.0),
      receiving_port(port_count * per_processor, 0.0);
  std::vector<double> arrival;
  for (std::int64_t k = 0; k < rounds; ++k) {
    const std::vector<CollectiveMessage> round = round_messages(s, k);
    arrival.assign(round.size(), 0.0);
    for (std::size_t i = 0; i < round.size(); ++i) {
      const CollectiveCost c = cost(k, round[i].bytes);
      double& sender = clock[static_cast<std::size_t>(round[i].from)];
      sender += c.overhead;
      const auto from = static_cast<std::ptrdiff_t>(port_holder(placement, round[i].from) * per_processor);
      const auto to = static_cast<std::ptrdiff_t>(port_holder(placement, round[i].to) * per_processor);
      const double out = serve(sending_port.begin() + from, ports, sender, c.port);
      const double in = serve(receiving_port.begin() + to, ports, sender, c.port);
      arrival[i] = std::max(out, in) + c.transfer;
    }
    for (std::size_t i = 0; i < round.size(); ++i) {
      const CollectiveCost c = cost(k, round[i].bytes);
      double& receiver = clock[static_cast<std::size_t>(round[i].to)];
      receiver = std::max(receiver, arrival[i]) + c.overhead;
    }
  }
  return clock.empty() ? 0.0 : *std::max_element(clock.begin(), clock.end());
}

}  // namespace scaling
