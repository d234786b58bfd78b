#include "scaling/approximate_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "scaling/bound_quantities.hpp"

namespace scaling {

ScalingError::ScalingError(models::SourceLocation location, const std::string& message)
    : std::runtime_error(message), location_(std::move(location)) {}

namespace {

using detail::BoundQuantities;

// "No work": the identity of both series (X + 0) and parallel (max(X, 0)) composition, kept
// out of the tree altogether.
constexpr std::size_t kZero = std::numeric_limits<std::size_t>::max();

// Processors [begin, end) each run the work `tree` (kZero: nothing).
struct Range {
  std::int64_t begin;
  std::int64_t end;
  std::size_t tree;
};
// Per-processor work that no synchronisation has closed yet; the ranges cover [0, p) in order.
using Work = std::vector<Range>;

// A piece of the execution pattern. An open piece has no synchronisation inside: all of it is
// per-processor work (`head`), which may still run on in series with the work of the next
// piece (SERIAL concatenation). A closed piece is open work before its first synchronisation
// (`head`), a part that involves all processors (`middle`) and open work after its last
// synchronisation (`tail`).
struct Piece {
  bool empty = true;
  bool open = true;
  Work head;
  std::size_t middle = kZero;
  Work tail;
  // The work phases at either end, "" where the piece begins or ends synchronised.
  std::string first_phase;
  std::string last_phase;
};

enum class Joint { Open, Synchronised };

class Builder {
 public:
  Builder(const models::Program& program, const models::Machine& machine,
          const models::Environment& environment, int p)
      : program_(program), bound_(machine, environment, p), p_(p) {}

  graph::SpTree build() {
    const Piece piece = compile(program_.pattern);
    std::size_t root = whole(piece);
    if (root == kZero) root = tree_.leaf({"empty program", graph::NodeKind::Task, {}, -1});
    tree_.set_root(root);
    return std::move(tree_);
  }

 private:
  // ---- values ----------------------------------------------------------------------
  double value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.value(expr, where, what);
  }
  std::int64_t count(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.count(expr, where, what);
  }
  distributions::Distribution runtime(const models::RuntimeSpec& spec) const { return bound_.runtime(spec); }

  // ---- tree helpers treating kZero as "nothing" -------------------------------------
  std::size_t leaf(std::string label, graph::NodeKind kind, distributions::Distribution runtime,
                   int processor = -1) {
    return tree_.leaf({std::move(label), kind, std::move(runtime), processor});
  }

  std::size_t series(std::initializer_list<std::size_t> parts) {
    std::vector<std::size_t> present;
    for (std::size_t part : parts)
      if (part != kZero) present.push_back(part);
    return present.empty() ? kZero : tree_.series(std::move(present));
  }

  std::size_t power(std::size_t part, std::int64_t n) {
    if (part == kZero || n == 0) return kZero;
    return tree_.series_power(part, n);
  }

  // A machine overhead as a leaf; none where it costs nothing (on one processor, always).
  std::size_t overhead(double seconds, graph::NodeKind kind, const std::string& label) {
    if (seconds == 0.0) return kZero;
    return leaf(label, kind, distributions::deterministic(seconds));
  }

  std::size_t communication(double bytes, const models::SourceLocation& where) {
    return overhead(bound_.communication_seconds(bytes, where), graph::NodeKind::Communication,
                    "communication of " + std::to_string(static_cast<long long>(bytes)) + " bytes");
  }

  std::size_t barrier(const models::SourceLocation& where) {
    return overhead(bound_.barrier_seconds(where), graph::NodeKind::Barrier, "barrier");
  }

  std::size_t contention(double phase_work, const models::SourceLocation& where) {
    return overhead(bound_.contention_seconds(phase_work, where), graph::NodeKind::Contention, "contention");
  }

  // ---- per-processor work -----------------------------------------------------------
  Work uniform(std::size_t tree) const { return {{0, p_, tree}}; }

  // `units` equal units spread over the processors, the first (units mod p) taking one more;
  // per_processor(c) is the work of a processor with c units.
  template <class PerProcessor>
  Work spread(std::int64_t units, PerProcessor per_processor) {
    const std::int64_t q = units / p_;
    const std::int64_t r = units % p_;
    Work work;
    if (r > 0) work.push_back({0, r, per_processor(q + 1)});
    work.push_back({r, p_, per_processor(q)});
    return work;
  }

  // Each processor's work of `a`, then its work of `b`.
  Work then(const Work& a, const Work& b) {
    Work result;
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> made;
    std::size_t i = 0, j = 0;
    std::int64_t at = 0;
    while (at < p_) {
      const std::int64_t end = std::min(a[i].end, b[j].end);
      const auto key = std::make_pair(a[i].tree, b[j].tree);
      auto found = made.find(key);
      if (found == made.end()) found = made.emplace(key, series({a[i].tree, b[j].tree})).first;
      if (!result.empty() && result.back().tree == found->second) {
        result.back().end = end;
      } else {
        result.push_back({at, end, found->second});
      }
      at = end;
      if (a[i].end == end) ++i;
      if (b[j].end == end) ++j;
    }
    return result;
  }

  Work repeated(const Work& work, std::int64_t n) {
    Work result = work;
    for (Range& range : result) range.tree = power(range.tree, n);
    return result;
  }

  // All processors finished: the maximum over groups of processors with the same work.
  std::size_t close(const Work& work) {
    std::map<std::size_t, std::int64_t> processors_with;
    for (const Range& range : work) {
      if (range.tree != kZero) processors_with[range.tree] += range.end - range.begin;
    }
    if (processors_with.empty()) return kZero;
    std::vector<std::size_t> groups;
    for (const auto& [tree, processors] : processors_with) {
      groups.push_back(tree_.parallel_power(tree, processors));
    }
    return tree_.parallel(std::move(groups));
  }

  std::size_t whole(const Piece& piece) {
    if (piece.empty) return kZero;
    if (piece.open) return close(piece.head);
    return series({close(piece.head), piece.middle, close(piece.tail)});
  }

  // ---- joining pieces ---------------------------------------------------------------
  // How the end of one piece meets the start of the next, and what the meeting costs.
  std::pair<Joint, std::size_t> joint(const std::string& first, const std::string& second) {
    if (first.empty() || second.empty()) return {Joint::Open, kZero};
    const models::Concatenation* concatenation = models::find_concatenation(program_, first, second);
    const models::WorkPhase* phase = models::find_work_phase(program_, second);
    const models::SourceLocation where = phase ? phase->location : models::SourceLocation{};
    if (concatenation == nullptr) return {Joint::Synchronised, barrier(where)};
    switch (*concatenation) {
      case models::Concatenation::Serial: return {Joint::Open, kZero};
      case models::Concatenation::Barrier: return {Joint::Synchronised, barrier(where)};
      case models::Concatenation::Neighbor:
      case models::Concatenation::NeighborTorus:
      case models::Concatenation::Torus:
        // Neighbour synchronisation approximated by a barrier: the maximum over processors.
        // Its messages are the phase's own communication nodes.
        return {Joint::Synchronised, kZero};
    }
    return {Joint::Synchronised, kZero};
  }

  Piece join(const Piece& a, const Piece& b) {
    if (a.empty) return b;
    if (b.empty) return a;
    Piece r;
    r.empty = false;
    r.first_phase = a.first_phase;
    r.last_phase = b.last_phase;
    const auto [kind, cost] = joint(a.last_phase, b.first_phase);
    if (kind == Joint::Open) {
      if (a.open && b.open) {
        r.head = then(a.head, b.head);
      } else if (a.open) {
        r.open = false;
        r.head = then(a.head, b.head);
        r.middle = b.middle;
        r.tail = b.tail;
      } else if (b.open) {
        r.open = false;
        r.head = a.head;
        r.middle = a.middle;
        r.tail = then(a.tail, b.head);
      } else {
        r.open = false;
        r.head = a.head;
        r.middle = series({a.middle, close(then(a.tail, b.head)), b.middle});
        r.tail = b.tail;
      }
      return r;
    }
    r.open = false;
    r.head = a.head;
    r.tail = b.open ? b.head : b.tail;
    const std::size_t left = a.open ? kZero : series({a.middle, close(a.tail)});
    const std::size_t right = b.open ? kZero : series({close(b.head), b.middle});
    r.middle = series({left, cost, right});
    return r;
  }

  // n copies of the piece one after the other, with the piece's own end-to-start joint
  // between copies, as powers: the tree does not grow with n.
  Piece repeat(const Piece& piece, std::int64_t n) {
    if (n == 0 || piece.empty) return {};
    if (n == 1) return piece;
    const auto [kind, cost] = joint(piece.last_phase, piece.first_phase);
    Piece r = piece;
    if (piece.open && kind == Joint::Open) {
      r.head = repeated(piece.head, n);
      return r;
    }
    r.open = false;
    if (piece.open) {
      r.tail = piece.head;
      r.middle = series({cost, power(series({close(piece.head), cost}), n - 2)});
      return r;
    }
    const std::size_t between = kind == Joint::Open
                                    ? close(then(piece.tail, piece.head))
                                    : series({close(piece.tail), cost, close(piece.head)});
    r.middle = series({piece.middle, power(series({between, piece.middle}), n - 1)});
    return r;
  }

  // A piece that begins and ends with every processor synchronised.
  Piece synchronised(std::size_t middle) const {
    Piece piece;
    piece.empty = false;
    piece.open = false;
    piece.head = uniform(kZero);
    piece.middle = middle;
    piece.tail = uniform(kZero);
    return piece;
  }

  Piece open_phase(const models::WorkPhase& phase, Work work) {
    Piece piece;
    piece.empty = false;
    piece.head = std::move(work);
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }

  // ---- the pattern ------------------------------------------------------------------
  Piece compile(const models::PatternNode& node) {
    using Kind = models::PatternNode::Kind;
    switch (node.kind) {
      case Kind::Sequence: {
        Piece piece;
        for (const auto& child : node.children) piece = join(piece, compile(child));
        return piece;
      }
      case Kind::Repeat:
        return repeat(compile(node.children.front()),
                      count(node.count, node.location, "repetition count"));
      case Kind::Alternatives: {
        std::vector<double> probabilities;
        std::vector<std::size_t> branches;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          probabilities.push_back(value(node.probabilities[i], node.location, "branch probability"));
          std::size_t branch = whole(compile(node.children[i]));
          if (branch == kZero) branch = leaf("nothing", graph::NodeKind::Join, {});
          branches.push_back(branch);
        }
        try {
          return synchronised(tree_.branch(std::move(probabilities), std::move(branches)));
        } catch (const std::invalid_argument& error) {
          throw ScalingError(node.location, error.what());
        }
      }
      case Kind::PhaseRef: return phase(node.phase, node.location);
      case Kind::Sync: return synchronised(barrier(node.location));
    }
    throw std::logic_error("approximate model: unknown pattern node");
  }

  Piece phase(const std::string& name, const models::SourceLocation& where) {
    if (const models::SequentialPhase* sequential = models::find_sequential_phase(program_, name)) {
      return synchronised(leaf(name, graph::NodeKind::Task, runtime(sequential->runtime)));
    }
    const models::WorkPhase* work = models::find_work_phase(program_, name);
    if (work == nullptr) throw ScalingError(where, "no phase named '" + name + "'");
    switch (work->scheme) {
      case models::Scheme::Independent:
      case models::Scheme::Neighbor:
      case models::Scheme::NeighborTorus: return unit_phase(*work);
      case models::Scheme::Paired: return paired_phase(*work);
      case models::Scheme::Macropipeline: return pipeline_phase(*work);
      case models::Scheme::ForkJoin: return fork_join_phase(*work);
      case models::Scheme::Arbitrary: return arbitrary_phase(*work);
    }
    throw std::logic_error("approximate model: unknown scheme");
  }

  // INDEPENDENT: each processor runs its share of the tasks and sends their results;
  // NEIGHBOR(-TORUS): each processor runs its block of columns and exchanges one boundary.
  Piece unit_phase(const models::WorkPhase& phase) {
    const distributions::Distribution task = runtime(*phase.runtime);
    const std::size_t one = leaf(phase.name + " task", graph::NodeKind::Task, task);
    const std::int64_t units = count(*phase.units, phase.location, "number of tasks");
    const double volume = value(phase.volume, phase.location, "communication volume");
    const bool independent = phase.scheme == models::Scheme::Independent;
    std::map<std::int64_t, std::size_t> made;
    Work work = spread(units, [&](std::int64_t c) {
      auto found = made.find(c);
      if (found != made.end()) return found->second;
      const double bytes = c == 0 ? 0.0 : (independent ? volume * static_cast<double>(c) : volume);
      return made.emplace(c, series({power(one, c), communication(bytes, phase.location)})).first->second;
    });
    const std::size_t delay =
        contention(static_cast<double>(units) * distributions::mean(task), phase.location);
    if (delay != kZero) work = then(work, uniform(delay));
    return open_phase(phase, std::move(work));
  }

  // The n tasks of one level of a dependence structure, spread over the processors and
  // synchronised at the end.
  std::size_t level(std::size_t one, std::int64_t tasks, double bytes,
                    const models::SourceLocation& where) {
    const std::size_t comm = communication(bytes, where);
    return close(spread(tasks, [&](std::int64_t c) { return c == 0 ? kZero : series({power(one, c), comm}); }));
  }

  // PAIRED: the independent parts of all iterations run first, spread over the processors;
  // a barrier; then the dependent parts level by level, where level k holds the iterations
  // whose longest chain of dependences has k links.
  Piece paired_phase(const models::WorkPhase& phase) {
    const std::int64_t n = count(*phase.units, phase.location, "number of iterations");
    const distributions::Distribution independent_time = runtime(phase.independent->runtime);
    const distributions::Distribution dependent_time = runtime(phase.dependent->runtime);
    const std::size_t independent =
        leaf(phase.name + " independent", graph::NodeKind::Task, independent_time);
    const std::size_t dependent = leaf(phase.name + " dependent", graph::NodeKind::Task, dependent_time);
    const double independent_bytes =
        value(phase.independent->volume, phase.location, "communication volume");
    const double dependent_bytes = value(phase.dependent->volume, phase.location, "communication volume");
    std::vector<std::int64_t> distances;
    for (const auto& d : phase.dependencies) {
      const std::int64_t distance = count(d, phase.location, "dependency distance");
      if (distance < 1) throw ScalingError(phase.location, "dependency distance must be >= 1");
      distances.push_back(distance);
    }
    // Level sizes, run-length encoded: the tree grows with the number of distinct runs.
    constexpr std::int64_t kMaxIterations = 100'000'000;
    if (n > kMaxIterations) {
      throw ScalingError(phase.location, "PAIRED phase with more than 100000000 iterations");
    }
    std::vector<std::int32_t> depth(static_cast<std::size_t>(n), 1);
    std::int32_t deepest = n > 0 ? 1 : 0;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t d : distances) {
        if (i - d >= 0) depth[i] = std::max(depth[i], depth[i - d] + 1);
      }
      deepest = std::max(deepest, depth[i]);
    }
    std::vector<std::int64_t> level_size(static_cast<std::size_t>(deepest) + 1, 0);
    for (std::int32_t k : depth) ++level_size[k];

    if (n == 0) return {};
    const std::size_t comm = communication(independent_bytes, phase.location);
    std::size_t middle = barrier(phase.location);
    for (std::int32_t k = 1; k <= deepest;) {
      std::int32_t run = 1;
      while (k + run <= deepest && level_size[k + run] == level_size[k]) ++run;
      middle = series({middle, power(level(dependent, level_size[k], dependent_bytes, phase.location), run)});
      k += run;
    }
    const double work = static_cast<double>(n) * (distributions::mean(independent_time) +
                                                  distributions::mean(dependent_time));
    Piece piece = synchronised(series({middle, contention(work, phase.location)}));
    piece.first_phase = piece.last_phase = phase.name;
    piece.head = spread(n, [&](std::int64_t c) {
      return c == 0 ? kZero : series({power(independent, c), comm});
    });
    return piece;
  }

  // MACROPIPELINE: jobs x stages, stages in contiguous blocks over the processors. The
  // wavefront of step d holds the tasks (job j, stage s) with j + s = d; steps follow each
  // other with a barrier, and a step that admits a new job lasts at least one interarrival time.
  Piece pipeline_phase(const models::WorkPhase& phase) {
    const std::int64_t jobs = count(*phase.jobs, phase.location, "number of jobs");
    const std::int64_t stages = count(*phase.stages, phase.location, "number of stages");
    Piece piece;
    if (jobs == 0 || stages == 0) return piece;
    const std::size_t one = leaf(phase.name + " stage", graph::NodeKind::Task, runtime(*phase.runtime));
    const distributions::Distribution arrival_time = runtime(*phase.interarrival);
    const std::size_t arrival = distributions::is_closed_form(arrival_time) &&
                                        distributions::mean(arrival_time) == 0.0
                                    ? kZero
                                    : leaf(phase.name + " interarrival", graph::NodeKind::Task, arrival_time);
    const std::size_t comm =
        communication(value(phase.volume, phase.location, "communication volume"), phase.location);
    // Stage block of processor k: [first_stage(k), first_stage(k + 1)).
    const std::int64_t q = stages / p_, r = stages % p_;
    auto first_stage = [&](std::int64_t k) { return k * q + std::min(k, r); };
    std::map<std::int64_t, std::size_t> made;
    auto per_processor = [&](std::int64_t c) {
      auto found = made.find(c);
      if (found != made.end()) return found->second;
      return made.emplace(c, c == 0 ? kZero : series({power(one, c), comm})).first->second;
    };
    // The step's work for active stages [lo, hi].
    auto step = [&](std::int64_t d) {
      const std::int64_t lo = std::max<std::int64_t>(0, d - jobs + 1);
      const std::int64_t hi = std::min(d, stages - 1);
      Work work;
      for (std::int64_t k = 0; k < p_;) {
        // Processors wholly inside, before or after [lo, hi] come in runs of equal counts.
        const std::int64_t b = first_stage(k), e = first_stage(k + 1);
        const std::int64_t c = std::max<std::int64_t>(0, std::min(e - 1, hi) - std::max(b, lo) + 1);
        std::int64_t next = k + 1;
        while (next < p_) {
          const std::int64_t nb = first_stage(next), ne = first_stage(next + 1);
          const std::int64_t nc = std::max<std::int64_t>(0, std::min(ne - 1, hi) - std::max(nb, lo) + 1);
          if (nc != c) break;
          ++next;
        }
        work.push_back({k, next, per_processor(c)});
        k = next;
      }
      std::size_t t = close(work);
      if (d < jobs && arrival != kZero) t = tree_.parallel({t == kZero ? leaf("nothing", graph::NodeKind::Join, {}) : t, arrival});
      return t;
    };
    // Steps with every stage busy are alike: one power for all of them.
    const std::int64_t steps = jobs + stages - 1;
    std::size_t middle = kZero;
    std::int64_t d = 0;
    while (d < steps) {
      const bool full = d >= stages - 1 && d <= jobs - 1;
      if (full) {
        const std::int64_t last_full = jobs - 1;
        middle = series({middle, power(step(d), last_full - d + 1)});
        d = last_full + 1;
      } else {
        middle = series({middle, step(d)});
        ++d;
      }
    }
    piece = synchronised(middle);
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }

  // FORK-JOIN: job after job, each forking its tasks over the processors and joined by the
  // drain; a job lasts at least one interarrival time.
  Piece fork_join_phase(const models::WorkPhase& phase) {
    const std::int64_t jobs = count(*phase.jobs, phase.location, "number of jobs");
    const std::int64_t tasks = count(*phase.tasks_per_job, phase.location, "tasks per job");
    if (jobs == 0) return {};
    const std::size_t one = leaf(phase.name + " task", graph::NodeKind::Task, runtime(*phase.runtime));
    const distributions::Distribution arrival_time = runtime(*phase.interarrival);
    const distributions::Distribution join_time = runtime(*phase.join);
    const double bytes = value(phase.volume, phase.location, "communication volume");
    std::size_t job = level(one, tasks, bytes, phase.location);
    if (!(distributions::is_closed_form(arrival_time) && distributions::mean(arrival_time) == 0.0)) {
      const std::size_t arrival = leaf(phase.name + " interarrival", graph::NodeKind::Task, arrival_time);
      job = job == kZero ? arrival : tree_.parallel({job, arrival});
    }
    if (!(distributions::is_closed_form(join_time) && distributions::mean(join_time) == 0.0)) {
      job = series({job, leaf(phase.name + " join", graph::NodeKind::Task, join_time)});
    }
    Piece piece = synchronised(power(job, jobs));
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }

  // ARBITRARY: the tasks level by level (level k: longest chain of arcs into the task has k
  // arcs), each on its processor (ON PROCESSOR k: k mod p, otherwise in turn), with a
  // barrier between levels and a message before a level that an arc reaches across processors.
  Piece arbitrary_phase(const models::WorkPhase& phase) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < phase.tasks.size(); ++i) index[phase.tasks[i].name] = i;
    std::vector<std::vector<std::pair<std::size_t, double>>> incoming(phase.tasks.size());
    for (const models::Arc& arc : phase.arcs) {
      incoming[index.at(arc.to)].emplace_back(index.at(arc.from),
                                              value(arc.volume, arc.location, "communication volume"));
    }
    // Longest-path levels (the checker has rejected cycles; tasks may come in any order).
    std::vector<std::int64_t> depth(phase.tasks.size(), -1);
    std::vector<std::size_t> stack;
    for (std::size_t start = 0; start < phase.tasks.size(); ++start) {
      stack.push_back(start);
      while (!stack.empty()) {
        const std::size_t v = stack.back();
        if (depth[v] >= 0) {
          stack.pop_back();
          continue;
        }
        bool ready = true;
        std::int64_t d = 0;
        for (const auto& [u, bytes] : incoming[v]) {
          if (depth[u] < 0) {
            ready = false;
            stack.push_back(u);
          } else {
            d = std::max(d, depth[u] + 1);
          }
        }
        if (stack.size() > 4 * phase.tasks.size() + 4) {
          throw ScalingError(phase.location, "the task graph of the phase has a cycle");
        }
        if (ready) {
          depth[v] = d;
          stack.pop_back();
        }
      }
    }
    std::vector<int> processor(phase.tasks.size());
    std::map<std::int64_t, std::vector<std::size_t>> levels;
    for (std::size_t i = 0; i < phase.tasks.size(); ++i) levels[depth[i]].push_back(i);
    std::size_t middle = kZero;
    double work = 0.0;
    for (const auto& [d, members] : levels) {
      std::vector<std::vector<std::size_t>> on(static_cast<std::size_t>(p_));
      double crossing_bytes = 0.0;
      for (std::size_t k = 0; k < members.size(); ++k) {
        const models::Task& task = phase.tasks[members[k]];
        std::int64_t where = static_cast<std::int64_t>(k);
        if (task.processor) where = count(*task.processor, task.location, "processor");
        processor[members[k]] = static_cast<int>(where % p_);
        for (const auto& [u, bytes] : incoming[members[k]]) {
          if (processor[u] != processor[members[k]]) crossing_bytes = std::max(crossing_bytes, bytes);
        }
        const distributions::Distribution runtime_of_task = runtime(task.runtime);
        work += distributions::mean(runtime_of_task);
        on[static_cast<std::size_t>(processor[members[k]])].push_back(
            leaf(task.name, graph::NodeKind::Task, runtime_of_task, processor[members[k]]));
      }
      std::vector<std::size_t> busy;
      for (auto& tasks : on) {
        if (!tasks.empty()) busy.push_back(tree_.series(std::move(tasks)));
      }
      middle = series({middle, communication(crossing_bytes, phase.location), tree_.parallel(std::move(busy))});
    }
    Piece piece = synchronised(series({middle, contention(work, phase.location)}));
    if (phase.tasks.empty()) return {};
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }

  const models::Program& program_;
  BoundQuantities bound_;
  std::int64_t p_;
  graph::SpTree tree_;
};

}  // namespace

graph::SpTree approximate_model(const models::Program& program, const models::Machine& machine,
                                const models::Environment& environment, int p) {
  if (p < 1 || p > kMaxProcessors) {
    throw std::invalid_argument("processor count must be in [1, " + std::to_string(kMaxProcessors) +
                                "], got " + std::to_string(p));
  }
  return Builder(program, machine, environment, p).build();
}

}  // namespace scaling
