// Bounds by changing the graph until it is series-parallel, then reducing it exactly:
// arc deletion (lower), barrier insertion (upper, Kleinöder) and node duplication (upper,
// Dodin).
#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "graph/adjacency_list.hpp"
#include "distributions/queries.hpp"
#include "graph/series_parallel.hpp"
#include "graph/sp_tree.hpp"
#include "solvers/bounds_detail.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace solvers::bounds_detail {

namespace {

// Closed forms whose results stay closed (a sum of Erlangs of one rate) or are cheap to put
// on a grid. Others (exponentials, whose maxima become long hypoexponentials, phase-type,
// mixtures) enter the reductions as grids: their exact cdfs cost far more per grid point.
bool cheap_closed_form(const distributions::Distribution& d) {
  using Kind = distributions::ClosedFormParameters::Kind;
  const std::optional<distributions::ClosedFormParameters> form = distributions::closed_form(d);
  return form && (form->kind == Kind::Erlang || form->kind == Kind::Deterministic || form->kind == Kind::Uniform);
}

// Builds series-parallel trees in a canonical, compressed form: equal subtrees are one node
// (leaves are equal when they share a runtime), a series of equal parts becomes a
// SeriesPower and a parallel of equal parts a ParallelPower (sum and maximum of independent
// parts are commutative, so this is exact), and zero-duration parts disappear. The tree of
// 100 identical iterations of 64 processors' chains then costs a handful of grid operations.
class TreeBuilder {
 public:
  static constexpr std::size_t kZero = static_cast<std::size_t>(-1);

  // numerical_leaves: every random runtime enters as its numerical grid, discretised once
  // (closed forms keep exact results such as a sum of Erlangs, but an operation on a closed
  // form and a grid discretises the closed form again each time, which costs more than the
  // operation when there is one per task).
  TreeBuilder(bool numerical_leaves, const distributions::GridOptions& grid)
      : numerical_leaves_(numerical_leaves), grid_(grid) {}

  std::size_t leaf(const TaskLaw& law) {
    if (law.zero) return kZero;
    const void* key = distributions::identity(law.runtime);
    auto [it, inserted] = leaves_.emplace(key, 0);
    if (inserted) {
      graph::TaskNode task;
      task.runtime = law.runtime;
      if (distributions::is_closed_form(law.runtime) && law.upper.size() > 1 &&
          (numerical_leaves_ || !cheap_closed_form(law.runtime))) {
        task.runtime = distributions::discretise(law.runtime, grid_);
      }
      it->second = tree_.leaf(std::move(task));
      record(it->second);
    }
    return it->second;
  }

  std::size_t series(const std::vector<std::size_t>& parts) { return combine(Kind::Series, parts); }
  std::size_t parallel(const std::vector<std::size_t>& parts) { return combine(Kind::Parallel, parts); }

  // The mean bracket of the reduced tree (the point mass at 0 for kZero).
  distributions::Bracket solve(std::size_t root, const distributions::GridOptions& grid) {
    if (root == kZero) return {0.0, 0.0};
    tree_.set_root(root);
    SeriesParallelOptions options;
    options.grid = grid;
    options.keep_distribution = false;
    const Result result = solve_series_parallel(tree_, options);
    return {result.lower, result.upper};
  }
  std::size_t nodes() const { return tree_.nodes().size(); }

 private:
  enum class Kind { Series, Parallel };
  static constexpr std::size_t kInlineTerms = 32;
  using Terms = std::vector<std::pair<std::size_t, std::int64_t>>;  // (part, copies), sorted

  void record(std::size_t id) {
    if (terms_.size() <= id) terms_.resize(id + 1);
  }

  std::size_t combine(Kind kind, const std::vector<std::size_t>& parts) {
    const int k = kind == Kind::Series ? 0 : 1;
    Terms flat;
    for (std::size_t part : parts) {
      if (part == kZero) continue;
      const Terms& inner = terms_[part][k];
      // A long inner list stays one term: inlining it every time a chain grows by one part
      // would copy the chain's terms once per part (quadratic memory and time). Equal
      // subtrees are then shared a little less often; every value is unchanged.
      if (inner.empty() || inner.size() > kInlineTerms) {
        flat.emplace_back(part, 1);
      } else {
        flat.insert(flat.end(), inner.begin(), inner.end());
      }
    }
    if (flat.empty()) return kZero;
    std::sort(flat.begin(), flat.end());
    Terms merged;
    for (const auto& [part, n] : flat) {
      if (!merged.empty() && merged.back().first == part) {
        merged.back().second += n;
      } else {
        merged.emplace_back(part, n);
      }
    }
    if (merged.size() == 1 && merged.front().second == 1) return merged.front().first;
    auto [it, inserted] = memo_[k].emplace(merged, 0);
    if (!inserted) return it->second;
    std::vector<std::size_t> children;
    for (const auto& [part, n] : merged) {
      children.push_back(kind == Kind::Series ? tree_.series_power(part, n) : tree_.parallel_power(part, n));
      record(children.back());
      if (n > 1) terms_[children.back()][k] = Terms{{part, n}};
    }
    const std::size_t id = kind == Kind::Series ? tree_.series(children) : tree_.parallel(children);
    record(id);
    terms_[id][k] = merged;
    it->second = id;
    return id;
  }

  bool numerical_leaves_;
  distributions::GridOptions grid_;
  graph::SpTree tree_;
  std::map<const void*, std::size_t> leaves_;
  std::map<Terms, std::size_t> memo_[2];
  std::vector<std::array<Terms, 2>> terms_;  // what a node stands for, as series / parallel terms
};

// Tasks grouped into consecutive blocks with every arc inside a block or from an earlier block
// to a later one: a barrier between consecutive blocks adds arcs only, so the makespan of the
// blocks in series is an upper bound. Each block is reduced exactly when it is series-parallel,
// otherwise with a barrier between its levels. Recognising a block costs memory in proportion to
// its tasks: a block of more than `largest_recognised` tasks gets the barriers between its levels
// unrecognised (a block without an arc inside is the parallel of its tasks, recognised for free).
struct BlockCounts {
  std::size_t blocks = 0;
  std::size_t exact = 0;      // reduced exactly (series-parallel)
  std::size_t too_large = 0;  // not recognised: more than largest_recognised tasks
};

bool has_inner_arcs(const Dag& dag, const std::vector<std::int64_t>& block, const std::vector<std::uint32_t>& nodes) {
  return std::any_of(nodes.begin(), nodes.end(), [&](std::uint32_t v) {
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      if (block[dag.pred[k]] == block[v]) return true;
    }
    return false;
  });
}

// The block's levels in series, each the parallel of its tasks: tasks of one level have no arcs
// between them.
void levels_in_series(const Dag& dag, const std::vector<std::uint32_t>& nodes, TreeBuilder& builder,
                      std::vector<std::size_t>& parts) {
  std::map<std::uint32_t, std::vector<std::size_t>> by_level;
  for (std::uint32_t v : nodes) by_level[dag.level[v]].push_back(builder.leaf(dag.law_of(v)));
  for (const auto& [level, leaves] : by_level) {
    (void)level;
    parts.push_back(builder.parallel(leaves));
  }
}

// The block's own task graph: its tasks (numbered in `local`) and the arcs inside it.
graph::TaskGraph block_graph(const Dag& dag, const std::vector<std::int64_t>& block,
                             const std::vector<std::uint32_t>& nodes, std::vector<std::uint32_t>& local) {
  graph::TaskGraph sub;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    local[nodes[i]] = static_cast<std::uint32_t>(i);
    graph::TaskNode node;
    node.runtime = dag.law_of(nodes[i]).runtime;
    sub.add_node(std::move(node));
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::uint32_t v = nodes[i];
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      if (block[u] == block[v]) sub.add_arc(local[u], i);
    }
  }
  return sub;
}

// The block's decomposition tree rebuilt in the builder's compressed form; returns its root.
std::size_t compressed_tree(const Dag& dag, const std::vector<std::uint32_t>& nodes, const graph::SpTree& tree,
                            TreeBuilder& builder) {
  std::vector<std::size_t> id(tree.nodes().size(), TreeBuilder::kZero);
  for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
    const graph::SpNode& node = tree.node(i);
    std::vector<std::size_t> children;
    for (std::size_t c : node.children) children.push_back(id[c]);
    switch (node.kind) {
      case graph::SpKind::Leaf: id[i] = builder.leaf(dag.law_of(nodes[node.vertex])); break;
      case graph::SpKind::Series: id[i] = builder.series(children); break;
      case graph::SpKind::Parallel: id[i] = builder.parallel(children); break;
      case graph::SpKind::SeriesPower:
        id[i] = builder.series(std::vector<std::size_t>(static_cast<std::size_t>(node.count), children.front()));
        break;
      case graph::SpKind::ParallelPower:
        id[i] = builder.parallel(std::vector<std::size_t>(static_cast<std::size_t>(node.count), children.front()));
        break;
      case graph::SpKind::Branch: throw std::logic_error("bounds: a decomposition tree with a branch");
    }
  }
  return id[tree.root()];
}

std::size_t blocks_in_series(const Dag& dag, const std::vector<std::int64_t>& block, TreeBuilder& builder,
                             BlockCounts& counts, std::size_t largest_recognised) {
  std::map<std::int64_t, std::vector<std::uint32_t>> members;
  for (std::size_t v = 0; v < dag.n; ++v) members[block[v]].push_back(static_cast<std::uint32_t>(v));
  std::vector<std::size_t> parts;
  std::vector<std::uint32_t> local(dag.n, 0);
  for (const auto& [key, nodes] : members) {
    (void)key;
    ++counts.blocks;
    if (!has_inner_arcs(dag, block, nodes)) {
      ++counts.exact;
      std::vector<std::size_t> leaves;
      for (std::uint32_t v : nodes) leaves.push_back(builder.leaf(dag.law_of(v)));
      parts.push_back(builder.parallel(leaves));
      continue;
    }
    if (nodes.size() > largest_recognised) {
      ++counts.too_large;
      levels_in_series(dag, nodes, builder, parts);
      continue;
    }
    const graph::TaskGraph sub = block_graph(dag, block, nodes, local);
    const graph::SpDecomposition decomposition = graph::decompose(sub);
    if (decomposition.tree) {
      ++counts.exact;
      parts.push_back(compressed_tree(dag, nodes, *decomposition.tree, builder));
    } else {
      // Levels inside the block: tasks of one level have no arcs between them.
      levels_in_series(dag, nodes, builder, parts);
    }
  }
  return builder.series(parts);
}

// Compressed trees up to this size keep closed forms; larger ones use grids for every runtime.
constexpr std::size_t kClosedFormTreeNodes = 2000;

bool has_bound_tasks(const Dag& dag) {
  bool bound = false;
  for (int p : dag.processor) bound = bound || p >= 0;
  return bound;
}

// ---- Barrier insertion: helpers ------------------------------------------------------------

// A partition of the tasks into blocks, by block number.
struct Partition {
  std::string name;
  std::vector<std::int64_t> block;
};

bool steps_go_forward(const Dag& dag) {
  bool steps = true;
  for (std::size_t v = 0; v < dag.n && steps; ++v) {
    if (dag.step[v] < 0) steps = false;
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1] && steps; ++k) {
      if (dag.step[dag.pred[k]] > dag.step[v]) steps = false;
    }
  }
  return steps;
}

// Processor synchronisations: the number of arcs into a processor's task from elsewhere on
// the longest such chain. Within one block every arc stays on one processor (or leaves it
// for an unbound node such as a message), so blocks are usually processors' chains in
// parallel: the paper's barrier approximation.
std::vector<std::int64_t> processor_synchronisations(const Dag& dag) {
  std::vector<std::int64_t> sync(dag.n, 0);
  for (std::size_t v = 0; v < dag.n; ++v) {
    std::int64_t s = 0;
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      const bool crossing = dag.processor[v] >= 0 && dag.processor[u] != dag.processor[v];
      s = std::max(s, sync[u] + (crossing ? 1 : 0));
    }
    sync[v] = s;
  }
  return sync;
}

std::vector<Partition> candidate_partitions(const Dag& dag) {
  std::vector<Partition> candidates;
  // The model's steps (iterations, wavefronts), when every arc goes forward in them.
  if (steps_go_forward(dag)) candidates.push_back({"steps", dag.step});
  if (has_bound_tasks(dag)) candidates.push_back({"processor synchronisations", processor_synchronisations(dag)});
  // Longest-path levels: always possible (a level holds no arc), but usually far looser than
  // the model's own steps; tried when no other partition reduced every block exactly.
  candidates.push_back({"levels", std::vector<std::int64_t>(dag.level.begin(), dag.level.end())});
  return candidates;
}

// The upper bound of the partition's blocks in series, with closed forms while the tree is
// small and grids for every runtime otherwise.
double blocks_upper_bound(const Dag& dag, const std::vector<std::int64_t>& block, const BoundsOptions& options,
                          std::size_t largest_recognised, BlockCounts& counts) {
  TreeBuilder closed(false, options.grid);
  std::size_t root = blocks_in_series(dag, block, closed, counts, largest_recognised);
  // A grid operation per tree node: the grid is reduced for large trees.
  const distributions::GridOptions grid = per_task_grid(options, closed.nodes());
  if (closed.nodes() <= kClosedFormTreeNodes) return closed.solve(root, grid).upper;
  counts = {};
  TreeBuilder numerical(true, grid);
  root = blocks_in_series(dag, block, numerical, counts, largest_recognised);
  return numerical.solve(root, grid).upper;
}

std::string barriers_note(const std::string& name, const BlockCounts& counts, std::size_t largest_recognised) {
  std::string note = "barriers between " + name +
                     format(" (%.0f blocks, %.0f reduced exactly)", static_cast<double>(counts.blocks),
                            static_cast<double>(counts.exact));
  if (counts.too_large > 0) {
    note += format("; %.0f blocks of more than %.0f tasks not recognised (memory budget)",
                   static_cast<double>(counts.too_large), static_cast<double>(largest_recognised));
  }
  return note;
}

// ---- Arc deletion: helpers -----------------------------------------------------------------

// What a deletion kept and the lower bound it gave.
struct KeptArcs {
  std::string name;
  double value;
};

// Processors' chains, each broken where consecutive tasks have no arc, in parallel with the
// unbound tasks; returns the root.
std::size_t processor_chains(const graph::TaskGraph& graph, const Dag& dag, TreeBuilder& builder) {
  std::map<int, std::vector<std::uint32_t>> by_processor;
  std::vector<std::size_t> parallel;
  for (std::size_t v = 0; v < dag.n; ++v) {
    if (dag.processor[v] >= 0) {
      by_processor[dag.processor[v]].push_back(static_cast<std::uint32_t>(v));
    } else {
      parallel.push_back(builder.leaf(dag.law_of(v)));
    }
  }
  const auto& boost_graph = graph.boost_graph();
  for (const auto& [processor, tasks] : by_processor) {
    (void)processor;
    std::vector<std::size_t> chain{builder.leaf(dag.law_of(tasks.front()))};
    for (std::size_t i = 1; i < tasks.size(); ++i) {
      if (!boost::edge(dag.original[tasks[i - 1]], dag.original[tasks[i]], boost_graph).second) {
        parallel.push_back(builder.series(chain));
        chain.clear();
      }
      chain.push_back(builder.leaf(dag.law_of(tasks[i])));
    }
    parallel.push_back(builder.series(chain));
  }
  return builder.parallel(parallel);
}

// Processors' chains: keep only the arcs between consecutive tasks of one processor. What is
// left is chains in parallel (unbound tasks alone), series-parallel by construction.
double processor_chains_lower_bound(const graph::TaskGraph& graph, const Dag& dag, const BoundsOptions& options) {
  {
    TreeBuilder closed(false, options.grid);
    const std::size_t root = processor_chains(graph, dag, closed);
    if (closed.nodes() <= kClosedFormTreeNodes) return closed.solve(root, options.grid).lower;
  }
  TreeBuilder numerical(true, options.grid);
  const std::size_t root = processor_chains(graph, dag, numerical);
  return numerical.solve(root, options.grid).lower;
}

double mean_finish(const Dag& dag, const std::vector<double>& start, std::uint32_t u) {
  return start[u] + dag.law_of(u).mean_low;
}

// Each task keeps the arc from its critical predecessor: an out-forest.
double out_forest_lower_bound(const Dag& dag, const distributions::GridOptions& grid,
                              const std::vector<double>& start) {
  TreeBuilder builder(true, grid);
  std::vector<std::vector<std::size_t>> children(dag.n);
  std::vector<std::size_t> roots;
  std::vector<std::uint32_t> parent(dag.n, static_cast<std::uint32_t>(-1));
  for (std::size_t v = 0; v < dag.n; ++v) {
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      if (parent[v] == static_cast<std::uint32_t>(-1) ||
          mean_finish(dag, start, u) > mean_finish(dag, start, parent[v]))
        parent[v] = u;
    }
  }
  std::vector<std::size_t> subtree(dag.n);
  for (std::size_t v = dag.n; v-- > 0;) {
    std::vector<std::size_t> parts{builder.leaf(dag.law_of(v))};
    if (!children[v].empty()) parts.push_back(builder.parallel(children[v]));
    subtree[v] = builder.series(parts);
    if (parent[v] == static_cast<std::uint32_t>(-1)) {
      roots.push_back(subtree[v]);
    } else {
      children[parent[v]].push_back(subtree[v]);
    }
  }
  return builder.solve(builder.parallel(roots), grid).lower;
}

// Each task keeps the arc to the successor for which it is most nearly critical: an
// in-forest.
double in_forest_lower_bound(const Dag& dag, const distributions::GridOptions& grid, const std::vector<double>& start) {
  TreeBuilder builder(true, grid);
  std::vector<std::uint32_t> keep(dag.n, static_cast<std::uint32_t>(-1));
  for (std::size_t u = 0; u < dag.n; ++u) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::uint32_t k = dag.succ_begin[u]; k < dag.succ_begin[u + 1]; ++k) {
      const std::uint32_t w = dag.succ[k];
      const double margin = mean_finish(dag, start, static_cast<std::uint32_t>(u)) - start[w];
      if (margin > best) {
        best = margin;
        keep[u] = w;
      }
    }
  }
  std::vector<std::vector<std::size_t>> feeding(dag.n);
  std::vector<std::size_t> roots;
  for (std::size_t v = 0; v < dag.n; ++v) {
    std::vector<std::size_t> parts;
    if (!feeding[v].empty()) parts.push_back(builder.parallel(feeding[v]));
    parts.push_back(builder.leaf(dag.law_of(v)));
    const std::size_t subtree = builder.series(parts);
    if (keep[v] == static_cast<std::uint32_t>(-1)) {
      roots.push_back(subtree);
    } else {
      feeding[keep[v]].push_back(subtree);
    }
  }
  return builder.solve(builder.parallel(roots), grid).lower;
}

// The deletions that apply to graphs of up to max_reduction_tasks tasks.
void small_graph_deletions(const Dag& dag, const BoundsOptions& options, std::vector<KeptArcs>& results) {
  const distributions::GridOptions grid = per_task_grid(options, dag.n);
  // A series-parallel graph needs no deletion at all: its reduction is exact.
  {
    std::vector<std::int64_t> one_block(dag.n, 0);
    TreeBuilder builder(true, grid);
    BlockCounts counts;
    const std::size_t root = blocks_in_series(dag, one_block, builder, counts, dag.n);
    if (counts.exact == 1)
      results.push_back({"every arc (the graph is series-parallel)", builder.solve(root, grid).lower});
  }
  const std::vector<double> start = critical_path_starts(dag);
  results.push_back({"critical-predecessor out-forest", out_forest_lower_bound(dag, grid, start)});
  results.push_back({"critical-successor in-forest", in_forest_lower_bound(dag, grid, start)});
}

}  // namespace

distributions::GridOptions per_task_grid(const BoundsOptions& options, std::size_t tasks) {
  distributions::GridOptions grid = options.grid;
  const auto affordable =
      static_cast<std::size_t>(options.reduction_work / static_cast<std::int64_t>(std::max<std::size_t>(tasks, 1)));
  grid.max_points = std::clamp<std::size_t>(affordable, std::min<std::size_t>(256, grid.max_points), grid.max_points);
  return grid;
}

// ---- Barrier insertion -----------------------------------------------------------------------

Outcome barrier_insertion(const Dag& dag, const BoundsOptions& options, std::size_t largest_recognised) {
  Outcome best;
  bool exact_partition = false;
  for (const Partition& candidate : candidate_partitions(dag)) {
    if (candidate.name == "levels" && exact_partition) break;
    BlockCounts counts;
    const double value = blocks_upper_bound(dag, candidate.block, options, largest_recognised, counts);
    exact_partition = exact_partition || counts.exact == counts.blocks;
    if (!best.computed || value < best.value) {
      best.computed = true;
      best.value = value;
      best.note = barriers_note(candidate.name, counts, largest_recognised);
    }
  }
  return best;
}

// ---- Arc deletion ----------------------------------------------------------------------------

Outcome arc_deletion(const graph::TaskGraph& graph, const Dag& dag, const BoundsOptions& options) {
  std::vector<KeptArcs> results;
  if (has_bound_tasks(dag))
    results.push_back({"processors' chains", processor_chains_lower_bound(graph, dag, options)});
  if (dag.n <= options.max_reduction_tasks) small_graph_deletions(dag, options, results);
  if (results.empty()) {
    return {false, 0.0,
            format("skipped: no processors and more than %.0f tasks (max_reduction_tasks)",
                   static_cast<double>(options.max_reduction_tasks))};
  }
  const auto best = std::max_element(results.begin(), results.end(),
                                     [](const KeptArcs& a, const KeptArcs& b) { return a.value < b.value; });
  return {true, best->value, "kept " + best->name};
}

}  // namespace solvers::bounds_detail
