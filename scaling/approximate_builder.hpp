// The series-parallel tree while the approximate model builds it (approximate_model.cpp walks
// the pattern, the scheme_*.cpp files build the phases): leaves and compositions that treat
// "no work" as nothing, the machine's overheads as leaves, the per-processor work that no
// synchronisation has closed yet, and the pieces of the pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/sp_tree.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "scaling/bound_quantities.hpp"

namespace scaling::detail {

// "No work": the identity of both series (X + 0) and parallel (max(X, 0)) composition, kept
// out of the tree altogether.
inline constexpr std::size_t kZero = std::numeric_limits<std::size_t>::max();

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

class ApproximateBuilder {
 public:
  ApproximateBuilder(const models::Machine& machine, const models::Environment& environment, int p)
      : bound_(machine, environment, p), p_(p) {}

  // ---- values ----------------------------------------------------------------------
  double value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.value(expr, where, what);
  }
  std::int64_t count(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.count(expr, where, what);
  }
  distributions::Distribution runtime(const models::RuntimeSpec& spec) const { return bound_.runtime(spec); }
  // A runtime that adds nothing to a series (an interarrival or join time of 0).
  static bool takes_no_time(const distributions::Distribution& d) {
    return distributions::is_closed_form(d) && distributions::mean(d) == 0.0;
  }
  std::int64_t processors() const { return p_; }
  graph::SpTree& tree() { return tree_; }
  bool ranks_in_blocks() const { return bound_.ranks_in_blocks(); }
  std::shared_ptr<const graph::PoolMaster> pool_master(const models::WorkPhase& phase) const {
    return bound_.pool_master(phase);
  }
  std::int64_t pool_workers(const models::WorkPhase& phase, std::int64_t n) const {
    return bound_.pool_workers(phase, n);
  }
  // A subtask of `phase` at least its SUBTASK MEMORY VOLUME at the busiest node's memory
  // bandwidth (M16), before task_leaf's slowdown.
  distributions::Distribution memory_bound(const distributions::Distribution& task,
                                           const models::WorkPhase& phase) const {
    return bound_.memory_bound(task, -1, bound_.memory_volume(phase));
  }

  // ---- tree helpers treating kZero as "nothing" -------------------------------------
  // A task of a program's phase on `processor` (-1: any): on a node with more processors than
  // cores (M15) it takes the busiest node's slowdown times its runtime, an upper bound.
  std::size_t task_leaf(std::string label, const distributions::Distribution& runtime, int processor = -1) {
    const double slowdown = bound_.largest_slowdown();
    return tree_.leaf({std::move(label), graph::NodeKind::Task,
                       slowdown > 1.0 ? distributions::scale(runtime, slowdown) : runtime, processor});
  }
  std::size_t leaf(std::string label, graph::NodeKind kind, distributions::Distribution runtime, int processor = -1) {
    return tree_.leaf({std::move(label), kind, std::move(runtime), processor});
  }
  std::size_t series(std::initializer_list<std::size_t> parts);
  std::size_t power(std::size_t part, std::int64_t n) {
    if (part == kZero || n == 0) return kZero;
    return tree_.series_power(part, n);
  }

  // ---- messages: every one priced by the one model of a message (BoundQuantities::MessageCost)
  using MessageCost = BoundQuantities::MessageCost;
  // What a message of `bytes` costs; `sharing`: the bandwidth-sharing factor S of the step that
  // sends it (sharing()). All 0 on one processor.
  // With nodes (M15) the approximate model does not list a step's pairs of processors: a message
  // between processors takes the larger of the two laws unless all p share one node.
  MessageCost message_cost(double bytes, const models::SourceLocation& where, double sharing = 1.0) const {
    return bound_.message_cost(bytes, where, sharing, bound_.any_route());
  }
  // A message to a receiver outside the processors (INDEPENDENT's results, M8): the machine's law.
  MessageCost message_out_cost(double bytes, const models::SourceLocation& where, double sharing) const {
    return bound_.message_cost(bytes, where, sharing, BoundQuantities::Route::BetweenNodes);
  }
  // A collective's message (Q): priced even when it carries no bytes, eager.
  MessageCost collective_message(double bytes, const models::SourceLocation& where, double sharing) const {
    return bound_.collective_message(bytes, where, sharing, bound_.any_route());
  }
  // msg(L; s, r) (M9) on the busiest processor of a step: `sends` send overheads, the transfer,
  // `receives` receive overheads: s·o + t + r·o, and with ports (M12) ⌈max(1, s, r)/k⌉ port
  // times; rendezvous (M11, r > 0) s·o + r·(t + g + o) + (⌈max(1, s)/k⌉ − 1)·g. With nodes (M15)
  // the busiest node's m processors share its ports: m·s and m·r messages there, or `sharers`
  // times where a scheme knows fewer of a node's processors send across it (0: m).
  double step_seconds(const MessageCost& cost, std::int64_t sends, std::int64_t receives,
                      std::int64_t sharers = 0) const;
  // step_seconds() as one deterministic leaf; none when it costs nothing.
  std::size_t send(const MessageCost& cost, std::int64_t sends, std::int64_t receives, std::int64_t sharers = 0);
  // Message overheads (or any message time a scheme adds up itself) of `seconds` in all.
  std::size_t overheads(double seconds) {
    return overhead(seconds, graph::NodeKind::Communication, "message overheads");
  }
  // A scheme whose approximate model prices its messages as eager (ARBITRARY, MACROPIPELINE,
  // PAIRED) says so for a message the machine makes rendezvous (M11, M14): the tree is then no
  // upper bound (U2), which the reports show under approx's figures.
  void priced_as_eager(const MessageCost& cost, const models::WorkPhase& phase, std::string_view scheme) {
    if (!cost.rendezvous()) return;
    tree_.add_caveat("it prices the rendezvous messages (by the machine's EAGER LIMIT or SEGMENT) of " +
                     std::string(scheme) + " phase '" + phase.name +
                     "' as eager, so it is no upper bound of the exact mean there and may lie below it "
                     "(docs/semantics.md U2)");
  }
  // S of the messages a step sends at once (bandwidth_sharing.hpp), and whether the machine's
  // topology can make it exceed 1.
  double sharing(const std::vector<Transfer>& step) const { return bound_.sharing(step); }
  bool shares_bandwidth() const { return bound_.shares_bandwidth(); }
  bool has_ports() const { return bound_.has_ports(); }
  std::int64_t ports() const { return bound_.ports(); }
  // Nodes (M15): processor r's node, and the most processors one node holds (1 without NODE),
  // who share its ports.
  std::int64_t node_of(std::int64_t r) const { return bound_.node_of(r); }
  std::int64_t node_count() const { return bound_.node_count(); }
  std::int64_t port_sharers() const { return bound_.port_sharers(); }
  double port_queue_seconds(double total, double largest, std::int64_t count) const {
    return bound_.port_queue_seconds(total, largest, count);
  }
  std::size_t barrier(const models::SourceLocation& where);
  const models::Machine& machine() const { return bound_.machine(); }
  std::size_t contention(double phase_work, const models::SourceLocation& where);

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
  Work then(const Work& a, const Work& b);
  Work repeated(const Work& work, std::int64_t n);
  // All processors finished: the maximum over groups of processors with the same work.
  std::size_t close(const Work& work);
  // Graham's bound on the greedy list schedule of n tasks of runtime `task` on q = min(p, n)
  // processors: the sum of the runtimes / q, then (q > 1) the largest runtime x (1 - 1/q); an
  // upper bound of the schedule's makespan on every sample path (docs/methods.md, "Dynamic
  // scheduling"). kZero for no task.
  std::size_t list_schedule_bound(const std::string& label, const distributions::Distribution& task, std::int64_t n);
  // A farm of n tasks on w workers and a master (docs/semantics.md I6): with S the master's
  // service and Y = dispatch + task + result a worker's cycle, the makespan is at most
  // sum S + sum Y / w + max Y on every sample path (until the last dispatch the master is
  // either busy or idle with every worker in its cycle; the last task then takes at most
  // max Y), so the mean of that is an upper bound of the farm's mean.
  std::size_t farm_bound(const std::string& label, const distributions::Distribution& task, std::int64_t n,
                         std::int64_t workers, const graph::PoolMaster& master);
  // The n tasks of one level of a dependence structure, spread over the processors and
  // synchronised at the end.
  // Each processor of the level pays one message of `bytes` (a send, the transfer, a receive).
  std::size_t level(std::size_t one, std::int64_t tasks, double bytes, const models::SourceLocation& where);

  // ---- pieces -------------------------------------------------------------------------
  std::size_t whole(const Piece& piece);
  // A piece that begins and ends with every processor synchronised.
  Piece synchronised(std::size_t middle) const;
  // A closed phase (DYNAMIC pool, FORK-JOIN, MACROPIPELINE) with nothing to run: the
  // processors synchronise as they enter it, as in the exact model, and its concatenations
  // apply like those of any phase.
  Piece empty_closed_phase(const models::WorkPhase& phase) const {
    Piece piece = synchronised(kZero);
    piece.first_phase = piece.last_phase = phase.name;
    return piece;
  }
  // The phase's per-processor work, open at both ends.
  Piece open_phase(const models::WorkPhase& phase, Work work);
  // What a processor with units sends after them: `sends` messages of `bytes` and `receives`
  // receive overheads (message()).
  struct UnitMessages {
    double bytes = 0.0;
    std::int64_t sends = 0;
    std::int64_t receives = 0;
    double sharing = 1.0;           // S of the step (sharing())
    bool outside = false;           // to a receiver outside the processors (INDEPENDENT's results)
    std::int64_t port_sharers = 0;  // a node's processors whose messages meet at its port (0: all)
  };
  // One task (of the phase's runtime) per unit of its problem size spread over the
  // processors, each processor its c tasks then messages(c, volume) (none without tasks),
  // where volume is the phase's communication volume, then the contention delay; open.
  Piece unit_phase(const models::WorkPhase& phase, const std::function<UnitMessages(std::int64_t, double)>& messages);

 private:
  std::size_t overhead(double seconds, graph::NodeKind kind, const std::string& label);

  BoundQuantities bound_;
  std::int64_t p_;
  graph::SpTree tree_;
};

}  // namespace scaling::detail
