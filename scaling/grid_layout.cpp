#include "scaling/grid_layout.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace scaling::detail {

ProcessorGrid processor_grid(std::int64_t p) {
  ProcessorGrid grid{1, p};
  for (std::int64_t rows = 1; rows * rows <= p; ++rows) {
    if (p % rows == 0) grid = {rows, p / rows};
  }
  return grid;
}

GridLayout grid_layout(std::int64_t height, std::int64_t width, std::int64_t p) {
  GridLayout layout;
  layout.grid = processor_grid(p);
  layout.row_split = {height, layout.grid.rows};
  layout.column_split = {width, layout.grid.columns};
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

namespace {

// The distinct kinds of the lines (processor rows or columns) whose blocks hold points: the
// first n mod lines one longer than the rest, the lines without points last. Every line not
// at an end of the run of one length repeats a kind of the lines next to those ends, so only
// these are looked at.
std::vector<GridLine> line_kinds(const BlockSplit& split) {
  const auto length = [&](std::int64_t k) { return split.length(k); };
  const std::int64_t holding = split.holding();
  const std::int64_t longer = split.points % split.parts;  // lines [0, longer) hold one point more
  std::set<std::tuple<std::int64_t, bool, bool>> kinds;
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, longer - 1, longer, longer + 1, holding - 2, holding - 1}) {
    if (k < 0 || k >= holding) continue;
    kinds.emplace(length(k), k > 0, k + 1 < holding);
  }
  std::vector<GridLine> out;
  for (const auto& [line_length, before, after] : kinds) out.push_back({line_length, before, after});
  return out;
}

}  // namespace

bool has_grid_messages(const GridLayout& layout) {
  // The blocks with points are those of the processor rows and columns holding points: two of
  // them neighbour when either count is at least two.
  const std::int64_t rows = layout.row_split.holding(), columns = layout.column_split.holding();
  return rows > 0 && columns > 0 && (rows > 1 || columns > 1);
}

GridKinds grid_kinds(const GridLayout& layout) {
  return {line_kinds(layout.row_split), line_kinds(layout.column_split)};
}

std::vector<ColumnRun> column_runs(const GridLayout& layout) {
  // BLOCK's widths: the first width mod columns one longer, then the rest (0 when narrower).
  const std::int64_t columns = layout.grid.columns, width = layout.column_split.points;
  const std::int64_t base = width / columns, longer = width % columns;
  std::vector<ColumnRun> runs;
  if (longer > 0) runs.push_back({0, longer, base + 1});
  if (longer < columns) runs.push_back({longer, columns, base});
  return runs;
}

}  // namespace scaling::detail
