// The nodes of BoundQuantities (docs/semantics.md M15, M16; docs/machine.md "Nodes"): where
// each processor sits, which law its messages take, and how its node's cores and memory
// bandwidth stretch its tasks.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "scaling/bound_quantities.hpp"

namespace scaling::detail {

namespace {

// max(X, floor): a task that cannot end before its memory traffic does (the roofline).
distributions::Distribution at_least(const distributions::Distribution& runtime, double floor) {
  if (!(floor > 0.0) || distributions::quantile(runtime, 0.0) >= floor) return runtime;
  if (distributions::quantile(runtime, 1.0) <= floor) return distributions::deterministic(floor);
  return distributions::parallel(runtime, distributions::deterministic(floor));
}

}  // namespace

const BoundQuantities::NodeLayout& BoundQuantities::node_layout() const {
  if (!node_layout_) node_layout_ = evaluated_node_layout();
  return *node_layout_;
}

BoundQuantities::NodeLayout BoundQuantities::evaluated_node_layout() const {
  NodeLayout layout;
  if (!machine_.nodes) return layout;
  const models::Nodes& nodes = *machine_.nodes;
  const auto whole = [&](const models::Expr& expr, const char* what) {
    const double v = value(expr, nodes.location, what);
    if (!(v >= 1 && v <= 2147483647.0 && v == std::floor(v))) {
      throw ScalingError(nodes.location,
                         fmt::format("a NODE's {} must be a whole number from 1 to 2147483647, got {}", what, v));
    }
    return static_cast<std::int64_t>(v);
  };
  layout.k = whole(nodes.processors, "PROCESSORS");
  layout.c = nodes.cores ? whole(*nodes.cores, "CORES") : layout.k;
  if (layout.c > layout.k) {
    throw ScalingError(nodes.location,
                       fmt::format("a node's CORES ({}) must not exceed its PROCESSORS ({})", layout.c, layout.k));
  }
  if (nodes.memory_bandwidth) {
    layout.memory_bandwidth = value(*nodes.memory_bandwidth, nodes.location, "MEMORY BANDWIDTH");
    if (!(layout.memory_bandwidth > 0.0) || !std::isfinite(layout.memory_bandwidth)) {
      throw ScalingError(nodes.location, fmt::format("a NODE's MEMORY BANDWIDTH must be a positive number, got {}",
                                                     layout.memory_bandwidth));
    }
  }
  if (nodes.placement == models::Placement::List) {
    layout.listed_node_of.assign(static_cast<std::size_t>(p_), -1);
    layout.listed_on.assign(nodes.listed.size(), 0);
    for (std::size_t node = 0; node < nodes.listed.size(); ++node) {
      for (const std::int64_t r : nodes.listed[node]) {
        if (r >= p_) continue;
        layout.listed_node_of[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(node);
        ++layout.listed_on[node];
      }
    }
    const auto unplaced = std::find(layout.listed_node_of.begin(), layout.listed_node_of.end(), -1);
    if (unplaced != layout.listed_node_of.end()) {
      std::size_t listed = 0;
      for (const auto& ranks : nodes.listed) listed += ranks.size();
      throw ScalingError(nodes.location,
                         fmt::format("the PLACEMENT list places processors 0 to {}: at P = {} processor "
                                     "{} is on no node",
                                     listed - 1, p_, unplaced - layout.listed_node_of.begin()));
    }
    layout.busiest = *std::max_element(layout.listed_on.begin(), layout.listed_on.end());
  } else {
    layout.busiest = std::min<std::int64_t>(layout.k, p_);  // node 0 holds the most
  }
  return layout;
}

std::int64_t BoundQuantities::node_count() const {
  const NodeLayout& layout = node_layout();
  if (!layout.listed_on.empty()) return static_cast<std::int64_t>(layout.listed_on.size());
  return (p_ + layout.k - 1) / layout.k;
}

std::int64_t BoundQuantities::node_of(std::int64_t r) const {
  const NodeLayout& layout = node_layout();
  if (!layout.listed_node_of.empty()) return layout.listed_node_of[static_cast<std::size_t>(r)];
  if (layout.k == 1) return r;
  return machine_.nodes->placement == models::Placement::Cyclic ? r % node_count() : r / layout.k;
}

std::int64_t BoundQuantities::processors_on(std::int64_t node) const {
  const NodeLayout& layout = node_layout();
  if (!layout.listed_on.empty()) return layout.listed_on[static_cast<std::size_t>(node)];
  if (layout.k == 1) return 1;
  if (machine_.nodes->placement == models::Placement::Cyclic) {
    return (p_ - node + node_count() - 1) / node_count();
  }
  return std::min(layout.k, p_ - node * layout.k);
}

BoundQuantities::Route BoundQuantities::route(std::int64_t a, std::int64_t b) const {
  if (!machine_.nodes || a < 0 || b < 0 || node_of(a) != node_of(b)) return Route::BetweenNodes;
  return Route::WithinNode;
}

BoundQuantities::Route BoundQuantities::any_route() const {
  if (!machine_.nodes || node_layout().busiest == 1) return Route::BetweenNodes;
  return node_layout().busiest == p_ ? Route::WithinNode : Route::Either;
}

double BoundQuantities::slowdown(std::int64_t r) const {
  const NodeLayout& layout = node_layout();
  if (layout.c == layout.k) return 1.0;
  return std::max(1.0, static_cast<double>(processors_on(node_of(r))) / static_cast<double>(layout.c));
}

double BoundQuantities::largest_slowdown() const {
  const NodeLayout& layout = node_layout();
  if (layout.c == layout.k) return 1.0;
  return std::max(1.0, static_cast<double>(layout.busiest) / static_cast<double>(layout.c));
}

std::shared_ptr<const graph::PoolMaster> BoundQuantities::pool_master(const models::WorkPhase& phase) const {
  if (!phase.master_service || p_ == 1) return nullptr;
  const double dispatch_bytes =
      phase.dispatch_volume ? value(*phase.dispatch_volume, phase.location, "dispatch volume") : 0.0;
  const double result_bytes = value(phase.volume, phase.location, "communication volume");
  const MessageCost dispatch = message_cost(dispatch_bytes, phase.location, 1.0, any_route());
  const MessageCost result = message_cost(result_bytes, phase.location, 1.0, any_route());
  auto master = std::make_shared<graph::PoolMaster>();
  master->service = runtime(*phase.master_service);
  if (dispatch.overhead + result.overhead > 0.0) {
    master->service = distributions::shift(master->service, dispatch.overhead + result.overhead);
  }
  master->dispatch_seconds = dispatch.in_transit() + dispatch.overhead;
  master->result_seconds = result.overhead + result.in_transit();
  return master;
}

std::int64_t BoundQuantities::pool_workers(const models::WorkPhase& phase, std::int64_t n) const {
  const std::int64_t workers = phase.master_service && p_ > 1 ? p_ - 1 : p_;
  return std::min(workers, n);
}

double BoundQuantities::memory_volume(const models::WorkPhase& phase) const {
  if (!phase.memory_volume) return 0.0;
  const double bytes = value(*phase.memory_volume, phase.location, "SUBTASK MEMORY VOLUME");
  if (!(bytes >= 0.0) || !std::isfinite(bytes)) {
    throw ScalingError(phase.location,
                       fmt::format("the SUBTASK MEMORY VOLUME must be finite and >= 0 bytes, got {}", bytes));
  }
  return bytes;
}

distributions::Distribution BoundQuantities::memory_bound(const distributions::Distribution& runtime, std::int64_t r,
                                                          double memory_bytes) const {
  const NodeLayout& layout = node_layout();
  if (!(memory_bytes > 0.0) || layout.memory_bandwidth == 0.0) return runtime;
  const auto sharing = static_cast<double>(r >= 0 ? processors_on(node_of(r)) : layout.busiest);
  const double slowdown = r >= 0 ? this->slowdown(r) : largest_slowdown();
  const double floor = memory_bytes * sharing / layout.memory_bandwidth / slowdown;
  // A phase's tasks share one runtime and a node count or two: one roofline each, not a grid per task.
  const auto key = std::make_pair(static_cast<const void*>(&runtime.node()), floor);
  const auto found = memory_bounds_.find(key);
  if (found != memory_bounds_.end()) return found->second.second;
  return memory_bounds_.emplace(key, std::make_pair(runtime, at_least(runtime, floor))).first->second.second;
}

distributions::Distribution BoundQuantities::on_node(const distributions::Distribution& runtime, std::int64_t r,
                                                     double memory_bytes) const {
  const double slowdown = r >= 0 ? this->slowdown(r) : largest_slowdown();
  const distributions::Distribution bounded = memory_bound(runtime, r, memory_bytes);
  return slowdown > 1.0 ? distributions::scale(bounded, slowdown) : bounded;
}

}  // namespace scaling::detail
