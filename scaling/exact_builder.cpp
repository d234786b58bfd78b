#include "scaling/exact_builder.hpp"

#include <algorithm>
#include <utility>

#include "scaling/step_transfers.hpp"

namespace scaling::detail {

ExactBuilder::ExactBuilder(const models::Program& program, const models::Machine& machine,
                           const models::Environment& environment, int p, std::size_t max_nodes,
                           NeighborOrder neighbor_order)
    : program_(program),
      bound_(machine, environment, p),
      p_(p),
      max_nodes_(max_nodes),
      neighbor_order_(neighbor_order),
      last_(static_cast<std::size_t>(p), kNone) {}

const ExactBuilder::MessageCost& ExactBuilder::message_cost(double bytes, const models::SourceLocation& where,
                                                            double sharing, Route route) {
  const auto key = std::make_tuple(bytes, sharing, route);
  const auto found = message_costs_.find(key);
  if (found != message_costs_.end()) return found->second;
  return message_costs_.emplace(key, bound_.message_cost(bytes, where, sharing, route)).first->second;
}

// ---- nodes and arcs -------------------------------------------------------------------------

NodeId ExactBuilder::add(std::string label, NodeKind kind, distributions::Distribution runtime, int processor,
                         std::int64_t step, double memory_bytes) {
  if (graph_.node_count() >= max_nodes_) throw ExactModelTooLarge(max_nodes_);
  if (kind == NodeKind::Task && processor >= 0) {
    runtime = bound_.on_node(runtime, processor, memory_bytes);
  } else if (kind == NodeKind::DynamicPool) {
    runtime = bound_.on_node(runtime, -1, memory_bytes);
  }
  graph::TaskNode node;
  node.label = std::move(label);
  node.kind = kind;
  node.runtime = std::move(runtime);
  node.processor = processor;
  node.step = step;
  order_next_.push_back(kNone);
  return graph_.add_node(std::move(node));
}

NodeId ExactBuilder::deterministic_node(std::string label, NodeKind kind, double seconds, int processor,
                                        std::int64_t step) {
  const auto found = constants_.find(seconds);
  if (found == constants_.end()) {
    return add(std::move(label), kind, constants_.emplace(seconds, distributions::deterministic(seconds)).first->second,
               processor, step);
  }
  return add(std::move(label), kind, found->second, processor, step);
}

void ExactBuilder::link(NodeId from, NodeId to, double bytes, const models::SourceLocation& where, double sharing) {
  const int b = graph_.node(to).processor;
  if (graph_.node(from).processor == b) {
    arc(from, to);
    return;
  }
  const NodeId received = message(from, b, bytes, graph_.node(to).step, false, where, sharing);
  arc(received == kNone ? from : received, to);
}

NodeId ExactBuilder::message(NodeId from, int to_processor, double bytes, std::int64_t step, bool always_receive,
                             const models::SourceLocation& where, double sharing) {
  const auto key = std::make_tuple(from, to_processor, bytes);
  const auto found = received_.find(key);
  if (found != received_.end()) return found->second;
  const int a = graph_.node(from).processor;
  const std::int64_t sent_at = graph_.node(from).step;
  const MessageCost& cost = message_cost(bytes, where, sharing, route(a, to_processor));
  const double overhead = (a >= 0 && to_processor >= 0) ? cost.overhead : 0.0;
  const double transfer = cost.transfer;
  // M11: above the eager limit the transfer waits for the receiver to post its receive, where
  // its order stands now; the receive is then always a node of the receiver's order, so that
  // the receives it posts after this one wait for this one.
  const bool rendezvous = a >= 0 && to_processor >= 0 && cost.rendezvous();
  const std::string size = std::to_string(static_cast<long long>(bytes)) + " B";
  NodeId at = from;
  if (overhead > 0.0) {
    const NodeId send = deterministic_node("send " + size, NodeKind::Communication, overhead, a, sent_at);
    send_after(from, send);
    at = send;
  }
  at = this->transfer(at, a, to_processor, {cost.port, transfer},
                      rendezvous ? last_[static_cast<std::size_t>(to_processor)] : kNone, sent_at, size);
  if (to_processor >= 0 && (overhead > 0.0 || always_receive || rendezvous)) {
    const NodeId receive =
        overhead > 0.0 ? deterministic_node("receive " + size, NodeKind::Communication, overhead, to_processor,
                                            std::max(step, sent_at))
                       : add("receive " + size, NodeKind::Communication, {}, to_processor, std::max(step, sent_at));
    arc(at, receive);
    run_on(static_cast<std::size_t>(to_processor), receive);
    at = receive;
  }
  const NodeId received = at == from ? kNone : at;
  received_.emplace(key, received);
  return received;
}

NodeId ExactBuilder::transfer(NodeId at, int from, int to, TransferCost cost, NodeId posted, std::int64_t step,
                              const std::string& label) {
  const bool ports = cost.port > 0.0 && from >= 0 && to >= 0;
  // A message to or from outside the processors has no port to wait for: its port time is in
  // flight.
  const double flight = ports ? cost.flight : cost.flight + cost.port;
  if (!ports && flight == 0.0) return at;
  // The message leaves when both of its ports have served it (each served in its own order,
  // order_ports()), then flies for the communication time.
  const NodeId in_flight = flight > 0.0
                               ? deterministic_node("message " + label, NodeKind::Communication, flight, -1, step)
                               : add("message " + label, NodeKind::Communication, {}, -1, step);
  graph_.node(in_flight).in_flight = true;
  if (!ports) {
    arc(at, in_flight);
    arc(posted, in_flight);
    return in_flight;
  }
  // A node's processors share its ports (M15); without nodes every processor is a node.
  const auto from_node = static_cast<std::size_t>(bound_.node_of(from));
  const auto to_node = static_cast<std::size_t>(bound_.node_of(to));
  for (const std::size_t port : {2 * from_node, 2 * to_node + 1}) {
    const NodeId held = deterministic_node((port % 2 == 0 ? "sending port " : "receiving port ") + label,
                                           NodeKind::Communication, cost.port, -1, step);
    graph_.node(held).in_flight = true;
    arc(at, held);
    arc(posted, held);
    arc(held, in_flight);
    port_uses_.push_back({held, port, {static_cast<std::size_t>(from), static_cast<std::size_t>(to)}});
  }
  return in_flight;
}

void ExactBuilder::send_after(NodeId after, NodeId v) {
  const auto earlier = last_send_.find(after);
  const NodeId at = earlier == last_send_.end() ? after : earlier->second;
  last_send_[after] = v;
  const int k = graph_.node(at).processor;
  if (k >= 0 && last_[static_cast<std::size_t>(k)] == at) {
    run_on(static_cast<std::size_t>(k), v);
    return;
  }
  const NodeId next = order_next_[at];
  if (next != kNone) {
    graph_.remove_arc(at, next);
    arc(at, v);
    arc(v, next);
    order_next_[at] = v;
    order_next_[v] = next;
    return;
  }
  // `at` ends its processor's order inside a phase closed by a shared node (a join or
  // barrier): that node waits for the send too.
  const std::vector<NodeId> successors = graph_.successors(at);
  arc(at, v);
  for (NodeId w : successors) {
    if (graph_.node(w).processor < 0 && graph_.node(w).kind != NodeKind::Communication) arc(v, w);
  }
}

// ---- each processor's order -------------------------------------------------------------------

void ExactBuilder::run_on(std::size_t k, NodeId v) {
  const NodeId before = last_[k];
  if (before != kNone && before != v && graph_.node(before).processor == static_cast<int>(k)) order_next_[before] = v;
  arc(before, v);
  last_[k] = v;
}

void ExactBuilder::gather_at(NodeId v) {
  for (std::size_t k = 0; k < last_.size(); ++k) arc(last_[k], v);
  std::fill(last_.begin(), last_.end(), v);
}

void ExactBuilder::continue_after(NodeId v) { std::fill(last_.begin(), last_.end(), v); }

int ExactBuilder::processor_of(std::int64_t c, std::int64_t n, models::Scheduling scheduling) const {
  if (scheduling == models::Scheduling::Cyclic) return static_cast<int>(c % p_);
  const std::int64_t q = n / p_, r = n % p_;
  const std::int64_t big = r * (q + 1);
  return static_cast<int>(c < big ? c / (q + 1) : r + (c - big) / q);
}

// ---- synchronisation and joints between work phases -------------------------------------------

void ExactBuilder::synchronise(double seconds, const models::SourceLocation& where) {
  send_boundaries(where, Exchange::BeforeSynchronisation);
  if (p_ == 1) return;
  std::vector<NodeId> distinct;
  for (NodeId v : last_) {
    if (v != kNone && (distinct.empty() || distinct.back() != v)) distinct.push_back(v);
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() <= 1 && seconds == 0.0) {
    std::fill(last_.begin(), last_.end(), distinct.empty() ? kNone : distinct.front());
    return;
  }
  const NodeId node = seconds > 0.0 ? deterministic_node("barrier", NodeKind::Barrier, seconds, -1, step_ - 1)
                                    : add("join", NodeKind::Join, {}, -1, step_ - 1);
  for (NodeId v : distinct) arc(v, node);
  std::fill(last_.begin(), last_.end(), node);
}

// A NEIGHBOR instance whose boundaries no neighbour arc carried exchanges them now: each
// processor with units sends its first unit's boundary to the processor holding the unit
// before it and its last unit's to the one holding the unit after it (wrapping around on a
// torus), and each receiver's next work waits for what it receives.
void ExactBuilder::send_boundaries(const models::SourceLocation& where, Exchange exchange) {
  if (!boundary_pending_) return;
  boundary_pending_ = false;
  if (p_ == 1) return;
  if (!grid_boundary_.empty()) {
    send_grid_boundary(where, exchange);
    return;
  }
  // The exchange's messages, in order: (sending unit, receiving processor).
  std::vector<std::pair<std::int64_t, int>> messages;
  const auto n = static_cast<std::int64_t>(units_.node.size());
  for (std::size_t k = 0; k < last_.size(); ++k) {
    if (units_.low[k] < 0) continue;
    const std::int64_t before = units_.low[k] - 1, after = units_.high[k] + 1;
    if (before >= 0 || units_.torus) {
      const int other = units_.processor[static_cast<std::size_t>((before + n) % n)];
      if (other != static_cast<int>(k)) messages.emplace_back(units_.low[k], other);
    }
    if (after < n || units_.torus) {
      const int other = units_.processor[static_cast<std::size_t>(after % n)];
      if (other != static_cast<int>(k)) messages.emplace_back(units_.high[k], other);
    }
  }
  // S of the exchange: its messages are sent at once, one per sending unit and receiving
  // processor (M5).
  double sharing = 1.0;
  if (shares_bandwidth()) {
    std::vector<std::pair<std::int64_t, int>> distinct = messages;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<Transfer> step;
    for (const auto& [u, to] : distinct) step.push_back({units_.processor[static_cast<std::size_t>(u)], to});
    sharing = this->sharing(step);
  }
  // A receive node where the receiver's next work must wait: always under SERIAL; before a
  // synchronisation only when the transfer takes time (which no processor's order would
  // otherwise wait for); at the end of the program never (a receive overhead is a node anyway).
  const bool receive =
      exchange == Exchange::BeforeSerialWork ||
      (exchange == Exchange::BeforeSynchronisation && message_cost(units_.volume, where, sharing).in_transit() > 0.0);
  const std::int64_t step = step_ - 1;
  for (const auto& [u, to] : messages) {
    message(units_.node[static_cast<std::size_t>(u)], to, units_.volume, step, receive, where, sharing);
  }
}

void ExactBuilder::forget_units() {
  units_ = Units{};
  boundary_pending_ = false;
  grid_boundary_.clear();
}

ExactBuilder::Joint ExactBuilder::joint_to(const models::WorkPhase& next) const {
  if (last_phase_.empty()) return Joint::None;
  const models::Concatenation* concatenation = models::find_concatenation(program_, last_phase_, next.name);
  if (concatenation == nullptr) return Joint::Barrier;
  switch (*concatenation) {
    case models::Concatenation::Serial: return Joint::Serial;
    case models::Concatenation::Barrier: return Joint::Barrier;
    case models::Concatenation::Neighbor: return Joint::Neighbor;
    case models::Concatenation::NeighborTorus: return Joint::NeighborTorus;
    case models::Concatenation::Torus: return Joint::Torus;
  }
  return Joint::Barrier;
}

bool ExactBuilder::enter(const models::WorkPhase& phase, bool takes_neighbour_arcs) {
  const bool neighbour_arcs = enter_joint(phase, takes_neighbour_arcs);
  grid_boundary_.clear();
  return neighbour_arcs;
}

bool ExactBuilder::enter_joint(const models::WorkPhase& phase, bool takes_neighbour_arcs) {
  const Joint joint = joint_to(phase);
  switch (joint) {
    case Joint::None:
      send_boundaries(phase.location, Exchange::BeforeSynchronisation);  // nothing pending after a SYNC
      return false;
    case Joint::Serial: send_boundaries(phase.location, Exchange::BeforeSerialWork); return false;
    case Joint::Barrier: synchronise(barrier_seconds(phase.location), phase.location); return false;
    case Joint::Neighbor:
    case Joint::NeighborTorus:
    case Joint::Torus:
      if (takes_neighbour_arcs && !units_.node.empty()) {
        boundary_pending_ = false;
        return true;
      }
      synchronise(0.0, phase.location);  // no units to depend on: every unit waits for all
      return false;
  }
  return false;
}

void ExactBuilder::enter_closed(const models::WorkPhase& phase) {
  const Joint joint = joint_to(phase);
  synchronise(joint == Joint::Barrier ? barrier_seconds(phase.location) : 0.0, phase.location);
  forget_units();
}

void ExactBuilder::leave_closed(const models::WorkPhase& phase, double contention) {
  synchronise(0.0, phase.location);
  if (contention > 0.0) {
    gather_at(deterministic_node(phase.name + " contention", NodeKind::Contention, contention, -1, step_ - 1));
  }
}

// ---- phases of units ----------------------------------------------------------------------------

UnitInstance ExactBuilder::unit_instance_of(const models::WorkPhase& phase) {
  UnitInstance instance;
  instance.task = runtime(*phase.runtime);
  instance.memory_bytes = bound_.memory_volume(phase);
  instance.units = count(*phase.units, phase.location, "number of tasks");
  instance.volume = value(phase.volume, phase.location, "communication volume");
  instance.contention =
      contention_seconds(static_cast<double>(instance.units) * distributions::mean(instance.task), phase.location);
  return instance;
}

void ExactBuilder::unit_instance(const models::WorkPhase& phase, const UnitInstance& instance) {
  const Joint joint = joint_to(phase);
  const bool neighbour_arcs = enter(phase, true);
  const std::int64_t step = step_++;
  const Units previous = neighbour_arcs ? std::move(units_) : Units{};
  // The dependences wrap around when the concatenation does, or either instance is a torus
  // (a NEIGHBOR-TORUS instance's wrap-around boundary is exchanged like its others).
  const bool wrap = joint == Joint::NeighborTorus || joint == Joint::Torus || instance.torus || previous.torus;
  const std::int64_t n = instance.units;
  Units units = no_units_yet(instance);
  // The neighbour arcs' messages are the joint's step: one S for all of them.
  const double sharing =
      neighbour_arcs && shares_bandwidth() ? joint_sharing(previous, instance, joint == Joint::Torus, wrap) : 1.0;
  std::vector<char> started(last_.size(), 0);
  std::vector<std::int64_t> per_processor(last_.size(), 0);
  const std::string prefix = phase.name + " u";
  const std::string suffix = " s" + std::to_string(step);
  // Units are created processor by processor in the order each runs them: ascending, or
  // for odd processors descending under the alternating NEIGHBOR order (blocks only).
  const std::int64_t q = n / p_, r = n % p_;
  auto block_begin = [&](std::int64_t k) { return k * q + std::min(k, r); };
  for (std::int64_t position = 0; position < n; ++position) {
    std::int64_t c = position;
    if (instance.alternating) {
      const int owner = processor_of(position, n, models::Scheduling::Block);
      if (owner % 2 == 1) c = block_begin(owner) + block_begin(owner + 1) - 1 - position;
    }
    const int k = processor_of(c, n, instance.scheduling);
    const NodeId v =
        add(prefix + std::to_string(c) + suffix, NodeKind::Task, instance.task, k, step, instance.memory_bytes);
    const auto ku = static_cast<std::size_t>(k);
    if (neighbour_arcs) {
      depend_on_previous_units(previous, c, n, joint == Joint::Torus, wrap, !started[ku], k, v, phase.location,
                               sharing);
    }
    started[ku] = 1;
    ++per_processor[ku];
    run_on(ku, v);
    units.node[static_cast<std::size_t>(c)] = v;
    units.processor[static_cast<std::size_t>(c)] = k;
    units.last_on[ku] = v;
    if (units.low[ku] < 0 || c < units.low[ku]) units.low[ku] = c;
    units.high[ku] = std::max(units.high[ku], c);
  }
  after_units(phase, instance, per_processor, step);
  units_ = std::move(units);
  boundary_pending_ = instance.message == UnitMessage::Boundary && instance.volume > 0.0;
}

// The units of `instance` before any is placed: every unit kNone, every processor without units.
ExactBuilder::Units ExactBuilder::no_units_yet(const UnitInstance& instance) const {
  const std::int64_t n = instance.units;
  Units units;
  units.node.assign(static_cast<std::size_t>(n), kNone);
  units.processor.assign(static_cast<std::size_t>(n), 0);
  units.last_on.assign(last_.size(), kNone);
  units.low.assign(last_.size(), -1);
  units.high.assign(last_.size(), -1);
  units.volume = instance.volume;
  units.torus = instance.torus;
  units.scheduling = instance.scheduling;
  return units;
}

void ExactBuilder::depend_on_previous_units(const Units& previous, std::int64_t c, std::int64_t n, bool torus_joint,
                                            bool wrap, bool first_on_processor, int k, NodeId v,
                                            const models::SourceLocation& where, double sharing) {
  const std::int64_t m = static_cast<std::int64_t>(previous.node.size());
  // Dependences on units of the previous instance; those on the same processor are
  // implied by its order and left out.
  if (m == n) {
    if (torus_joint) {
      depend_on_unit(previous, c, wrap, k, v, where, sharing);
      depend_on_unit(previous, c - 1, wrap, k, v, where, sharing);
    } else {
      depend_on_unit(previous, c - 1, wrap, k, v, where, sharing);
      depend_on_unit(previous, c, wrap, k, v, where, sharing);
      depend_on_unit(previous, c + 1, wrap, k, v, where, sharing);
    }
  } else if (first_on_processor) {
    depend_on_neighbour_processors(previous, wrap, k, v, where, sharing);
  }
}

// Unit u of the previous instance (wrapped around when `wrap`) before v on processor k.
void ExactBuilder::depend_on_unit(const Units& previous, std::int64_t u, bool wrap, int k, NodeId v,
                                  const models::SourceLocation& where, double sharing) {
  const std::int64_t m = static_cast<std::int64_t>(previous.node.size());
  if (u < 0 || u >= m) {
    if (!wrap || m == 0) return;
    u = ((u % m) + m) % m;
  }
  if (previous.processor[static_cast<std::size_t>(u)] != k) {
    link(previous.node[static_cast<std::size_t>(u)], v, previous.volume, where, sharing);
  }
}

double ExactBuilder::joint_sharing(const Units& previous, const UnitInstance& instance, bool torus_kind,
                                   bool wrap) const {
  return sharing(neighbour_joint_transfers({static_cast<std::int64_t>(previous.node.size()), previous.scheduling},
                                           {instance.units, instance.scheduling}, p_, torus_kind, wrap));
}

// Different unit counts: the processor's first unit waits for its neighbouring processors'
// last units.
void ExactBuilder::depend_on_neighbour_processors(const Units& previous, bool wrap, int k, NodeId v,
                                                  const models::SourceLocation& where, double sharing) {
  for (std::int64_t d : {std::int64_t{-1}, std::int64_t{1}}) {
    std::int64_t other = k + d;
    if (other < 0 || other >= p_) {
      if (!wrap) continue;
      other = (other + p_) % p_;
    }
    const NodeId u = previous.last_on[static_cast<std::size_t>(other)];
    if (u != kNone && static_cast<int>(other) != k) link(u, v, previous.volume, where, sharing);
  }
}

// After each processor's units: its results (INDEPENDENT), then the contention delay.
void ExactBuilder::after_units(const models::WorkPhase& phase, const UnitInstance& instance,
                               const std::vector<std::int64_t>& per_processor, std::int64_t step) {
  // The results are one step: every processor with units sends one message out at once.
  double sharing = 1.0;
  if (instance.message == UnitMessage::Results && shares_bandwidth()) {
    sharing = this->sharing(results_transfers(
        std::count_if(per_processor.begin(), per_processor.end(), [](std::int64_t c) { return c > 0; })));
  }
  for (std::size_t k = 0; k < last_.size(); ++k) {
    if (instance.message == UnitMessage::Results && per_processor[k] > 0) {
      // The results, one blocking send per processor to outside the processors, as in the
      // approximate model.
      const double seconds =
          message_cost(instance.volume * static_cast<double>(per_processor[k]), phase.location, sharing).sent_out();
      if (seconds > 0.0) {
        run_on(k, deterministic_node(phase.name + " results", NodeKind::Communication, seconds, static_cast<int>(k),
                                     step));
      }
    }
    if (instance.contention > 0.0) {
      run_on(k, deterministic_node(phase.name + " contention", NodeKind::Contention, instance.contention,
                                   static_cast<int>(k), step));
    }
  }
}

}  // namespace scaling::detail
