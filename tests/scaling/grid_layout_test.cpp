// The 2-D block decomposition (scaling/grid_layout.hpp, docs/semantics.md N6) against block
// sizes and neighbour lists worked out by hand.
#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "scaling/grid_layout.hpp"

namespace {

using scaling::detail::grid_layout;
using scaling::detail::grid_messages;
using scaling::detail::GridMessage;
using scaling::detail::processor_grid;

TEST(GridLayout, ProcessorsFormTheMostNearlySquareGridWithNoMoreRowsThanColumns) {
  struct Case {
    std::int64_t p, rows, columns;
  };
  for (const Case& c : {Case{1, 1, 1}, Case{2, 1, 2}, Case{4, 2, 2}, Case{7, 1, 7}, Case{8, 2, 4}, Case{12, 3, 4},
                        Case{16, 4, 4}, Case{18, 3, 6}, Case{36, 6, 6}, Case{64, 8, 8}, Case{256, 16, 16}}) {
    EXPECT_EQ(processor_grid(c.p).rows, c.rows) << c.p;
    EXPECT_EQ(processor_grid(c.p).columns, c.columns) << c.p;
  }
}

// 10 x 7 points on 12 = 3 x 4 processors: rows 4 + 3 + 3, columns 2 + 2 + 2 + 1.
TEST(GridLayout, UnevenExtentsGiveTheFirstBlocksOneMore) {
  const auto layout = grid_layout(10, 7, 12);
  const auto starts = [](const scaling::detail::BlockSplit& split) {
    std::vector<std::int64_t> begin;
    for (std::int64_t i = 0; i <= split.parts; ++i) begin.push_back(split.begin(i));
    return begin;
  };
  EXPECT_EQ(starts(layout.row_split), (std::vector<std::int64_t>{0, 4, 7, 10}));
  EXPECT_EQ(starts(layout.column_split), (std::vector<std::int64_t>{0, 2, 4, 6, 7}));
  EXPECT_EQ(layout.points_of(0), 8);
  EXPECT_EQ(layout.points_of(3), 4);
  EXPECT_EQ(layout.points_of(5), 6);
  EXPECT_EQ(layout.points_of(11), 3);
  std::int64_t total = 0;
  for (std::int64_t k = 0; k < 12; ++k) total += layout.points_of(k);
  EXPECT_EQ(total, 70);
}

bool same(const GridMessage& a, const GridMessage& b) {
  return a.from == b.from && a.to == b.to && a.points == b.points;
}

// The same layout: 3 x 3 horizontal and 2 x 4 vertical neighbour pairs, a message each way: 34.
// Processor 5 (row 1, column 1, a 3 x 2 block) sends north to 1 and south to 9 its 2-point
// edges, west to 4 and east to 6 its 3-point edges, in that order; corner processor 3 (4 x 1)
// only west (4 points) and south (1 point).
TEST(GridLayout, EveryBlockSendsItsEdgesToItsNeighboursWithoutWrapAround) {
  const auto messages = grid_messages(grid_layout(10, 7, 12));
  EXPECT_EQ(messages.size(), 34u);
  std::vector<GridMessage> of5, of3;
  for (const GridMessage& m : messages) {
    if (m.from == 5) of5.push_back(m);
    if (m.from == 3) of3.push_back(m);
  }
  ASSERT_EQ(of5.size(), 4u);
  EXPECT_TRUE(same(of5[0], {5, 1, 2}));
  EXPECT_TRUE(same(of5[1], {5, 4, 3}));
  EXPECT_TRUE(same(of5[2], {5, 6, 3}));
  EXPECT_TRUE(same(of5[3], {5, 9, 2}));
  ASSERT_EQ(of3.size(), 2u);
  EXPECT_TRUE(same(of3[0], {3, 2, 4}));
  EXPECT_TRUE(same(of3[1], {3, 7, 1}));
}

// 2 x 3 points on 16 = 4 x 4 processors: only processors 0, 1, 2, 4, 5, 6 hold a point; the
// 2 x 3 blocks with points have 2 x 2 + 1 x 3 = 7 neighbour pairs, 14 one-point messages, none
// to a processor without points.
TEST(GridLayout, ProcessorsWithoutPointsNeitherSendNorReceive) {
  const auto layout = grid_layout(2, 3, 16);
  for (std::int64_t k = 0; k < 16; ++k) {
    const bool holds = k == 0 || k == 1 || k == 2 || k == 4 || k == 5 || k == 6;
    EXPECT_EQ(layout.points_of(k), holds ? 1 : 0) << k;
  }
  const auto messages = grid_messages(layout);
  EXPECT_EQ(messages.size(), 14u);
  for (const GridMessage& m : messages) {
    EXPECT_EQ(m.points, 1);
    EXPECT_GT(layout.points_of(m.to), 0);
  }
}

// The kinds of processor rows and columns (what the approximate model reads in time linear in
// the rows and columns) give exactly the processors' blocks and messages that walking every
// processor gives: per processor with points, its block and which of its north, west, east and
// south neighbours it exchanges with; and the runs of block widths are the columns' widths.
TEST(GridLayout, KindsOfRowsAndColumnsAreThoseOfTheProcessors) {
  using Pattern = std::tuple<std::int64_t, std::int64_t, bool, bool, bool, bool>;
  for (std::int64_t height : {1, 2, 3, 7, 64, 100}) {
    for (std::int64_t width : {1, 2, 5, 64, 99}) {
      for (std::int64_t p = 1; p <= 70; ++p) {
        const auto layout = grid_layout(height, width, p);
        std::set<Pattern> walked;
        std::set<std::pair<std::int64_t, std::int64_t>> sent;  // (sender, receiver)
        for (const GridMessage& m : grid_messages(layout)) sent.emplace(m.from, m.to);
        const std::int64_t columns = layout.grid.columns;
        for (std::int64_t k = 0; k < layout.processors(); ++k) {
          if (layout.points_of(k) == 0) continue;
          walked.emplace(layout.rows_of(k), layout.columns_of(k), sent.contains({k, k - columns}),
                         sent.contains({k, k - 1}), sent.contains({k, k + 1}), sent.contains({k, k + columns}));
        }
        std::set<Pattern> from_kinds;
        const auto kinds = scaling::detail::grid_kinds(layout);
        for (const auto& row : kinds.rows) {
          for (const auto& column : kinds.columns) {
            from_kinds.emplace(row.length, column.length, row.before, column.before, column.after, row.after);
          }
        }
        EXPECT_EQ(from_kinds, walked) << height << " x " << width << " on " << p;
        EXPECT_EQ(scaling::detail::has_grid_messages(layout), !sent.empty()) << height << " x " << width << " on " << p;
        std::int64_t j = 0;
        for (const auto& run : scaling::detail::column_runs(layout)) {
          ASSERT_EQ(run.begin, j);
          for (; j < run.end; ++j) EXPECT_EQ(layout.columns_of(j), run.width) << width << " on " << p;
        }
        EXPECT_EQ(j, columns);
      }
    }
  }
}

}  // namespace
