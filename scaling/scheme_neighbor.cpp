// NEIGHBOR and NEIGHBOR-TORUS: w columns in contiguous blocks; between instances a column
// depends on its neighbours of the previous one (wrapping around for NEIGHBOR-TORUS).
// Exact: column c on the processor of its block, each processor its block left to right (or
// alternating, NeighborOrder) every instance; the neighbour arcs come from the concatenation
// (ExactBuilder::unit_instance), and a boundary no arc carries is exchanged right after the
// instance (ExactBuilder::send_boundaries). Approximate: each processor's block in series then
// its exchange (boundary_messages sends and receives), open; the neighbour synchronisation
// becomes a barrier (Kleinöder: an upper bound). DECOMPOSITION IS 2D: a GRID's points in
// blocks over a processor grid (grid_layout.hpp), each block's edges sent to its up to four
// neighbours after its last point.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "scaling/grid_layout.hpp"
#include "scaling/scheme_builders.hpp"
#include "scaling/step_transfers.hpp"

namespace scaling::detail {

std::int64_t boundary_messages(std::int64_t units, std::int64_t p) {
  const std::int64_t with_units = std::min(p, units);
  if (with_units >= 3) return 2;
  // Two processors with columns: one message each way, or two when a concatenation wraps
  // around (both boundaries go to the other processor) unless each holds one column.
  if (with_units == 2) return units >= 3 ? 2 : 1;
  return 0;
}

namespace {

// The phase's GRID on the builder's processors (DECOMPOSITION IS 2D).
template <class Builder>
GridLayout layout_of(const Builder& builder, const models::WorkPhase& phase) {
  const models::ProblemSize& size = *phase.problem_size;
  return grid_layout(builder.count(size.extents[0], size.location, "grid height"),
                     builder.count(size.extents[1], size.location, "grid width"), builder.processors());
}

// The most overhead any processor pays for its edge messages of one instance (its sends; its
// receives are the same: the messages into a block come from the same neighbours, in the same
// order), and the longest message in bytes: over the kinds of processor rows and columns
// (grid_layout.hpp), a handful whatever p, not over the processors. The sum runs in the order
// the messages are sent (north, west, east, south), as the exact model adds them.
struct GridExchange {
  double most_overhead = 0.0;
  double longest_bytes = 0.0;
};
GridExchange grid_exchange(const GridLayout& layout, const std::function<double(std::int64_t)>& overhead_of,
                           double volume) {
  GridExchange exchange;
  const GridKinds kinds = grid_kinds(layout);
  for (const GridLine& row : kinds.rows) {
    for (const GridLine& column : kinds.columns) {
      double paid = 0.0;  // a vertical edge is as long as the block is wide, a horizontal one as it is high
      if (row.before) paid += overhead_of(column.length);  // north
      if (column.before) paid += overhead_of(row.length);  // west
      if (column.after) paid += overhead_of(row.length);   // east
      if (row.after) paid += overhead_of(column.length);   // south
      exchange.most_overhead = std::max(exchange.most_overhead, paid);
      if (row.before || row.after)
        exchange.longest_bytes = std::max(exchange.longest_bytes, static_cast<double>(column.length) * volume);
      if (column.before || column.after)
        exchange.longest_bytes = std::max(exchange.longest_bytes, static_cast<double>(row.length) * volume);
    }
  }
  return exchange;
}

// Each processor's work: its points' tasks, then the exchange (none without points); processors
// of one point count share one tree, in ranges of consecutive processors, built per processor
// row and run of block widths rather than per processor.
Work grid_work(ApproximateBuilder& builder, const GridLayout& layout, std::size_t one, std::size_t messages) {
  std::map<std::int64_t, std::size_t> made;  // per point count: the work of a processor
  Work work;
  const std::vector<ColumnRun> runs = column_runs(layout);
  for (std::int64_t i = 0; i < layout.grid.rows; ++i) {
    const std::int64_t height = layout.row_split.length(i);
    for (const ColumnRun& run : runs) {
      const std::int64_t c = height * run.width;
      auto found = made.find(c);
      if (found == made.end()) {
        found = made.emplace(c, c == 0 ? kZero : builder.series({builder.power(one, c), messages})).first;
      }
      const std::int64_t begin = i * layout.grid.columns + run.begin, end = i * layout.grid.columns + run.end;
      if (!work.empty() && work.back().tree == found->second)
        work.back().end = end;
      else
        work.push_back({begin, end, found->second});
    }
  }
  return work;
}

// 2-D, approximate (docs/semantics.md N7): every processor with points runs them, then pays the
// most send overheads any processor pays, the longest message's transfer and the most receive
// overheads any processor pays; the NEIGHBOR joint closes the instance. Its cost grows with the
// processor rows, not the processors, except on a topology that shares bandwidth, whose routing
// looks at every message.
Piece approximate_grid(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const GridLayout layout = layout_of(builder, phase);
  const double volume = builder.value(phase.volume, phase.location, "communication volume");
  // The instance's edge messages are one step.
  const double sharing = builder.shares_bandwidth() && builder.processors() > 1
                             ? builder.sharing(grid_transfers(grid_messages(layout)))
                             : 1.0;
  // A layout's edges have a handful of lengths: each one's cost is worked out once (the sweep
  // over p asks for them at every p).
  std::map<std::int64_t, ApproximateBuilder::MessageCost> costs;
  const auto cost_of = [&](std::int64_t points) -> const ApproximateBuilder::MessageCost& {
    auto found = costs.find(points);
    if (found == costs.end()) {
      found = costs.emplace(points, builder.message_cost(static_cast<double>(points) * volume, phase.location, sharing))
                  .first;
    }
    return found->second;
  };
  const GridExchange edges = grid_exchange(
      layout, [&](std::int64_t points) { return cost_of(points).overhead; }, volume);
  // M12: the busiest port's edge messages one after another (a block receives what it sends).
  const auto port_of = [&](std::int64_t points) { return cost_of(points).port; };
  const ApproximateBuilder::MessageCost longest = builder.message_cost(edges.longest_bytes, phase.location, sharing);
  // M15: a node's m processors share its ports: at most m blocks' edge messages at one.
  const std::int64_t m = builder.port_sharers();
  const double ports =
      builder.has_ports()
          ? builder.port_queue_seconds(static_cast<double>(m) * grid_exchange(layout, port_of, volume).most_overhead,
                                       longest.port, 4 * m)
          : 0.0;
  const double exchange = edges.most_overhead + longest.transfer + ports + edges.most_overhead;
  const std::size_t messages = exchange > 0.0 ? builder.leaf("boundary exchange", graph::NodeKind::Communication,
                                                             distributions::deterministic(exchange))
                                              : kZero;
  const distributions::Distribution task = builder.runtime(*phase.runtime);
  const std::size_t one = builder.task_leaf(phase.name + " task", builder.memory_bound(task, phase));
  Work work = grid_work(builder, layout, one, messages);
  const std::int64_t points = builder.count(*phase.units, phase.location, "number of tasks");
  const std::size_t delay = builder.contention(static_cast<double>(points) * distributions::mean(task), phase.location);
  if (delay != kZero) work = builder.then(work, builder.uniform(delay));
  return builder.open_phase(phase, std::move(work));
}

}  // namespace

bool grid_exchanges(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  if (builder.processors() == 1 || builder.value(phase.volume, phase.location, "communication volume") == 0.0) {
    return false;
  }
  return has_grid_messages(layout_of(builder, phase));
}

void exact_neighbor(ExactBuilder& builder, const models::WorkPhase& phase) {
  if (phase.decomposition == models::Decomposition::TwoD) {
    UnitInstance instance = builder.unit_instance_of(phase);
    instance.message = UnitMessage::Boundary;
    builder.grid_instance(phase, instance, layout_of(builder, phase));
    return;
  }
  UnitInstance instance = builder.unit_instance_of(phase);
  instance.scheduling = models::Scheduling::Block;
  instance.alternating = builder.neighbor_order() == NeighborOrder::Alternating;
  instance.torus = phase.scheme == models::Scheme::NeighborTorus;
  instance.message = UnitMessage::Boundary;
  builder.unit_instance(phase, instance);
}

Piece approximate_neighbor(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  if (phase.decomposition == models::Decomposition::TwoD) return approximate_grid(builder, phase);
  // Each processor with columns sends its boundary to each neighbouring processor and receives
  // theirs: every processor is charged the most any processor sends and receives, so that the
  // exchange bounds the exact model's from above.
  const std::int64_t units = builder.count(*phase.units, phase.location, "number of tasks");
  const std::int64_t neighbours = boundary_messages(units, builder.processors());
  // The exchange's messages are one step (N3).
  const double sharing = builder.shares_bandwidth()
                             ? builder.sharing(neighbor_exchange_transfers(
                                   units, builder.processors(), phase.scheme == models::Scheme::NeighborTorus))
                             : 1.0;
  // M15: with ranks placed on nodes in blocks, a node's columns are one block too, and only its
  // two edge processors send across it: its port carries one processor's messages.
  const std::int64_t sharers = builder.ranks_in_blocks() ? 1 : 0;
  // Columns on one processor only: no neighbour, no message.
  return builder.unit_phase(phase, [neighbours, sharing, sharers](std::int64_t, double volume) {
    return ApproximateBuilder::UnitMessages{
        neighbours == 0 ? 0.0 : volume, neighbours, neighbours, sharing, false, sharers};
  });
}

}  // namespace scaling::detail
