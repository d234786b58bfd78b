// The 2-D block decomposition of a NEIGHBOR phase over a GRID (DECOMPOSITION IS 2D,
// docs/semantics.md N6): the processors as a grid, each processor's block of grid points and
// the boundary messages between neighbouring blocks. Shared by both models so that they
// decompose a grid the same way.
#pragma once

#include <algorithm>
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

// n points over `parts` lines as BLOCK splits units (docs/semantics.md G6): the first
// n mod parts lines one point more. Computed on demand: a prime p has p processor columns.
struct BlockSplit {
  std::int64_t points = 0;
  std::int64_t parts = 1;

  // Where line i starts (i in [0, parts]; begin(parts) = points).
  std::int64_t begin(std::int64_t i) const { return i * (points / parts) + std::min(i, points % parts); }
  std::int64_t length(std::int64_t i) const { return begin(i + 1) - begin(i); }
  // The lines holding points: the first min(parts, points).
  std::int64_t holding() const { return std::min(parts, points); }
};

// A grid of `height` x `width` points on p processors: processor k = i * columns + j holds grid
// rows [row_split.begin(i), row_split.begin(i + 1)) and grid columns [column_split.begin(j),
// column_split.begin(j + 1)).
struct GridLayout {
  ProcessorGrid grid;
  BlockSplit row_split;     // height over grid.rows
  BlockSplit column_split;  // width over grid.columns

  std::int64_t processors() const { return grid.rows * grid.columns; }
  std::int64_t rows_of(std::int64_t k) const { return row_split.length(k / grid.columns); }
  std::int64_t columns_of(std::int64_t k) const { return column_split.length(k % grid.columns); }
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

// True when grid_messages(layout) is not empty, in constant time.
bool has_grid_messages(const GridLayout& layout);

// The layout's blocks by kind, in constant time rather than per processor: a processor row's
// kind is its blocks' height and which of its vertical neighbours (north, south) hold points, a
// processor column's its blocks' width and which of its horizontal neighbours (west, east) do;
// only rows and columns whose blocks hold points. A processor of row kind r and column kind c
// sends (and receives) one message of c.length points to each vertical neighbour r has and one
// of r.length points to each horizontal neighbour c has, in the order north, west, east, south;
// every pair of kinds occurs in the layout.
struct GridLine {
  std::int64_t length = 0;  // a row's block height, a column's block width
  bool before = false;      // the neighbour before it (north, west) holds points
  bool after = false;       // the neighbour after it (south, east) holds points
};
struct GridKinds {
  std::vector<GridLine> rows;
  std::vector<GridLine> columns;
};
GridKinds grid_kinds(const GridLayout& layout);

// The processors' columns in runs of one block width: [begin, end) of processor columns.
struct ColumnRun {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t width = 0;
};
std::vector<ColumnRun> column_runs(const GridLayout& layout);

}  // namespace scaling::detail
