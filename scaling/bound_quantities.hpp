// The quantities of a program on p processors once its variables are bound: values, counts,
// runtime distributions and the machine's overheads, shared by the approximate and the exact
// scaler so that both read a program the same way. An invalid value is reported as a
// ScalingError at its place in the source.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "scaling/approximate_model.hpp"  // ScalingError
#include "scaling/bandwidth_sharing.hpp"

namespace scaling::detail {

class BoundQuantities {
 public:
  // `environment` holds the bound variables (models::bind); P is bound to p here.
  BoundQuantities(const models::Machine& machine, const models::Environment& environment, int p);

  double value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const;
  // A whole number >= 0 (a count of tasks, iterations, jobs, ...).
  std::int64_t count(const models::Expr& expr, const models::SourceLocation& where, const char* what) const;
  distributions::Distribution runtime(const models::RuntimeSpec& spec) const;

  // What one message costs: the one model of a message through which both scalers charge every
  // message (docs/semantics.md M2-M14). Its law is the machine's for its size (M14), `sharing`
  // the bandwidth-sharing factor S of the step that sends it (M10; 1 where nothing shares a
  // link). A cost outside the range of times is an error at `where`.
  struct MessageCost {
    double bytes = 0.0;
    double sharing = 1.0;
    double transfer = 0.0;  // t(L): the communication time, in flight (the latency, with ports)
    double overhead = 0.0;  // o(L): LogP's overhead, on the sender and again on the receiver
    double port = 0.0;      // g(L): on the sender's port and on the receiver's (M12); 0 without ports
    models::Protocol protocol = models::Protocol::Eager;  // M11, M14
    bool rendezvous() const { return protocol == models::Protocol::Rendezvous; }
    // From its send to its receive: the transfer and the port time.
    double in_transit() const { return transfer + port; }
    // A blocking send to a receiver outside the processors (INDEPENDENT's results, M8): its
    // overhead, then the message in transit, on the sender.
    double sent_out() const { return overhead + in_transit(); }
  };
  // Which law a message takes (M15): the machine's between nodes, the node's inside one, or,
  // where a step's pairs of processors are not listed (the approximate model), the larger of the
  // two term by term.
  enum class Route { BetweenNodes, WithinNode, Either };
  // A message of `bytes` between two processors: all 0 and eager for no bytes and on one
  // processor, where the program runs sequentially without messages. Inside a node it holds no
  // port.
  MessageCost message_cost(double bytes, const models::SourceLocation& where, double sharing = 1.0,
                           Route route = Route::BetweenNodes) const;
  // A message a collective sends (docs/semantics.md, section Q): priced even when it carries no
  // bytes, since a barrier's messages are all synchronisation, and eager whatever its size; 0 on
  // one processor.
  MessageCost collective_message(double bytes, const models::SourceLocation& where, double sharing,
                                 Route route = Route::BetweenNodes) const;
  // ---- nodes (NODE IS: ... END;, M15, M16; bound_nodes.cpp); without the statement every
  // processor is a node ----
  // The node of processor r: BLOCK r / k, CYCLIC r mod N (N = ceil(p / k) nodes), or as listed.
  std::int64_t node_of(std::int64_t r) const;
  std::int64_t node_count() const;
  // A message from processor a to b (either may be -1: outside the processors).
  Route route(std::int64_t a, std::int64_t b) const;
  // The route of a step whose pairs are not listed: inside a node when all p are on one.
  Route any_route() const;
  // How many times its runtime a task takes on processor r: the processors on its node over the
  // node's cores when they are more (they share the cores), else 1; the largest over the nodes.
  double slowdown(std::int64_t r) const;
  double largest_slowdown() const;
  // Whether each node holds consecutive ranks (BLOCK placement, or no nodes).
  bool ranks_in_blocks() const { return !machine_.nodes || machine_.nodes->placement == models::Placement::Block; }
  // The most processors one node holds (1 without nodes): who share a node's ports.
  std::int64_t port_sharers() const { return node_layout().busiest; }
  // A DYNAMIC pool's master (MASTER SERVICE, docs/semantics.md I6): its service per task with
  // its own overheads of the dispatch and the result added, the dispatch's transit and the
  // worker's receive overhead, the worker's send overhead and the result's transit (messages
  // priced by the larger law where there are nodes, M15). None without a master or on one
  // processor, where the tasks run in series without one.
  std::shared_ptr<const graph::PoolMaster> pool_master(const models::WorkPhase& phase) const;
  // The workers of a pool of n tasks: min(p - 1, n) with a master, else min(p, n).
  std::int64_t pool_workers(const models::WorkPhase& phase, std::int64_t n) const;
  // The bytes each task of `phase` moves to and from memory (SUBTASK MEMORY VOLUME); 0 without.
  double memory_volume(const models::WorkPhase& phase) const;
  // A task of `runtime` moving `memory_bytes` on processor r (-1: on the busiest node, an upper
  // bound for any): m/c times its runtime where the node's m processors share c < m cores
  // (M15), and at least memory_bytes·m / B on a node of MEMORY BANDWIDTH B (M16).
  distributions::Distribution on_node(const distributions::Distribution& runtime, std::int64_t r,
                                      double memory_bytes) const;
  // The memory bound alone, before the slowdown: max(X, memory_bytes·m / (B·s)), so that s times
  // it is on_node's max(s·X, memory_bytes·m / B) (the approximate model slows every task leaf).
  distributions::Distribution memory_bound(const distributions::Distribution& runtime, std::int64_t r,
                                           double memory_bytes) const;
  // Whether the machine's messages go through ports (it has a PORT TIME).
  bool has_ports() const { return machine_.port_time.has_value(); }
  // Ports per processor and direction (PORTS; 1 without the statement).
  std::int64_t ports() const;
  // When a processor's ports (ports() of them, each serving one message at a time as they
  // come) have served `count` messages of `total` port time in all, the largest `largest`, all
  // ready at once: `total` with one port; with k, the least of Graham's total/k + (1 − 1/k)·largest
  // and ⌈count/k⌉·largest.
  double port_queue_seconds(double total, double largest, std::int64_t count) const;
  double barrier_seconds(const models::SourceLocation& where) const;
  // c(T, P) with T = the phase instance's work (the sum of its task means); 0 without one.
  double contention_seconds(double work, const models::SourceLocation& where) const;

  const models::Environment& environment() const { return environment_; }
  const models::Machine& machine() const { return machine_; }
  std::int64_t processors() const { return p_; }
  // S of the messages a step sends at once on this machine's topology (bandwidth_sharing.hpp).
  double sharing(const std::vector<Transfer>& step) const { return sharing_factor(machine_.topology, p_, step); }
  // Whether the topology can make S exceed 1 (callers skip working out a step's messages
  // otherwise).
  bool shares_bandwidth() const { return shares_links(machine_.topology); }

 private:
  double value(const models::Expr& expr, const models::SourceLocation& where, const models::Environment& environment,
               const char* what) const;
  double overhead(double seconds, const char* what, const models::SourceLocation& where) const;
  // A machine cost of a message of `bytes` (an expression of L): 0 for no bytes or p = 1.
  // `term` names the machine term in evaluation errors, `kind` the overhead (overhead()).
  double per_message(const models::Expr& cost, double bytes, double sharing, const char* term, const char* kind,
                     const models::SourceLocation& where) const;
  // PORT TIME at `bytes`, even 0 (a collective's messages); 0 without the statement and on one
  // processor.
  double port_time(double bytes, const models::SourceLocation& where) const;
  // Whether a message of `bytes` between processors is rendezvous (M11): more bytes than the
  // machine's EAGER LIMIT, or as its protocol segment says (M14); never on one processor.
  bool rendezvous(double bytes) const;
  // The EAGER LIMIT as the constants bind it, checked as a literal one is (ScalingError at the
  // statement otherwise).
  double eager_limit() const;
  // The message law of `bytes`: the machine's own below its first protocol segment, else the
  // last segment that starts at or below it.
  struct Law {
    const models::Expr* communication_time;
    const models::Expr* message_overhead;
    const models::Expr* port_time;  // null: no ports
    std::optional<models::Protocol> protocol;
  };
  Law law(double bytes) const;

  const models::Machine& machine_;
  models::Environment environment_;
  std::int64_t p_;
  // A model sends its messages in a few sizes (a 2-D layout's 4p edges in a handful): each
  // (machine term, L, S) is evaluated once, in one copy of the environment that holds L and S,
  // instead of a copy of the environment per message (half of a 2-D sweep's time). A
  // BoundQuantities serves one builder on one thread, so the caches need no lock.
  using MessageKey = std::tuple<const models::Expr*, double, double>;
  mutable std::map<MessageKey, double> message_costs_;
  mutable std::optional<models::Environment> message_environment_;
  mutable std::optional<std::int64_t> ports_;
  mutable std::optional<std::vector<double>> segment_from_;  // each segment's FROM, in bytes
  // The nodes at p, worked out once: k and c (c = k without CORES; 1 and 1 without nodes), a
  // listed placement's node of each processor and count of each node, the busiest node's count
  // and the memory bandwidth (0: none).
  struct NodeLayout {
    std::int64_t k = 1;
    std::int64_t c = 1;
    std::vector<std::int64_t> listed_node_of;  // PLACEMENT IS (..), ..: the node of each r < p
    std::vector<std::int64_t> listed_on;       // and the processors of each node
    std::int64_t busiest = 1;
    double memory_bandwidth = 0.0;
  };
  const NodeLayout& node_layout() const;
  NodeLayout evaluated_node_layout() const;
  std::int64_t processors_on(std::int64_t node) const;
  mutable std::optional<NodeLayout> node_layout_;
  // memory_bound's results by (runtime, floor), each with its runtime kept alive for its key.
  mutable std::map<std::pair<const void*, double>, std::pair<distributions::Distribution, distributions::Distribution>>
      memory_bounds_;
  // A MessageCost of one law, the machine's (at its size, M14) or the node's.
  MessageCost one_law_cost(double bytes, const models::SourceLocation& where, double sharing, bool inside,
                           bool priced_empty) const;
};

}  // namespace scaling::detail
