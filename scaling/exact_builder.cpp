#include "scaling/exact_builder.hpp"

#include <algorithm>
#include <utility>

namespace scaling::detail {

ExactBuilder::ExactBuilder(const models::Program& program, const models::Machine& machine,
                           const models::Environment& environment, int p, std::size_t max_nodes,
                           NeighborOrder neighbor_order)
    : program_(program), bound_(machine, environment, p), p_(p), max_nodes_(max_nodes),
      neighbor_order_(neighbor_order),
      last_(static_cast<std::size_t>(p), kNone) {}

double ExactBuilder::communication_seconds(double bytes, const models::SourceLocation& where) {
  if (p_ == 1 || bytes == 0.0) return 0.0;
  const auto found = communication_cache_.find(bytes);
  if (found != communication_cache_.end()) return found->second;
  return communication_cache_.emplace(bytes, bound_.communication_seconds(bytes, where)).first->second;
}

// ---- nodes and arcs -------------------------------------------------------------------------

NodeId ExactBuilder::add(std::string label, NodeKind kind, distributions::Distribution runtime, int processor,
                         std::int64_t step) {
  if (graph_.node_count() >= max_nodes_) {
    throw ScalingError({}, "the exact model has more than " + std::to_string(max_nodes_) +
                               " nodes (raise ExactModelOptions::max_nodes or use the approximate model)");
  }
  graph::TaskNode node;
  node.label = std::move(label);
  node.kind = kind;
  node.runtime = std::move(runtime);
  node.processor = processor;
  node.step = step;
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

void ExactBuilder::link(NodeId from, NodeId to, double bytes, const models::SourceLocation& where) {
  const int a = graph_.node(from).processor;
  const int b = graph_.node(to).processor;
  const double seconds = (a != b) ? communication_seconds(bytes, where) : 0.0;
  if (seconds > 0.0) {
    const NodeId message = deterministic_node(
        "message " + std::to_string(static_cast<long long>(bytes)) + " B", NodeKind::Communication, seconds, -1,
        graph_.node(from).step);
    arc(from, message);
    arc(message, to);
  } else {
    arc(from, to);
  }
}

// ---- each processor's order -------------------------------------------------------------------

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
  send_boundaries(where);
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
  const NodeId node = seconds > 0.0
                          ? deterministic_node("barrier", NodeKind::Barrier, seconds, -1, step_ - 1)
                          : add("join", NodeKind::Join, {}, -1, step_ - 1);
  for (NodeId v : distinct) arc(v, node);
  std::fill(last_.begin(), last_.end(), node);
}

// A NEIGHBOR instance whose boundaries no neighbour arc carried: each processor with
// columns sends its boundary before the processors synchronise.
void ExactBuilder::send_boundaries(const models::SourceLocation& where) {
  if (!boundary_pending_) return;
  boundary_pending_ = false;
  const double seconds = communication_seconds(units_.volume, where);
  if (seconds == 0.0) return;
  for (std::size_t k = 0; k < last_.size(); ++k) {
    if (units_.last_on[k] == kNone) continue;
    run_on(k, deterministic_node("boundary " + std::to_string(k), NodeKind::Communication, seconds,
                                 static_cast<int>(k), step_ - 1));
  }
}

void ExactBuilder::forget_units() {
  units_ = Units{};
  boundary_pending_ = false;
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
  const Joint joint = joint_to(phase);
  switch (joint) {
    case Joint::None:
      send_boundaries(phase.location);
      return false;
    case Joint::Serial:
      boundary_pending_ = false;  // each processor goes on with its own data
      return false;
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
  instance.units = count(*phase.units, phase.location, "number of tasks");
  instance.volume = value(phase.volume, phase.location, "communication volume");
  instance.contention =
      contention_seconds(static_cast<double>(instance.units) * distributions::mean(instance.task), phase.location);
  return instance;
}

void ExactBuilder::unit_instance(const models::WorkPhase& phase, const UnitInstance& instance) {
  const Joint joint = joint_to(phase);
  const bool neighbour_arcs = enter(phase, true);
  const bool wrap = joint == Joint::NeighborTorus || joint == Joint::Torus || instance.torus;
  const std::int64_t step = step_++;
  const Units previous = neighbour_arcs ? std::move(units_) : Units{};
  const std::int64_t m = static_cast<std::int64_t>(previous.node.size());
  const std::int64_t n = instance.units;
  Units units;
  units.node.assign(static_cast<std::size_t>(n), kNone);
  units.processor.assign(static_cast<std::size_t>(n), 0);
  units.last_on.assign(last_.size(), kNone);
  units.volume = instance.volume;
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
    const NodeId v = add(prefix + std::to_string(c) + suffix, NodeKind::Task, instance.task, k, step);
    const auto ku = static_cast<std::size_t>(k);
    if (neighbour_arcs) {
      // Dependences on units of the previous instance; those on the same processor are
      // implied by its order and left out.
      if (m == n) {
        if (joint == Joint::Torus) {
          depend_on_unit(previous, c, wrap, k, v, phase.location);
          depend_on_unit(previous, c - 1, wrap, k, v, phase.location);
        } else {
          depend_on_unit(previous, c - 1, wrap, k, v, phase.location);
          depend_on_unit(previous, c, wrap, k, v, phase.location);
          depend_on_unit(previous, c + 1, wrap, k, v, phase.location);
        }
      } else if (!started[ku]) {
        depend_on_neighbour_processors(previous, wrap, k, v, phase.location);
      }
    }
    started[ku] = 1;
    ++per_processor[ku];
    run_on(ku, v);
    units.node[static_cast<std::size_t>(c)] = v;
    units.processor[static_cast<std::size_t>(c)] = k;
    units.last_on[ku] = v;
  }
  after_units(phase, instance, per_processor, step);
  units_ = std::move(units);
  boundary_pending_ = instance.message == UnitMessage::Boundary && instance.volume > 0.0;
}

// Unit u of the previous instance (wrapped around when `wrap`) before v on processor k.
void ExactBuilder::depend_on_unit(const Units& previous, std::int64_t u, bool wrap, int k, NodeId v,
                                  const models::SourceLocation& where) {
  const std::int64_t m = static_cast<std::int64_t>(previous.node.size());
  if (u < 0 || u >= m) {
    if (!wrap || m == 0) return;
    u = ((u % m) + m) % m;
  }
  if (previous.processor[static_cast<std::size_t>(u)] != k) {
    link(previous.node[static_cast<std::size_t>(u)], v, previous.volume, where);
  }
}

// Different unit counts: the processor's first unit waits for its neighbouring processors'
// last units.
void ExactBuilder::depend_on_neighbour_processors(const Units& previous, bool wrap, int k, NodeId v,
                                                  const models::SourceLocation& where) {
  for (std::int64_t d : {std::int64_t{-1}, std::int64_t{1}}) {
    std::int64_t other = k + d;
    if (other < 0 || other >= p_) {
      if (!wrap) continue;
      other = (other + p_) % p_;
    }
    const NodeId u = previous.last_on[static_cast<std::size_t>(other)];
    if (u != kNone && static_cast<int>(other) != k) link(u, v, previous.volume, where);
  }
}

// After each processor's units: its results (INDEPENDENT), then the contention delay.
void ExactBuilder::after_units(const models::WorkPhase& phase, const UnitInstance& instance,
                               const std::vector<std::int64_t>& per_processor, std::int64_t step) {
  for (std::size_t k = 0; k < last_.size(); ++k) {
    if (instance.message == UnitMessage::Results && per_processor[k] > 0) {
      // The results, one message per processor as in the approximate model.
      const double seconds =
          communication_seconds(instance.volume * static_cast<double>(per_processor[k]), phase.location);
      if (seconds > 0.0) {
        run_on(k, deterministic_node(phase.name + " results", NodeKind::Communication, seconds,
                                     static_cast<int>(k), step));
      }
    }
    if (instance.contention > 0.0) {
      run_on(k, deterministic_node(phase.name + " contention", NodeKind::Contention, instance.contention,
                                   static_cast<int>(k), step));
    }
  }
}

}  // namespace scaling::detail
