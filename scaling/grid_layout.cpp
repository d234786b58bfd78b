#include "scaling/grid_layout.hpp"

namespace scaling::detail {

ProcessorGrid processor_grid(std::int64_t p) {
  ProcessorGrid grid{1, p};
  for (std::int64_t rows = 1; rows * rows <= p; ++rows) {
    if (p % rows == 0) grid = {rows, p / rows};
  }
  return grid;
}

namespace {

// Where each of `parts` blocks of n starts (and, last, n): the first n mod parts blocks one
// longer, as BLOCK places units (docs/semantics.md G6).
std::vector<std::int64_t> block_starts(std::int64_t n, std::int64_t parts) {
  const std::int64_t q = n / parts, r = n % parts;
  std::vector<std::int64_t> begin(static_cast<std::size_t>(parts + 1));
  for (std::int64_t i = 0; i <= parts; ++i) begin[static_cast<std::size_t>(i)] = i * q + (i < r ? i : r);
  return begin;
}

}  // namespace

GridLayout grid_layout(std::int64_t height, std::int64_t width, std::int64_t p) {
  GridLayout layout;
  layout.grid = processor_grid(p);
  layout.row_begin = block_starts(height, layout.grid.rows);
  layout.column_begin = block_starts(width, layout.grid.columns);
  return layout;
}

std::vector<GridMessage> grid_messages(const GridLayout& layout) {
  std::vector<GridMessage> messages;
  const std::int64_t rows = layout.grid.rows, columns = layout.grid.columns;
  for (std::int64_t k = 0; k < layout.processors(); ++k) {
    if (layout.points_of(k) == 0) continue;
    const std::int64_t i = k / columns, j = k % columns;
    // North and south edges are as long as the block is wide, west and east as it is high.
    const auto send = [&](bool exists, std::int64_t to, std::int64_t points) {
      if (exists && layout.points_of(to) > 0) messages.push_back({k, to, points});
    };
    send(i > 0, k - columns, layout.columns_of(k));
    send(j > 0, k - 1, layout.rows_of(k));
    send(j + 1 < columns, k + 1, layout.rows_of(k));
    send(i + 1 < rows, k + columns, layout.columns_of(k));
  }
  return messages;
}

}  // namespace scaling::detail
