#include "solvers/monte_carlo_compiled_graph.hpp"
#include "graph/adjacency_list.hpp"

#include <algorithm>
#include <optional>

#include "distributions/queries.hpp"
#include "solvers/law_key.hpp"

namespace solvers::monte_carlo_detail {

std::uint32_t SamplerTable::index(const distributions::Distribution& d) {
  const auto [known, added] = index_.try_emplace(d);
  if (!added) return *known;
  using Kind = distributions::ClosedFormParameters::Kind;
  const std::optional<distributions::ClosedFormParameters> form = distributions::closed_form(d);
  LaneSampler s;
  if (form && form->kind == Kind::Deterministic) {
    s.kind = LaneSampler::Kind::Constant;
    s.a = form->value;
  } else if (form && form->kind == Kind::Exponential) {
    s.kind = LaneSampler::Kind::Exponential;
    s.a = 1.0 / form->rate;
  } else if (form && form->kind == Kind::Erlang && form->phases <= 16) {
    s.kind = form->phases == 1 ? LaneSampler::Kind::Exponential : LaneSampler::Kind::ErlangProduct;
    s.phases = static_cast<int>(form->phases);
    s.a = 1.0 / form->rate;
  } else if (form && form->kind == Kind::Uniform) {
    s.kind = LaneSampler::Kind::Uniform;
    s.a = form->low;
    s.b = form->high - form->low;
  } else {
    s.kind = LaneSampler::Kind::General;
    s.general = static_cast<int>(generals_.size());
    generals_.emplace_back(d);
  }
  samplers_.push_back(s);
  *known = static_cast<std::uint32_t>(samplers_.size() - 1);
  return *known;
}

int SamplerTable::general_index(const distributions::Distribution& d) {
  const auto [known, added] = general_index_.try_emplace(d);
  if (!added) return *known;
  generals_.emplace_back(d);
  *known = static_cast<int>(generals_.size() - 1);
  return *known;
}

namespace {

// A DynamicPool node's plan (its task draws counted in the flat graph's samples per sample).
Pool pool_of(const graph::TaskNode& node, FlatGraph& flat) {
  Pool pool;
  pool.sampler = flat.samplers.general_index(node.runtime);
  pool.tasks = node.pool_tasks;
  pool.processors = std::max(1, node.pool_processors);
  flat.task_samples_per_sample += pool.tasks;
  if (node.pool_master) {  // a farm also draws each task's service
    pool.master = flat.samplers.general_index(node.pool_master->service);
    pool.dispatch_seconds = node.pool_master->dispatch_seconds;
    pool.result_seconds = node.pool_master->result_seconds;
    flat.task_samples_per_sample += pool.tasks;
  }
  return pool;
}

}  // namespace

FlatGraph compile(const graph::TaskGraph& g) {
  const std::vector<graph::NodeId> order = graph::topological_order(g);  // throws on a cycle
  const std::size_t n = order.size();
  std::vector<std::uint32_t> position(n);
  for (std::size_t i = 0; i < n; ++i) position[order[i]] = static_cast<std::uint32_t>(i);
  const auto& bg = g.boost_graph();
  // The position of each node's last successor.
  std::vector<std::uint32_t> last_use(n, 0);
  std::vector<char> has_successor(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto [it, end] = boost::adjacent_vertices(order[i], bg); it != end; ++it) {
      has_successor[i] = 1;
      last_use[i] = std::max(last_use[i], position[*it]);
    }
  }
  FlatGraph flat;
  flat.first_predecessor.reserve(n + 1);
  flat.output_slot.resize(n);
  flat.operation.resize(n);
  flat.first_predecessor.push_back(0);
  std::vector<std::uint32_t> free_slots;
  std::vector<std::vector<std::uint32_t>> release_at(n);  // slots freed after position i
  for (std::size_t i = 0; i < n; ++i) {
    const graph::TaskNode& node = g.node(order[i]);
    for (auto [it, end] = boost::in_edges(order[i], bg); it != end; ++it) {
      flat.predecessor_slot.push_back(flat.output_slot[position[boost::source(*it, bg)]]);
    }
    flat.first_predecessor.push_back(static_cast<std::uint32_t>(flat.predecessor_slot.size()));
    // Slots whose last reader is this node are free again (the node reads them before it
    // writes its own).
    for (std::uint32_t s : release_at[i]) free_slots.push_back(s);
    if (has_successor[i]) {
      std::uint32_t slot;
      if (free_slots.empty()) {
        slot = flat.slots++;
      } else {
        slot = free_slots.back();
        free_slots.pop_back();
      }
      flat.output_slot[i] = slot;
      release_at[last_use[i]].push_back(slot);
    } else {
      flat.output_slot[i] = kNoSlot;
    }
    if (node.kind == graph::NodeKind::DynamicPool) {
      flat.pools.push_back(pool_of(node, flat));
      flat.operation[i] = -static_cast<std::int32_t>(flat.pools.size());
    } else {
      flat.operation[i] = static_cast<std::int32_t>(flat.samplers.index(node.runtime));
      ++flat.task_samples_per_sample;
    }
  }
  return flat;
}

}  // namespace solvers::monte_carlo_detail
