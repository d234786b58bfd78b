// Dodin's node duplication (upper bound): the activity-on-arc network of the graph reduced by
// series and parallel reductions, duplicating arcs where neither applies.
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "distributions/queries.hpp"
#include "solvers/bounds_detail.hpp"

namespace solvers::bounds_detail {

// ---- Node duplication (Dodin) ------------------------------------------------------------------

namespace {

namespace d = distributions;

// The events of the activity-on-arc network: 0 the source, 1 the sink, 2 + v the end of task
// v, then one start event per distinct predecessor set.
struct StartEvents {
  std::map<std::vector<std::uint32_t>, std::size_t> event;  // predecessor set -> its event
  std::vector<std::size_t> of;                              // task -> its start event
  std::size_t nodes = 0;                                    // every event
};

StartEvents start_events(const Dag& dag) {
  StartEvents events;
  events.of.resize(dag.n);
  events.nodes = 2 + dag.n;
  for (std::size_t v = 0; v < dag.n; ++v) {
    if (dag.preds_of(v) == 0) {
      events.of[v] = 0;
      continue;
    }
    std::vector<std::uint32_t> key(dag.pred.begin() + dag.pred_begin[v], dag.pred.begin() + dag.pred_begin[v + 1]);
    auto [it, inserted] = events.event.emplace(std::move(key), events.nodes);
    if (inserted) ++events.nodes;
    events.of[v] = it->second;
  }
  return events;
}

// The arcs between events, each with its duration law.
struct ArcNetwork {
  std::vector<std::map<std::size_t, d::Distribution>> out;
  std::vector<std::set<std::size_t>> in;
  d::GridOptions grid;

  // Parallel arcs are merged on insertion (maximum).
  void insert(std::size_t i, std::size_t k, const d::Distribution& law) {
    auto [it, inserted] = out[i].emplace(k, law);
    if (!inserted) it->second = d::parallel(it->second, law, grid);
    in[k].insert(i);
  }
  void remove(std::size_t i, std::size_t k) {
    out[i].erase(k);
    in[k].erase(i);
  }
};

ArcNetwork build_network(const Dag& dag, const StartEvents& events, const d::GridOptions& grid) {
  ArcNetwork network{std::vector<std::map<std::size_t, d::Distribution>>(events.nodes),
                     std::vector<std::set<std::size_t>>(events.nodes), grid};
  const d::Distribution zero;
  std::vector<d::Distribution> runtime(dag.laws.size());
  for (std::size_t i = 0; i < dag.laws.size(); ++i) {
    const TaskLaw& law = dag.laws[i];
    runtime[i] =
        d::is_closed_form(law.runtime) && law.upper.size() > 1 ? d::discretise(law.runtime, grid) : law.runtime;
  }
  for (std::size_t v = 0; v < dag.n; ++v) {
    network.insert(events.of[v], 2 + v, runtime[dag.law[v]]);
    if (dag.succs_of(v) == 0) network.insert(2 + v, 1, zero);
  }
  for (const auto& [preds, event] : events.event) {
    for (std::uint32_t u : preds) network.insert(2 + u, event, zero);
  }
  return network;
}

// Removes the events of `work` (and those it leads to) with one arc in and one out, their two
// arcs becoming one (sum).
void reduce_in_series(ArcNetwork& network, std::set<std::size_t>& alive, std::vector<std::size_t>& work) {
  while (!work.empty()) {
    const std::size_t j = work.back();
    work.pop_back();
    if (!alive.count(j) || network.in[j].size() != 1 || network.out[j].size() != 1) continue;
    const std::size_t i = *network.in[j].begin();
    const auto [k, b] = *network.out[j].begin();
    const d::Distribution a = network.out[i].at(j);
    const d::Distribution law = d::series(a, b, network.grid);
    network.remove(i, j);
    network.remove(j, k);
    alive.erase(j);
    network.insert(i, k, law);
    work.push_back(i);
    work.push_back(k);
  }
}

struct Split {
  std::size_t event = 0;
  std::size_t cost = std::numeric_limits<std::size_t>::max();  // the arcs it copies; max: none found
  bool forward = true;                                         // one arc in, copied into each arc out
};

// The split that copies fewest arcs.
Split cheapest_split(const ArcNetwork& network, const std::set<std::size_t>& alive) {
  Split split;
  for (std::size_t j : alive) {
    if (network.in[j].size() == 1 && network.out[j].size() < split.cost) {
      split.event = j;
      split.cost = network.out[j].size();
      split.forward = true;
    }
    if (network.out[j].size() == 1 && network.in[j].size() < split.cost) {
      split.event = j;
      split.cost = network.in[j].size();
      split.forward = false;
    }
    if (split.cost <= 2) break;
  }
  return split;
}

// Duplicates the single arc of the event into each arc on its other side (the event is then
// unconnected); the events at the new arcs' ends go to `work`.
void apply_split(ArcNetwork& network, const Split& split, std::vector<std::size_t>& work) {
  const std::size_t j = split.event;
  if (split.forward) {
    const std::size_t i = *network.in[j].begin();
    const d::Distribution a = network.out[i].at(j);
    const std::vector<std::pair<std::size_t, d::Distribution>> arcs(network.out[j].begin(), network.out[j].end());
    network.remove(i, j);
    for (const auto& [k, b] : arcs) {
      network.remove(j, k);
      network.insert(i, k, d::series(a, b, network.grid));
      work.push_back(k);
    }
    work.push_back(i);
  } else {
    const auto [k, b] = *network.out[j].begin();
    const std::vector<std::size_t> sources(network.in[j].begin(), network.in[j].end());
    network.remove(j, k);
    for (std::size_t i : sources) {
      const d::Distribution a = network.out[i].at(j);
      network.remove(i, j);
      network.insert(i, k, d::series(a, b, network.grid));
      work.push_back(i);
    }
    work.push_back(k);
  }
}

}  // namespace

Outcome node_duplication(const Dag& dag, const BoundsOptions& options) {
  if (dag.n > options.max_reduction_tasks) {
    return {false, 0.0,
            format("skipped: more than %.0f tasks (max_reduction_tasks)",
                   static_cast<double>(options.max_reduction_tasks))};
  }
  // The activity-on-arc network: task v is an arc from the event "v may start" to the event
  // "v has finished" (node 2 + v); tasks with the same predecessors share their start event
  // (so a complete bipartite join is one event, not a tangle of arcs); "u has finished" leads
  // to the start event of each distinct predecessor set containing u by a zero-duration arc;
  // 0 is the source, 1 the sink. Parallel arcs are merged on insertion (maximum), an event
  // with one arc in and one out is removed (sum). When neither applies, an event with one arc
  // in (out) is split: the arc is duplicated into each of its outgoing (incoming) arcs as an
  // independent copy. The copies ignore the positive dependence of the paths through them, so
  // the completion time only grows (Dodin 1985).
  const StartEvents events = start_events(dag);
  ArcNetwork network = build_network(dag, events, per_task_grid(options, dag.n));
  std::set<std::size_t> alive;
  for (std::size_t j = 2; j < events.nodes; ++j) alive.insert(j);
  std::vector<std::size_t> work(alive.begin(), alive.end());
  std::int64_t duplicated = 0;
  std::int64_t splits = 0;
  for (;;) {
    reduce_in_series(network, alive, work);
    if (alive.empty()) break;
    const Split split = cheapest_split(network, alive);
    if (split.cost == std::numeric_limits<std::size_t>::max()) {
      throw std::logic_error("bounds: node duplication found no node to split");
    }
    duplicated += static_cast<std::int64_t>(split.cost) - 1;
    ++splits;
    if (duplicated > options.duplication_budget) {
      return {false, 0.0,
              format("skipped: more than %.0f duplicated arcs (duplication_budget)",
                     static_cast<double>(options.duplication_budget))};
    }
    apply_split(network, split, work);
    alive.erase(split.event);
  }
  const d::Distribution makespan = network.out[0].at(1);
  return {true, d::mean_bracket(makespan).upper,
          format("%.0f splits, %.0f duplicated arcs", static_cast<double>(splits), static_cast<double>(duplicated))};
}

}  // namespace solvers::bounds_detail
