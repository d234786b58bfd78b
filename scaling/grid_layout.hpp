// The 2-D block decomposition of a NEIGHBOR phase over a GRID (DECOMPOSITION IS 2D,
// docs/semantics.md N6): the processors as a grid, each processor's block of grid points and
// the boundary messages between neighbouring blocks. Shared by both models so that they
// decompose a grid the same way.
#pragma once

#include <cstdint>
#include <vector>

namespace scaling::detail {

// p processors as rows x columns = p, the most nearly square factorisation with rows <= columns
// (rows = the largest divisor of p not above sqrt(p)): 16 -> 4 x 4, 8 -> 2 x 4, 12 -> 3 x 4,
// a prime p -> 1 x p.
struct ProcessorGrid {
  std::int64_t rows = 1;
  std::int64_t columns = 1;
};
ProcessorGrid processor_grid(std::int64_t p);

// A grid of `height` x `width` points on p processors: processor k = i * columns + j holds grid
// rows [row_begin[i], row_begin[i + 1]) and grid columns [column_begin[j], column_begin[j + 1]),
// both split as BLOCK splits units (the first height mod rows processor rows one grid row more;
// the same for columns).
struct GridLayout {
  ProcessorGrid grid;
  std::vector<std::int64_t> row_begin;     // grid.rows + 1 entries
  std::vector<std::int64_t> column_begin;  // grid.columns + 1 entries

  std::int64_t processors() const { return grid.rows * grid.columns; }
  std::int64_t rows_of(std::int64_t k) const { return row_begin[k / grid.columns + 1] - row_begin[k / grid.columns]; }
  std::int64_t columns_of(std::int64_t k) const {
    return column_begin[k % grid.columns + 1] - column_begin[k % grid.columns];
  }
  std::int64_t points_of(std::int64_t k) const { return rows_of(k) * columns_of(k); }
};
GridLayout grid_layout(std::int64_t height, std::int64_t width, std::int64_t p);

// One boundary message of an instance: processor `from` sends the `points` grid points of the
// edge its block shares with processor `to`'s block.
struct GridMessage {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t points = 0;
};
// Every message of one instance, senders in increasing order and each sender's to its north,
// west, east and south neighbour (increasing receiver): one per pair of processors whose blocks
// hold points and share an edge; none across the grid's border (no wrap-around).
std::vector<GridMessage> grid_messages(const GridLayout& layout);

}  // namespace scaling::detail
