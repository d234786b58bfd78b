// The exact model of a 2-D NEIGHBOR instance (docs/semantics.md N6-N7): ExactBuilder's
// members for grids, apart from exact_builder.cpp's columns.
#include <string>

#include "scaling/exact_builder.hpp"
#include "scaling/step_transfers.hpp"

namespace scaling::detail {

void ExactBuilder::grid_instance(const models::WorkPhase& phase, const UnitInstance& instance,
                                 const GridLayout& layout) {
  const Joint joint = joint_to(phase);
  const bool neighbours = joint == Joint::Neighbor && !grid_boundary_.empty();
  if (neighbours) {
    // The dependence on the neighbours' previous blocks: the previous instance's messages
    // (also those of 0 bytes) each received before the receiver's block.
    boundary_pending_ = false;
    send_grid_boundary(phase.location, Exchange::BeforeSerialWork);
  } else {
    enter(phase, false);
  }
  units_ = Units{};  // no 1-D neighbour arcs from a grid
  const std::int64_t step = step_++;
  std::vector<std::int64_t> per_processor(last_.size(), 0);
  std::vector<NodeId> last_point(last_.size(), kNone);
  const std::string suffix = " s" + std::to_string(step);
  const std::int64_t columns = layout.grid.columns;
  for (std::int64_t k = 0; k < p_; ++k) {
    const std::int64_t i = k / columns, j = k % columns;
    const auto ku = static_cast<std::size_t>(k);
    for (std::int64_t row = layout.row_split.begin(i); row < layout.row_split.begin(i + 1); ++row) {
      for (std::int64_t column = layout.column_split.begin(j); column < layout.column_split.begin(j + 1); ++column) {
        const NodeId v = add(phase.name + " (" + std::to_string(row) + "," + std::to_string(column) + ")" + suffix,
                             NodeKind::Task, instance.task, static_cast<int>(k), step, instance.memory_bytes);
        run_on(ku, v);
        last_point[ku] = v;
        ++per_processor[ku];
      }
    }
  }
  after_units(phase, instance, per_processor, step);
  grid_boundary_.clear();
  grid_sharing_ = 1.0;
  if (p_ > 1) {
    const std::vector<GridMessage> messages = grid_messages(layout);
    for (const GridMessage& m : messages) {
      grid_boundary_.push_back({last_point[static_cast<std::size_t>(m.from)], static_cast<int>(m.to),
                                static_cast<double>(m.points) * instance.volume});
    }
    // The instance's edge messages are one step (the approximate model's exchange E).
    if (shares_bandwidth()) grid_sharing_ = sharing(grid_transfers(messages));
  }
  // As for columns (N2): only a boundary of some bytes is exchanged before SERIAL work, a
  // synchronisation or the end.
  boundary_pending_ = instance.volume > 0.0 && !grid_boundary_.empty();
}

void ExactBuilder::send_grid_boundary(const models::SourceLocation& where, Exchange exchange) {
  const std::int64_t step = step_ - 1;
  for (const GridBoundary& m : grid_boundary_) {
    // The receive rule of send_boundaries, per message size.
    const bool receive =
        exchange == Exchange::BeforeSerialWork ||
        (exchange == Exchange::BeforeSynchronisation && message_cost(m.bytes, where, grid_sharing_).in_transit() > 0.0);
    message(m.from, m.to, m.bytes, step, receive, where, grid_sharing_);
  }
  grid_boundary_.clear();
}

}  // namespace scaling::detail
