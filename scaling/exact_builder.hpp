// One scenario's task graph while the exact model builds it (exact_model.cpp walks the pattern,
// the scheme_*.cpp files add the phases): nodes and arcs, each processor's order, barriers and
// joins, and how one work phase meets the next (its concatenation), including the neighbour
// dependences between consecutive instances of INDEPENDENT and NEIGHBOR phases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "scaling/bound_quantities.hpp"
#include "scaling/exact_model.hpp"  // NeighborOrder
#include "scaling/grid_layout.hpp"

namespace scaling::detail {

using graph::NodeId;
using graph::NodeKind;
inline constexpr NodeId kNone = std::numeric_limits<NodeId>::max();

// What a processor sends after its units of an INDEPENDENT or NEIGHBOR instance.
enum class UnitMessage {
  Results,   // INDEPENDENT: one message with its c tasks' results, c·volume bytes
  Boundary,  // NEIGHBOR: its boundary, carried by the next instance's neighbour arcs or sent
             // before the next synchronisation
};

// One instance of a phase with one task per unit (INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS).
struct UnitInstance {
  distributions::Distribution task;
  double memory_bytes = 0.0;  // each task's SUBTASK MEMORY VOLUME (M16)
  std::int64_t units = 0;
  double volume = 0.0;                                        // bytes of one unit's message (UnitMessage)
  double contention = 0.0;                                    // seconds on every processor after its units; 0 for none
  models::Scheduling scheduling = models::Scheduling::Block;  // a static schedule
  bool alternating = false;                                   // odd processors run their block right to left
  bool torus = false;  // neighbour dependences wrap around whatever the concatenation
  UnitMessage message = UnitMessage::Results;
};

class ExactBuilder {
 public:
  ExactBuilder(const models::Program& program, const models::Machine& machine, const models::Environment& environment,
               int p, std::size_t max_nodes, NeighborOrder neighbor_order);

  // ---- values (shared with the approximate model) ---------------------------------------
  double value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.value(expr, where, what);
  }
  double memory_volume(const models::WorkPhase& phase) const { return bound_.memory_volume(phase); }
  std::shared_ptr<const graph::PoolMaster> pool_master(const models::WorkPhase& phase) const {
    return bound_.pool_master(phase);
  }
  std::int64_t pool_workers(const models::WorkPhase& phase, std::int64_t n) const {
    return bound_.pool_workers(phase, n);
  }
  std::int64_t count(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
    return bound_.count(expr, where, what);
  }
  distributions::Distribution runtime(const models::RuntimeSpec& spec) const { return bound_.runtime(spec); }
  static bool is_zero(const distributions::Distribution& d) {
    return distributions::is_closed_form(d) && distributions::mean(d) == 0.0 && distributions::variance(d) == 0.0;
  }
  std::int64_t processors() const { return p_; }
  NeighborOrder neighbor_order() const { return neighbor_order_; }

  // What a message of `bytes` costs (BoundQuantities::message_cost, the one model of a message),
  // computed once per (size, S): `sharing` is the bandwidth-sharing factor S of the step that
  // sends it (sharing()). All 0 on one processor; a cost of 0 means no node.
  using MessageCost = BoundQuantities::MessageCost;
  using Route = BoundQuantities::Route;
  const MessageCost& message_cost(double bytes, const models::SourceLocation& where, double sharing = 1.0,
                                  Route route = Route::BetweenNodes);
  // The route of a message between two processors (M15), and their nodes.
  Route route(std::int64_t from, std::int64_t to) const { return bound_.route(from, to); }
  // S of the messages a step sends at once (bandwidth_sharing.hpp), and whether the machine's
  // topology can make it exceed 1.
  double sharing(const std::vector<Transfer>& step) const { return bound_.sharing(step); }
  bool shares_bandwidth() const { return bound_.shares_bandwidth(); }
  bool has_ports() const { return bound_.has_ports(); }
  std::int64_t ports() const { return bound_.ports(); }
  double barrier_seconds(const models::SourceLocation& where) const { return bound_.barrier_seconds(where); }
  BoundQuantities::MessageCost collective_message(double bytes, const models::SourceLocation& where, double sharing,
                                                  Route route) const {
    return bound_.collective_message(bytes, where, sharing, route);
  }
  const models::Machine& machine() const { return bound_.machine(); }
  double contention_seconds(double work, const models::SourceLocation& where) const {
    return bound_.contention_seconds(work, where);
  }

  // ---- nodes and arcs -----------------------------------------------------------------------
  // A node; a task on a processor (a DYNAMIC pool: on the busiest node) runs on its node (M15,
  // M16): slowed by shared cores, and at least its `memory_bytes` at its node's memory bandwidth.
  NodeId add(std::string label, NodeKind kind, distributions::Distribution runtime, int processor, std::int64_t step,
             double memory_bytes = 0.0);
  NodeId deterministic_node(std::string label, NodeKind kind, double seconds, int processor, std::int64_t step);
  // Refuses at once (ExactModelTooLarge) when `count` more nodes would pass the limit, before
  // a part whose size is known (a collective's messages) is built node by node.
  void expect_nodes(double count) const {
    if (static_cast<double>(graph_.node_count()) + count > static_cast<double>(max_nodes_)) {
      throw ExactModelTooLarge(max_nodes_);
    }
  }
  graph::TaskNode& node(NodeId v) { return graph_.node(v); }
  void arc(NodeId from, NodeId to) {
    if (from != kNone && from != to) graph_.add_arc(from, to);
  }
  // from -> to. Across processors the dependence is a message of `bytes` (delivered once per
  // sending node, receiving processor and size): a send node of the machine's overhead o
  // right after `from` (after its earlier sends) in its processor's order, the transfer (a
  // node of the communication time that occupies no processor), and a receive node of o
  // appended to the receiving processor's order, which `to` is about to join. Nodes that
  // cost nothing are left out, so a free message is the arc from -> to.
  void link(NodeId from, NodeId to, double bytes, const models::SourceLocation& where, double sharing = 1.0);
  // A message of `bytes` from `from` to processor `to` whose receive (a node even without an
  // overhead) joins to's order: to's next node waits for it.
  void send_to_processor(NodeId from, int to, double bytes, const models::SourceLocation& where) {
    message(from, to, bytes, graph_.node(from).step, true, where);
  }

  // The first of `count` new steps (phase instances, iterations, jobs or levels).
  std::int64_t take_steps(std::int64_t count) {
    const std::int64_t first = step_;
    step_ += count;
    return first;
  }

  // ---- each processor's order ---------------------------------------------------------------
  // Per processor: the node its next task follows (kNone before its first).
  const std::vector<NodeId>& last() const { return last_; }
  // Appends v to processor k's order.
  void run_on(std::size_t k, NodeId v);
  // v after every processor's last node; every processor goes on after v.
  void gather_at(NodeId v);
  // Every processor goes on after v, which already follows all their work.
  void continue_after(NodeId v);
  // Processor of unit c of n under a static schedule: contiguous blocks (the first n mod p
  // processors one unit more) or cyclic.
  int processor_of(std::int64_t c, std::int64_t n, models::Scheduling scheduling) const;

  // ---- synchronisation and joints between work phases ---------------------------------------
  // Every processor waits for all of them: one node (a barrier of `seconds`, or a join of no
  // duration) after every processor's last node. Nothing on one processor, whose order
  // already serialises everything.
  void synchronise(double seconds, const models::SourceLocation& where);
  // Before a collective: a NEIGHBOR boundary still to exchange is exchanged, as before a
  // synchronisation, and the next work phase meets no previous one.
  void before_collective(const models::SourceLocation& where) {
    send_boundaries(where, Exchange::BeforeSynchronisation);
    forget_last_phase();
  }
  // Applies a joint that needs no per-unit arcs; returns true when the next phase still has
  // to add the neighbour arcs itself.
  bool enter(const models::WorkPhase& phase, bool takes_neighbour_arcs);
  // Closed phases (MACROPIPELINE, FORK-JOIN, ARBITRARY) start with every processor free and
  // end synchronised, as in the approximate model.
  void enter_closed(const models::WorkPhase& phase);
  void leave_closed(const models::WorkPhase& phase, double contention);
  void forget_units();
  // After the pattern's last phase: a NEIGHBOR boundary still to exchange is exchanged.
  void finish(const models::SourceLocation& where) { send_boundaries(where, Exchange::AtTheEnd); }
  // The phase just added, whose concatenation with the next work phase applies.
  void finished_work_phase(const std::string& name) { last_phase_ = name; }
  // After a synchronisation of the pattern the next work phase meets no previous one.
  void forget_last_phase() {
    last_phase_.clear();
    forget_units();
  }

  // One task per unit, each processor its units in the order it runs them, with the
  // neighbour dependences on the previous instance that its concatenation asks for.
  // An instance of the phase's units: its task runtime, unit count, volume and contention
  // delay (T: the units' mean work) read from the phase; the caller sets the rest.
  UnitInstance unit_instance_of(const models::WorkPhase& phase);
  void unit_instance(const models::WorkPhase& phase, const UnitInstance& instance);
  // A 2-D NEIGHBOR instance (exact_grid.cpp, docs/semantics.md N6-N7): each processor its
  // block of grid points row by row; its boundary messages (`volume` bytes per edge point)
  // follow its last point. A NEIGHBOR joint from a 2-D instance delivers them before the
  // receivers' blocks.
  void grid_instance(const models::WorkPhase& phase, const UnitInstance& instance, const GridLayout& layout);

  // The graph, its ports' orders added (order_ports()).
  graph::TaskGraph take_graph() {
    order_ports();
    return std::move(graph_);
  }

  // The transfer of a message of `bytes` from processor `from` to processor `to` (either may be
  // -1: outside the processors) that follows `at`, its send: with ports (PORT TIME, M12) a node of
  // the port time on the sender's port and one on the receiver's, both after `at` and after
  // `posted` (the receive a rendezvous waits for; kNone: none), then the communication time in
  // flight; without ports the communication time alone. Returns the node the receive follows,
  // `at` when the transfer costs nothing.
  struct TransferCost {
    double port = 0.0;    // seconds on each of the two ports
    double flight = 0.0;  // the communication time, in flight
  };
  NodeId transfer(NodeId at, int from, int to, TransferCost cost, NodeId posted, std::int64_t step,
                  const std::string& label);

 private:
  // The units (tasks, columns) of the last unit-phase instance, for the neighbour dependences
  // of the next instance.
  struct Units {
    std::vector<NodeId> node;
    std::vector<int> processor;
    std::vector<NodeId> last_on;  // per processor: its last unit, kNone if it had none
    // Per processor: the lowest and highest unit index it holds (-1: none).
    std::vector<std::int64_t> low, high;
    double volume = 0.0;  // bytes a unit sends to a dependent unit on another processor
    bool torus = false;   // the boundary of unit 0 and of the last unit wraps around
    models::Scheduling scheduling = models::Scheduling::Block;  // how the units were placed
  };
  // How the previous work phase meets the next one.
  enum class Joint { None, Serial, Barrier, Neighbor, NeighborTorus, Torus };

  Joint joint_to(const models::WorkPhase& next) const;
  enum class Exchange { BeforeSerialWork, BeforeSynchronisation, AtTheEnd };
  void send_boundaries(const models::SourceLocation& where, Exchange exchange);
  // The pending boundary of a 2-D instance (grid_boundary_), in its order.
  void send_grid_boundary(const models::SourceLocation& where, Exchange exchange);
  // The joint of enter(), before the 2-D boundary it did not deliver is dropped.
  bool enter_joint(const models::WorkPhase& phase, bool takes_neighbour_arcs);
  Units no_units_yet(const UnitInstance& instance) const;
  // Unit c of n, node v on processor k, after the units of the previous instance it depends
  // on (its neighbours, or when the counts differ the neighbour processors' units when v is
  // the first unit on its processor).
  void depend_on_previous_units(const Units& previous, std::int64_t c, std::int64_t n, bool torus_joint, bool wrap,
                                bool first_on_processor, int k, NodeId v, const models::SourceLocation& where,
                                double sharing);
  void depend_on_unit(const Units& previous, std::int64_t u, bool wrap, int k, NodeId v,
                      const models::SourceLocation& where, double sharing);
  void depend_on_neighbour_processors(const Units& previous, bool wrap, int k, NodeId v,
                                      const models::SourceLocation& where, double sharing);
  // S of the messages a neighbour joint from `previous` to `instance` sends (step_transfers.hpp).
  double joint_sharing(const Units& previous, const UnitInstance& instance, bool torus_kind, bool wrap) const;
  // The message from `from` to processor `to_processor` (link()): returns the node the
  // receiver's work follows (kNone: the message costs nothing). With `always_receive` a
  // receive node (of o, or of no duration) joins the receiver's order even when o is 0, so
  // that its next work waits for the message.
  NodeId message(NodeId from, int to_processor, double bytes, std::int64_t step, bool always_receive,
                 const models::SourceLocation& where, double sharing = 1.0);
  // Puts v right after `after` (and after the sends already placed there) in the order of
  // after's processor.
  void send_after(NodeId after, NodeId v);
  void after_units(const models::WorkPhase& phase, const UnitInstance& instance,
                   const std::vector<std::int64_t>& per_processor, std::int64_t step);

  const models::Program& program_;
  BoundQuantities bound_;
  std::int64_t p_;
  std::size_t max_nodes_;
  NeighborOrder neighbor_order_;
  graph::TaskGraph graph_;
  std::vector<NodeId> last_;  // per processor: the node its next task follows
  std::string last_phase_;    // the work phase just compiled, "" after a synchronisation
  Units units_;
  bool boundary_pending_ = false;
  // The last 2-D instance's boundary messages (every one, also of 0 bytes: a NEIGHBOR joint
  // makes them dependences), until a joint delivers or drops them.
  struct GridBoundary {
    NodeId from;
    int to;
    double bytes;
  };
  std::vector<GridBoundary> grid_boundary_;
  double grid_sharing_ = 1.0;  // S of those messages
  std::int64_t step_ = 0;
  // Each port's messages, chained one after another (exact_ports.cpp): in the order they become
  // ready when every node takes its mean time, whatever their step (M12).
  void order_ports();
  void share_ports_fairly();  // order_ports() with PORT SHARING IS FAIR (M13)
  struct PortUse {
    NodeId node;
    std::size_t port;  // 2n: node n's sending ports, 2n + 1: its receiving ports (a node: a
                       // processor without NODE, M15)
    std::pair<std::size_t, std::size_t> connection;  // the message's sending and receiving processors
  };
  std::vector<PortUse> port_uses_;
  std::map<std::tuple<double, double, Route>, MessageCost> message_costs_;  // (bytes, S, route)
  std::vector<NodeId> order_next_;                              // per node on a processor: the next node of its order
  std::map<NodeId, NodeId> last_send_;                          // per node: the last send placed right after it
  std::map<std::tuple<NodeId, int, double>, NodeId> received_;  // (from, processor, bytes)
  std::map<double, distributions::Distribution> constants_;
};

}  // namespace scaling::detail
