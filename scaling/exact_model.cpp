#include "scaling/exact_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "scaling/bound_quantities.hpp"

namespace scaling {
namespace {

using graph::NodeId;
using graph::NodeKind;
constexpr NodeId kNone = std::numeric_limits<NodeId>::max();

// The units (tasks, columns) of the last unit-phase instance, for the neighbour dependences
// of the next instance.
struct Units {
  std::vector<NodeId> node;
  std::vector<int> processor;
  std::vector<NodeId> last_on;  // per processor: its last unit, kNone if it had none
  double volume = 0.0;          // bytes a unit sends to a dependent unit on another processor
};

// How the previous work phase meets the next one.
enum class Joint { None, Serial, Barrier, Neighbor, NeighborTorus, Torus };

std::string location_text(const models::SourceLocation& where) {
  if (where.line == 0) return "the pattern";
  return std::to_string(where.line) + ":" + std::to_string(where.column);
}

// Builds one scenario: the pattern compiled with the choices encoded in a scenario index.
class Builder {
 public:
  Builder(const models::Program& program, const models::Machine& machine,
          const models::Environment& environment, int p, std::size_t max_nodes, NeighborOrder neighbor_order)
      : program_(program), bound_(machine, environment, p), p_(p), max_nodes_(max_nodes),
        neighbor_order_(neighbor_order),
        last_(static_cast<std::size_t>(p), kNone) {}

  // Number of combinations of choices below `node` (saturating at 2^62).
  std::uint64_t scenario_count(const models::PatternNode& node) {
    const auto found = counts_.find(&node);
    if (found != counts_.end()) return found->second;
    constexpr std::uint64_t kCap = std::uint64_t{1} << 62;
    auto times = [&](std::uint64_t a, std::uint64_t b) {
      return (a != 0 && b > kCap / a) ? kCap : a * b;
    };
    using Kind = models::PatternNode::Kind;
    std::uint64_t n = 1;
    switch (node.kind) {
      case Kind::Sequence:
        for (const auto& child : node.children) n = times(n, scenario_count(child));
        break;
      case Kind::Repeat: {
        const std::uint64_t per = scenario_count(node.children.front());
        const std::int64_t copies = count(node.count, node.location, "repetition count");
        for (std::int64_t i = 0; i < copies && per > 1 && n < kCap; ++i) n = times(n, per);
        break;
      }
      case Kind::Alternatives:
        n = 0;
        for (const auto& child : node.children) n = std::min(kCap, n + scenario_count(child));
        break;
      case Kind::PhaseRef:
      case Kind::Sync: break;
    }
    counts_[&node] = n;
    return n;
  }

  Scenario build(std::uint64_t index) {
    compile(program_.pattern, index);
    Scenario scenario;
    scenario.probability = probability_;
    scenario.description = description_;
    scenario.graph = std::move(graph_);
    return scenario;
  }

  std::size_t nodes() const { return graph_.node_count(); }

 private:
  // ---- values (shared with the approximate model) ---------------------------------------
  double value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.value(expr, where, what);
  }
  std::int64_t count(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.count(expr, where, what);
  }
  distributions::Distribution runtime(const models::RuntimeSpec& spec) const { return bound_.runtime(spec); }
  static bool is_zero(const distributions::Distribution& d) {
    return distributions::is_closed_form(d) && distributions::mean(d) == 0.0 &&
           distributions::variance(d) == 0.0;
  }

  // Machine overheads: none on one processor; a cost of 0 means no node.
  double communication_seconds(double bytes, const models::SourceLocation& where) {
    if (p_ == 1 || bytes == 0.0) return 0.0;
    const auto found = communication_cache_.find(bytes);
    if (found != communication_cache_.end()) return found->second;
    return communication_cache_.emplace(bytes, bound_.communication_seconds(bytes, where)).first->second;
  }
  double barrier_seconds(const models::SourceLocation& where) const { return bound_.barrier_seconds(where); }
  double contention_seconds(double work, const models::SourceLocation& where) const {
    return bound_.contention_seconds(work, where);
  }

  // ---- nodes and arcs -----------------------------------------------------------------------
  NodeId add(std::string label, NodeKind kind, distributions::Distribution runtime, int processor,
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
  NodeId deterministic_node(std::string label, NodeKind kind, double seconds, int processor, std::int64_t step) {
    const auto found = constants_.find(seconds);
    if (found == constants_.end()) {
      return add(std::move(label), kind, constants_.emplace(seconds, distributions::deterministic(seconds)).first->second,
                 processor, step);
    }
    return add(std::move(label), kind, found->second, processor, step);
  }
  void arc(NodeId from, NodeId to) {
    if (from != kNone && from != to) graph_.add_arc(from, to);
  }
  // Appends v to processor k's order.
  void run_on(std::size_t k, NodeId v) {
    arc(last_[k], v);
    last_[k] = v;
  }
  // from -> to, through a communication node of `bytes` when they are on different
  // processors and the transfer costs something.
  void link(NodeId from, NodeId to, double bytes, const models::SourceLocation& where) {
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

  // Every processor waits for all of them: one node (a barrier of `seconds`, or a join of no
  // duration) after every processor's last node. Nothing on one processor, whose order
  // already serialises everything.
  void synchronise(double seconds, const models::SourceLocation& where) {
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
  void send_boundaries(const models::SourceLocation& where) {
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

  void forget_units() {
    units_ = Units{};
    boundary_pending_ = false;
  }

  // ---- joints between work phases -----------------------------------------------------------
  Joint joint_to(const models::WorkPhase& next) const {
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

  // Applies a joint that needs no per-unit arcs; returns true when the next phase still has
  // to add the neighbour arcs itself.
  bool enter(const models::WorkPhase& phase, bool takes_neighbour_arcs) {
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

  // ---- the pattern ----------------------------------------------------------------------
  void compile(const models::PatternNode& node, std::uint64_t index) {
    using Kind = models::PatternNode::Kind;
    switch (node.kind) {
      case Kind::Sequence:
        for (const auto& child : node.children) {
          const std::uint64_t n = scenario_count(child);
          compile(child, index % n);
          index /= n;
        }
        return;
      case Kind::Repeat: {
        const std::int64_t copies = count(node.count, node.location, "repetition count");
        const std::uint64_t n = scenario_count(node.children.front());
        for (std::int64_t i = 0; i < copies; ++i) {
          compile(node.children.front(), index % n);
          index /= n;
        }
        return;
      }
      case Kind::Alternatives: {
        std::size_t branch = 0;
        while (branch + 1 < node.children.size() && index >= scenario_count(node.children[branch])) {
          index -= scenario_count(node.children[branch]);
          ++branch;
        }
        const double probability = value(node.probabilities[branch], node.location, "branch probability");
        probability_ *= probability;
        if (!description_.empty()) description_ += "; ";
        description_ += "branch " + std::to_string(branch + 1) + " of " + std::to_string(node.children.size()) +
                        " at " + location_text(node.location);
        // Alternatives are closed on both sides, as in the approximate model.
        synchronise(0.0, node.location);
        last_phase_.clear();
        forget_units();
        compile(node.children[branch], index);
        synchronise(0.0, node.location);
        last_phase_.clear();
        forget_units();
        return;
      }
      case Kind::PhaseRef: phase(node.phase, node.location); return;
      case Kind::Sync:
        synchronise(barrier_seconds(node.location), node.location);
        last_phase_.clear();
        forget_units();
        return;
    }
  }

  void phase(const std::string& name, const models::SourceLocation& where) {
    if (const models::SequentialPhase* sequential = models::find_sequential_phase(program_, name)) {
      // Runs on processor 0 while the others wait.
      synchronise(0.0, where);
      const NodeId v = add(name, NodeKind::Task, runtime(sequential->runtime), 0, step_++);
      for (std::size_t k = 0; k < last_.size(); ++k) arc(last_[k], v);
      std::fill(last_.begin(), last_.end(), v);
      last_phase_.clear();
      forget_units();
      return;
    }
    const models::WorkPhase* work = models::find_work_phase(program_, name);
    if (work == nullptr) throw ScalingError(where, "no phase named '" + name + "'");
    switch (work->scheme) {
      case models::Scheme::Independent:
      case models::Scheme::Neighbor:
      case models::Scheme::NeighborTorus: unit_phase(*work); break;
      case models::Scheme::Paired: paired_phase(*work); break;
      case models::Scheme::Macropipeline: pipeline_phase(*work); break;
      case models::Scheme::ForkJoin: fork_join_phase(*work); break;
      case models::Scheme::Arbitrary: arbitrary_phase(*work); break;
    }
    last_phase_ = name;
  }

  // Processor of unit c of n under a static schedule: contiguous blocks (the first n mod p
  // processors one unit more) or cyclic.
  int processor_of(std::int64_t c, std::int64_t n, models::Scheduling scheduling) const {
    if (scheduling == models::Scheduling::Cyclic) return static_cast<int>(c % p_);
    const std::int64_t q = n / p_, r = n % p_;
    const std::int64_t big = r * (q + 1);
    return static_cast<int>(c < big ? c / (q + 1) : r + (c - big) / q);
  }

  // INDEPENDENT and NEIGHBOR(-TORUS): one task per unit, each processor its units in order.
  void unit_phase(const models::WorkPhase& phase) {
    const distributions::Distribution task = runtime(*phase.runtime);
    const std::int64_t n = count(*phase.units, phase.location, "number of tasks");
    const double volume = value(phase.volume, phase.location, "communication volume");
    const bool independent = phase.scheme == models::Scheme::Independent;
    const double contention = contention_seconds(static_cast<double>(n) * distributions::mean(task), phase.location);
    if (independent && phase.scheduling == models::Scheduling::Dynamic) {
      dynamic_pool(phase, task, n, volume, contention);
      return;
    }
    const Joint joint = joint_to(phase);
    const bool neighbour_arcs = enter(phase, true);
    const models::Scheduling scheduling = independent ? phase.scheduling : models::Scheduling::Block;
    const bool wrap = joint == Joint::NeighborTorus || joint == Joint::Torus ||
                      phase.scheme == models::Scheme::NeighborTorus;
    const std::int64_t step = step_++;
    const Units previous = neighbour_arcs ? std::move(units_) : Units{};
    const std::int64_t m = static_cast<std::int64_t>(previous.node.size());
    Units units;
    units.node.assign(static_cast<std::size_t>(n), kNone);
    units.processor.assign(static_cast<std::size_t>(n), 0);
    units.last_on.assign(last_.size(), kNone);
    units.volume = volume;
    std::vector<char> started(last_.size(), 0);
    std::vector<std::int64_t> per_processor(last_.size(), 0);
    const std::string prefix = phase.name + " u";
    const std::string suffix = " s" + std::to_string(step);
    // Units are created processor by processor in the order each runs them: ascending, or
    // for odd processors descending under the alternating NEIGHBOR order (blocks only).
    const bool alternating = !independent && neighbor_order_ == NeighborOrder::Alternating;
    const std::int64_t q = n / p_, r = n % p_;
    auto block_begin = [&](std::int64_t k) { return k * q + std::min(k, r); };
    for (std::int64_t position = 0; position < n; ++position) {
      std::int64_t c = position;
      if (alternating) {
        const int owner = processor_of(position, n, models::Scheduling::Block);
        if (owner % 2 == 1) c = block_begin(owner) + block_begin(owner + 1) - 1 - position;
      }
      const int k = processor_of(c, n, scheduling);
      const NodeId v = add(prefix + std::to_string(c) + suffix, NodeKind::Task, task, k, step);
      const auto ku = static_cast<std::size_t>(k);
      if (neighbour_arcs) {
        // Dependences on units of the previous instance; those on the same processor are
        // implied by its order and left out.
        auto depend = [&](std::int64_t u) {
          if (u < 0 || u >= m) {
            if (!wrap || m == 0) return;
            u = ((u % m) + m) % m;
          }
          if (previous.processor[static_cast<std::size_t>(u)] != k) {
            link(previous.node[static_cast<std::size_t>(u)], v, previous.volume, phase.location);
          }
        };
        if (m == n) {
          if (joint == Joint::Torus) {
            depend(c);
            depend(c - 1);
          } else {
            depend(c - 1);
            depend(c);
            depend(c + 1);
          }
        } else if (!started[ku]) {
          // Different unit counts: the processor's first unit waits for its neighbouring
          // processors' last units.
          for (std::int64_t d : {std::int64_t{-1}, std::int64_t{1}}) {
            std::int64_t other = k + d;
            if (other < 0 || other >= p_) {
              if (!wrap) continue;
              other = (other + p_) % p_;
            }
            const NodeId u = previous.last_on[static_cast<std::size_t>(other)];
            if (u != kNone && static_cast<int>(other) != k) link(u, v, previous.volume, phase.location);
          }
        }
      }
      started[ku] = 1;
      ++per_processor[ku];
      run_on(ku, v);
      units.node[static_cast<std::size_t>(c)] = v;
      units.processor[static_cast<std::size_t>(c)] = k;
      units.last_on[ku] = v;
    }
    for (std::size_t k = 0; k < last_.size(); ++k) {
      if (independent && per_processor[k] > 0) {
        // The results, one message per processor as in the approximate model.
        const double seconds = communication_seconds(volume * static_cast<double>(per_processor[k]), phase.location);
        if (seconds > 0.0) {
          run_on(k, deterministic_node(phase.name + " results", NodeKind::Communication, seconds,
                                       static_cast<int>(k), step));
        }
      }
      if (contention > 0.0) {
        run_on(k, deterministic_node(phase.name + " contention", NodeKind::Contention, contention,
                                     static_cast<int>(k), step));
      }
    }
    units_ = std::move(units);
    boundary_pending_ = !independent && volume > 0.0;
  }

  // DYNAMIC: the processors take the tasks from a shared queue. The pool starts when every
  // processor is free and ends with the last task.
  void dynamic_pool(const models::WorkPhase& phase, const distributions::Distribution& task, std::int64_t n,
                    double volume, double contention) {
    const Joint joint = joint_to(phase);
    synchronise(joint == Joint::Barrier ? barrier_seconds(phase.location) : 0.0, phase.location);
    forget_units();
    if (n == 0) return;
    const std::int64_t step = step_++;
    const NodeId pool = add(phase.name + " pool s" + std::to_string(step), NodeKind::DynamicPool, task, -1, step);
    graph_.node(pool).pool_tasks = n;
    graph_.node(pool).pool_processors = static_cast<int>(std::min<std::int64_t>(p_, n));
    for (NodeId v : last_) arc(v, pool);
    std::fill(last_.begin(), last_.end(), pool);
    NodeId end = pool;
    // The busiest processor's results, ceil(n/p) tasks' worth (an approximation: under dynamic
    // scheduling the counts are random).
    const double seconds = communication_seconds(volume * static_cast<double>((n + p_ - 1) / p_), phase.location);
    if (seconds > 0.0) {
      const NodeId message = deterministic_node(phase.name + " results", NodeKind::Communication, seconds, -1, step);
      arc(end, message);
      end = message;
    }
    if (contention > 0.0) {
      const NodeId delay = deterministic_node(phase.name + " contention", NodeKind::Contention, contention, -1, step);
      arc(end, delay);
      end = delay;
    }
    std::fill(last_.begin(), last_.end(), end);
  }

  // Closed phases (MACROPIPELINE, FORK-JOIN, ARBITRARY) start with every processor free and
  // end synchronised, as in the approximate model.
  void enter_closed(const models::WorkPhase& phase) {
    const Joint joint = joint_to(phase);
    synchronise(joint == Joint::Barrier ? barrier_seconds(phase.location) : 0.0, phase.location);
    forget_units();
  }
  void leave_closed(const models::WorkPhase& phase, double contention) {
    synchronise(0.0, phase.location);
    if (contention > 0.0) {
      const NodeId delay = deterministic_node(phase.name + " contention", NodeKind::Contention, contention, -1, step_ - 1);
      for (NodeId v : last_) arc(v, delay);
      std::fill(last_.begin(), last_.end(), delay);
    }
  }

  // PAIRED: iteration i on its processor (BLOCK or CYCLIC; DYNAMIC is taken as BLOCK); each
  // processor runs the independent parts of its iterations, then their dependent parts in
  // order; dependent(i) waits for independent(i) and dependent(i - d) for every distance d.
  void paired_phase(const models::WorkPhase& phase) {
    const std::int64_t n = count(*phase.units, phase.location, "number of iterations");
    const distributions::Distribution independent_time = runtime(phase.independent->runtime);
    const distributions::Distribution dependent_time = runtime(phase.dependent->runtime);
    const double dependent_bytes = value(phase.dependent->volume, phase.location, "communication volume");
    std::vector<std::int64_t> distances;
    for (const auto& d : phase.dependencies) {
      const std::int64_t distance = count(d, phase.location, "dependency distance");
      if (distance < 1) throw ScalingError(phase.location, "dependency distance must be >= 1");
      distances.push_back(distance);
    }
    enter(phase, false);
    forget_units();
    if (n == 0) return;
    const models::Scheduling scheduling =
        phase.scheduling == models::Scheduling::Cyclic ? models::Scheduling::Cyclic : models::Scheduling::Block;
    const std::int64_t step = step_;
    step_ += 2;
    for (std::int64_t i = 0; i < n; ++i) {
      const int k = processor_of(i, n, scheduling);
      run_on(static_cast<std::size_t>(k),
             add(phase.name + " independent " + std::to_string(i), NodeKind::Task, independent_time, k, step));
    }
    std::vector<NodeId> dependent(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const int k = processor_of(i, n, scheduling);
      const NodeId v = add(phase.name + " dependent " + std::to_string(i), NodeKind::Task, dependent_time, k, step + 1);
      for (std::int64_t d : distances) {
        if (i - d >= 0) link(dependent[static_cast<std::size_t>(i - d)], v, dependent_bytes, phase.location);
      }
      run_on(static_cast<std::size_t>(k), v);
      dependent[static_cast<std::size_t>(i)] = v;
    }
    const double work =
        static_cast<double>(n) * (distributions::mean(independent_time) + distributions::mean(dependent_time));
    leave_closed(phase, contention_seconds(work, phase.location));
  }

  // MACROPIPELINE: task (j, s) after (j, s-1) and (j-1, s); stages in contiguous blocks; a
  // processor runs its stages of job j before those of job j+1; job j (j >= 1) is released
  // after j interarrival times (a chain of arrival nodes from the phase's start).
  void pipeline_phase(const models::WorkPhase& phase) {
    const std::int64_t jobs = count(*phase.jobs, phase.location, "number of jobs");
    const std::int64_t stages = count(*phase.stages, phase.location, "number of stages");
    const distributions::Distribution stage_time = runtime(*phase.runtime);
    const distributions::Distribution arrival_time = runtime(*phase.interarrival);
    const double bytes = value(phase.volume, phase.location, "communication volume");
    enter_closed(phase);
    if (jobs == 0 || stages == 0) return;
    const std::int64_t step = step_;
    step_ += jobs;
    const NodeId start = last_.front();
    NodeId arrival = kNone;
    for (std::int64_t j = 0; j < jobs; ++j) {
      NodeId released = kNone;
      if (j > 0 && !is_zero(arrival_time)) {
        const NodeId a = add(phase.name + " arrival " + std::to_string(j), NodeKind::Task, arrival_time, -1, step + j - 1);
        arc(arrival == kNone ? start : arrival, a);
        arrival = released = a;
      }
      NodeId before = kNone;
      for (std::int64_t s = 0; s < stages; ++s) {
        const int k = processor_of(s, stages, models::Scheduling::Block);
        const NodeId v = add(phase.name + " j" + std::to_string(j) + " s" + std::to_string(s), NodeKind::Task,
                             stage_time, k, step + j);
        if (s == 0) {
          arc(released, v);
        } else if (graph_.node(before).processor != k) {
          link(before, v, bytes, phase.location);
        }
        run_on(static_cast<std::size_t>(k), v);
        before = v;
      }
    }
    leave_closed(phase, 0.0);
  }

  // FORK-JOIN: job after job; a job's tasks are scheduled as in INDEPENDENT, each processor
  // sends its tasks' results to the drain on processor 0; job j+1 starts after job j's drain
  // and its own release (a chain of arrival nodes from the phase's start).
  void fork_join_phase(const models::WorkPhase& phase) {
    const std::int64_t jobs = count(*phase.jobs, phase.location, "number of jobs");
    const std::int64_t tasks = count(*phase.tasks_per_job, phase.location, "tasks per job");
    const distributions::Distribution task = runtime(*phase.runtime);
    const distributions::Distribution arrival_time = runtime(*phase.interarrival);
    const distributions::Distribution join_time = runtime(*phase.join);
    const double bytes = value(phase.volume, phase.location, "communication volume");
    enter_closed(phase);
    if (jobs == 0) return;
    const std::int64_t step = step_;
    step_ += jobs;
    NodeId arrival = kNone;
    const NodeId phase_start = last_.front();
    NodeId previous = phase_start;
    std::vector<NodeId> on(last_.size());           // per processor: its last task of the job
    std::vector<std::int64_t> done(last_.size());  // per processor: its tasks of the job
    for (std::int64_t j = 0; j < jobs; ++j) {
      NodeId start = previous;
      if (j > 0 && !is_zero(arrival_time)) {
        const NodeId a = add(phase.name + " arrival " + std::to_string(j), NodeKind::Task, arrival_time, -1, step + j - 1);
        arc(arrival == kNone ? phase_start : arrival, a);
        arrival = a;
        start = add("join", NodeKind::Join, {}, -1, step + j);
        arc(previous, start);
        arc(a, start);
      }
      const NodeId drain = is_zero(join_time)
                               ? add(phase.name + " drain " + std::to_string(j), NodeKind::Join, {}, 0, step + j)
                               : add(phase.name + " drain " + std::to_string(j), NodeKind::Task, join_time, 0, step + j);
      if (tasks == 0) {
        arc(start, drain);
      } else if (phase.scheduling == models::Scheduling::Dynamic) {
        const NodeId pool = add(phase.name + " pool " + std::to_string(j), NodeKind::DynamicPool, task, -1, step + j);
        graph_.node(pool).pool_tasks = tasks;
        graph_.node(pool).pool_processors = static_cast<int>(std::min<std::int64_t>(p_, tasks));
        arc(start, pool);
        arc(pool, drain);
      } else {
        std::fill(on.begin(), on.end(), kNone);
        std::fill(done.begin(), done.end(), 0);
        for (std::int64_t t = 0; t < tasks; ++t) {
          const int k = processor_of(t, tasks, phase.scheduling);
          const auto ku = static_cast<std::size_t>(k);
          const NodeId v = add(phase.name + " j" + std::to_string(j) + " t" + std::to_string(t), NodeKind::Task,
                               task, k, step + j);
          arc(on[ku] == kNone ? start : on[ku], v);
          on[ku] = v;
          ++done[ku];
        }
        for (std::size_t k = 0; k < on.size(); ++k) {
          if (on[k] != kNone) link(on[k], drain, bytes * static_cast<double>(done[k]), phase.location);
        }
      }
      previous = drain;
    }
    std::fill(last_.begin(), last_.end(), previous);
    leave_closed(phase, 0.0);
  }

  // ARBITRARY: the tasks and arcs as given; processors as in the approximate model (ON
  // PROCESSOR k: k mod p, otherwise in turn within the task's level), each processor its
  // tasks level by level.
  void arbitrary_phase(const models::WorkPhase& phase) {
    const std::size_t n = phase.tasks.size();
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i) index[phase.tasks[i].name] = i;
    std::vector<std::vector<std::pair<std::size_t, double>>> incoming(n);
    for (const models::Arc& a : phase.arcs) {
      incoming[index.at(a.to)].emplace_back(index.at(a.from), value(a.volume, a.location, "communication volume"));
    }
    // Longest-path levels by repeated relaxation in a topological order (Kahn).
    std::vector<std::vector<std::size_t>> outgoing(n);
    std::vector<std::size_t> waiting(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
      for (const auto& [u, bytes] : incoming[v]) {
        outgoing[u].push_back(v);
        ++waiting[v];
      }
    }
    std::vector<std::size_t> order;
    for (std::size_t v = 0; v < n; ++v)
      if (waiting[v] == 0) order.push_back(v);
    std::vector<std::int64_t> depth(n, 0);
    for (std::size_t head = 0; head < order.size(); ++head) {
      for (std::size_t v : outgoing[order[head]]) {
        depth[v] = std::max(depth[v], depth[order[head]] + 1);
        if (--waiting[v] == 0) order.push_back(v);
      }
    }
    if (order.size() != n) throw ScalingError(phase.location, "the task graph of the phase has a cycle");
    enter_closed(phase);
    if (n == 0) return;
    std::map<std::int64_t, std::vector<std::size_t>> levels;
    for (std::size_t i = 0; i < n; ++i) levels[depth[i]].push_back(i);
    std::vector<NodeId> node(n, kNone);
    double work = 0.0;
    const std::int64_t step = step_;
    for (const auto& [d, members] : levels) {
      for (std::size_t k = 0; k < members.size(); ++k) {
        const models::Task& t = phase.tasks[members[k]];
        std::int64_t where = static_cast<std::int64_t>(k);
        if (t.processor) where = count(*t.processor, t.location, "processor");
        const int processor = static_cast<int>(where % p_);
        const distributions::Distribution time = runtime(t.runtime);
        work += distributions::mean(time);
        const NodeId v = add(t.name, NodeKind::Task, time, processor, step + d);
        for (const auto& [u, bytes] : incoming[members[k]]) link(node[u], v, bytes, t.location);
        run_on(static_cast<std::size_t>(processor), v);
        node[members[k]] = v;
      }
    }
    step_ += static_cast<std::int64_t>(levels.size());
    leave_closed(phase, contention_seconds(work, phase.location));
  }

  const models::Program& program_;
  detail::BoundQuantities bound_;
  std::int64_t p_;
  std::size_t max_nodes_;
  NeighborOrder neighbor_order_;
  graph::TaskGraph graph_;
  std::vector<NodeId> last_;  // per processor: the node its next task follows
  std::string last_phase_;    // the work phase just compiled, "" after a synchronisation
  Units units_;
  bool boundary_pending_ = false;
  std::int64_t step_ = 0;
  double probability_ = 1.0;
  std::string description_;
  std::map<const models::PatternNode*, std::uint64_t> counts_;
  std::map<double, double> communication_cache_;
  std::map<double, distributions::Distribution> constants_;
};

}  // namespace

ExactModel exact_model(const models::Program& program, const models::Machine& machine,
                       const models::Environment& environment, int p, const ExactModelOptions& options) {
  if (p < 1 || p > kMaxProcessors) {
    throw std::invalid_argument("processor count must be in [1, " + std::to_string(kMaxProcessors) + "], got " +
                                std::to_string(p));
  }
  const std::uint64_t scenarios =
      Builder(program, machine, environment, p, options.max_nodes, options.neighbor_order).scenario_count(program.pattern);
  if (scenarios > options.max_scenarios) {
    throw ScalingError(program.pattern.location,
                       "the exact model has " + (scenarios >= (std::uint64_t{1} << 62) ? std::string("more than 2^62")
                                                                                          : std::to_string(scenarios)) +
                           " scenarios (combinations of probabilistic alternatives), more than the limit of " +
                           std::to_string(options.max_scenarios) + "; use the approximate model");
  }
  ExactModel model;
  std::size_t nodes = 0;
  for (std::uint64_t s = 0; s < scenarios; ++s) {
    Builder builder(program, machine, environment, p, options.max_nodes - nodes, options.neighbor_order);
    Scenario scenario = builder.build(s);
    nodes += scenario.graph.node_count();
    if (scenario.probability > 0.0) model.scenarios.push_back(std::move(scenario));
  }
  return model;
}

}  // namespace scaling
