// Dodin's node duplication (upper bound): the activity-on-arc network of the graph reduced by
// series and parallel reductions, duplicating arcs where neither applies.
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "distributions/queries.hpp"
#include "solvers/bounds_detail.hpp"

namespace solvers::bounds_detail {

// ---- Node duplication (Dodin) ------------------------------------------------------------------

Outcome node_duplication(const Dag& dag, const BoundsOptions& options) {
  namespace d = distributions;
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
  std::map<std::vector<std::uint32_t>, std::size_t> start_event;
  std::vector<std::size_t> start_of(dag.n);
  std::size_t nodes = 2 + dag.n;
  for (std::size_t v = 0; v < dag.n; ++v) {
    if (dag.preds_of(v) == 0) {
      start_of[v] = 0;
      continue;
    }
    std::vector<std::uint32_t> key(dag.pred.begin() + dag.pred_begin[v], dag.pred.begin() + dag.pred_begin[v + 1]);
    auto [it, inserted] = start_event.emplace(std::move(key), nodes);
    if (inserted) ++nodes;
    start_of[v] = it->second;
  }
  std::vector<std::map<std::size_t, d::Distribution>> out(nodes);
  std::vector<std::set<std::size_t>> in(nodes);
  const d::GridOptions grid = per_task_grid(options, dag.n);
  auto insert = [&](std::size_t i, std::size_t k, const d::Distribution& law) {
    auto [it, inserted] = out[i].emplace(k, law);
    if (!inserted) it->second = d::parallel(it->second, law, grid);
    in[k].insert(i);
  };
  auto remove = [&](std::size_t i, std::size_t k) {
    out[i].erase(k);
    in[k].erase(i);
  };
  const d::Distribution zero;
  std::vector<d::Distribution> runtime(dag.laws.size());
  for (std::size_t i = 0; i < dag.laws.size(); ++i) {
    const TaskLaw& law = dag.laws[i];
    runtime[i] =
        d::is_closed_form(law.runtime) && law.upper.size() > 1 ? d::discretise(law.runtime, grid) : law.runtime;
  }
  for (std::size_t v = 0; v < dag.n; ++v) {
    insert(start_of[v], 2 + v, runtime[dag.law[v]]);
    if (dag.succs_of(v) == 0) insert(2 + v, 1, zero);
  }
  for (const auto& [preds, event] : start_event) {
    for (std::uint32_t u : preds) insert(2 + u, event, zero);
  }
  std::set<std::size_t> alive;
  for (std::size_t j = 2; j < nodes; ++j) alive.insert(j);
  std::vector<std::size_t> work(alive.begin(), alive.end());
  std::int64_t duplicated = 0;
  std::int64_t splits = 0;
  for (;;) {
    while (!work.empty()) {
      const std::size_t j = work.back();
      work.pop_back();
      if (!alive.count(j) || in[j].size() != 1 || out[j].size() != 1) continue;
      const std::size_t i = *in[j].begin();
      const auto [k, b] = *out[j].begin();
      const d::Distribution a = out[i].at(j);
      const d::Distribution law = d::series(a, b, grid);
      remove(i, j);
      remove(j, k);
      alive.erase(j);
      insert(i, k, law);
      work.push_back(i);
      work.push_back(k);
    }
    if (alive.empty()) break;
    // The split that copies fewest arcs.
    std::size_t chosen = 0;
    std::size_t cost = std::numeric_limits<std::size_t>::max();
    bool forward = true;
    for (std::size_t j : alive) {
      if (in[j].size() == 1 && out[j].size() < cost) {
        chosen = j;
        cost = out[j].size();
        forward = true;
      }
      if (out[j].size() == 1 && in[j].size() < cost) {
        chosen = j;
        cost = in[j].size();
        forward = false;
      }
      if (cost <= 2) break;
    }
    if (cost == std::numeric_limits<std::size_t>::max()) {
      throw std::logic_error("bounds: node duplication found no node to split");
    }
    duplicated += static_cast<std::int64_t>(cost) - 1;
    ++splits;
    if (duplicated > options.duplication_budget) {
      return {false, 0.0,
              format("skipped: more than %.0f duplicated arcs (duplication_budget)",
                     static_cast<double>(options.duplication_budget))};
    }
    const std::size_t j = chosen;
    if (forward) {
      const std::size_t i = *in[j].begin();
      const d::Distribution a = out[i].at(j);
      const std::vector<std::pair<std::size_t, d::Distribution>> arcs(out[j].begin(), out[j].end());
      remove(i, j);
      for (const auto& [k, b] : arcs) {
        remove(j, k);
        insert(i, k, d::series(a, b, grid));
        work.push_back(k);
      }
      work.push_back(i);
    } else {
      const auto [k, b] = *out[j].begin();
      const std::vector<std::size_t> sources(in[j].begin(), in[j].end());
      remove(j, k);
      for (std::size_t i : sources) {
        const d::Distribution a = out[i].at(j);
        remove(i, j);
        insert(i, k, d::series(a, b, grid));
        work.push_back(i);
      }
      work.push_back(k);
    }
    alive.erase(j);
  }
  const d::Distribution makespan = out[0].at(1);
  return {true, d::mean_bracket(makespan).upper,
          format("%.0f splits, %.0f duplicated arcs", static_cast<double>(splits), static_cast<double>(duplicated))};
}

}  // namespace solvers::bounds_detail
