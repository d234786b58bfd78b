// Foster's bandwidth-sharing factor S (scaling/bandwidth_sharing.hpp; docs/machine.md,
// "Topology and bandwidth sharing") and the message sets of the schemes' steps
// (scaling/step_transfers.hpp), against link loads counted by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "scaling/bandwidth_sharing.hpp"
#include "scaling/step_transfers.hpp"

namespace {

using models::Topology;
using scaling::kOutside;
using scaling::processor_layout;
using scaling::sharing_factor;
using scaling::Transfer;

// Each processor 0..p-1 sends to its left and right neighbour (none across the ends): the 1-D
// stencil's exchange.
std::vector<Transfer> line_exchange(std::int64_t p) {
  std::vector<Transfer> step;
  for (std::int64_t k = 0; k < p; ++k) {
    if (k > 0) step.push_back({k, k - 1});
    if (k + 1 < p) step.push_back({k, k + 1});
  }
  return step;
}

// Round r of the butterfly on the ranks 0..n-1: i exchanges with i xor 2^r.
std::vector<Transfer> butterfly_round(std::int64_t n, int r) {
  std::vector<Transfer> step;
  for (std::int64_t i = 0; i < n; ++i) step.push_back({i, i ^ (std::int64_t{1} << r)});
  return step;
}

TEST(BandwidthSharing, CrossbarAndFatTreeNeverShare) {
  for (Topology t : {Topology::FullyConnected, Topology::FatTree}) {
    EXPECT_EQ(sharing_factor(t, 16, line_exchange(16)), 1.0);
    EXPECT_EQ(sharing_factor(t, 16, butterfly_round(16, 3)), 1.0);
  }
}

// Foster 3.7: on a bus half the processors send at once in the stencil's exchange, S = P/2;
// here m = 2(P - 1) messages among q = P endpoints: min(m, P/2) = P/2.
TEST(BandwidthSharing, BusStencilExchangeIsHalfTheProcessors) {
  for (std::int64_t p : {2, 4, 8, 16, 64})
    EXPECT_EQ(sharing_factor(Topology::Bus, p, line_exchange(p)), static_cast<double>(p) / 2.0) << p;
}

TEST(BandwidthSharing, BusButterflyIsHalfTheProcessors) {
  for (int r = 0; r < 4; ++r) EXPECT_EQ(sharing_factor(Topology::Bus, 16, butterfly_round(16, r)), 8.0) << r;
}

// Two messages among four processors share the bus (S = 2); one message alone has it to itself;
// a set of messages between two processors is q = 2: S = 1. Four processors sending out: five
// endpoints, S = min(4, 2) = 2.
TEST(BandwidthSharing, BusCountsMessagesAndEndpoints) {
  EXPECT_EQ(sharing_factor(Topology::Bus, 4, {{0, 1}, {2, 3}}), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 4, {{0, 1}}), 1.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 4, {{0, 1}, {1, 0}}), 1.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 4, {{0, 1, 5}, {2, 3}}), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 4, {{0, kOutside}, {1, kOutside}, {2, kOutside}, {3, kOutside}}), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 8, {{0, 1}, {2, 3}, {4, 5}}), 3.0);
  EXPECT_EQ(sharing_factor(Topology::Bus, 8, {}), 1.0);
}

// Foster: the ring exchange embeds in a ring, a mesh and a hypercube with nearest-neighbour
// links only: S = 1.
TEST(BandwidthSharing, NearestNeighboursShareNoLink) {
  std::vector<Transfer> ring = line_exchange(16);
  ring.push_back({0, 15});
  ring.push_back({15, 0});
  EXPECT_EQ(sharing_factor(Topology::Ring, 16, ring), 1.0);
  EXPECT_EQ(sharing_factor(Topology::Torus2D, 16, {{0, 3}, {3, 0}, {0, 1}, {1, 0}}), 1.0);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(sharing_factor(Topology::Hypercube, 16, butterfly_round(16, r)), 1.0) << r;
  // A 4 x 4 mesh: every processor to its north, west, east and south neighbours.
  std::vector<Transfer> grid;
  for (std::int64_t k = 0; k < 16; ++k) {
    const std::int64_t i = k / 4, j = k % 4;
    if (i > 0) grid.push_back({k, k - 4});
    if (j > 0) grid.push_back({k, k - 1});
    if (j < 3) grid.push_back({k, k + 1});
    if (i < 3) grid.push_back({k, k + 4});
  }
  EXPECT_EQ(sharing_factor(Topology::Mesh2D, 16, grid), 1.0);
}

// Foster 3.7, the butterfly on a 1-D mesh: round r sends every message 2^r hops, and the link
// in the middle of each block of 2^(r+1) carries 2^r of them. A prime p = 17 makes MESH 2D a
// 1 x 17 line; the butterfly runs on ranks 0..15.
TEST(BandwidthSharing, ButterflyOnALineSharesTwoToTheRound) {
  ASSERT_EQ(processor_layout(Topology::Mesh2D, 17).extents, (std::vector<std::int64_t>{17, 1}));
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(sharing_factor(Topology::Mesh2D, 17, butterfly_round(16, r)), static_cast<double>(1 << r)) << r;
  }
  // On a ring of 16 the same: the shorter way is as long, and in the last round (8 hops either
  // way) every message goes the positive way, 8 on each link.
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(sharing_factor(Topology::Ring, 16, butterfly_round(16, r)), static_cast<double>(1 << r)) << r;
  }
}

// Ring of 8: 0 -> 4 is a tie and goes the positive way (links 0-1-2-3-4), as does 4 -> 0
// (4-5-6-7-0): disjoint. 1 -> 5 shares 1-2, 2-3, 3-4 with 0 -> 4.
TEST(BandwidthSharing, RingTiesGoThePositiveWay) {
  EXPECT_EQ(sharing_factor(Topology::Ring, 8, {{0, 4}, {4, 0}}), 1.0);
  EXPECT_EQ(sharing_factor(Topology::Ring, 8, {{0, 4}, {4, 0}, {1, 5}}), 2.0);
  // 0 -> 6 goes the negative way (2 hops: 0-7-6), 7 -> 6 too: they share 7-6.
  EXPECT_EQ(sharing_factor(Topology::Ring, 8, {{0, 6}, {7, 6}}), 2.0);
  // A message to the outside loads no link.
  EXPECT_EQ(sharing_factor(Topology::Ring, 8, {{0, kOutside}, {1, kOutside}}), 1.0);
}

// The transpose on a 4 x 4 mesh, (i, j) -> (j, i), columns first: in row 0 the messages from
// columns 1, 2 and 3 all cross the link from column 1 to column 0; then in column 0 the
// messages to rows 1, 2 and 3 all cross the link from row 0 to row 1. No link carries more:
// S = 3 = sqrt(p) - 1.
TEST(BandwidthSharing, MeshTransposeLoadsTheLinksNextToTheDiagonal) {
  std::vector<Transfer> transpose;
  for (std::int64_t i = 0; i < 4; ++i) {
    for (std::int64_t j = 0; j < 4; ++j) {
      if (i != j) transpose.push_back({i * 4 + j, j * 4 + i});
    }
  }
  EXPECT_EQ(sharing_factor(Topology::Mesh2D, 16, transpose), 3.0);
  // One row's messages alone: (0, j) -> (j, 0) for j = 1..3: the row link carries 3.
  EXPECT_EQ(sharing_factor(Topology::Mesh2D, 16, {{1, 4}, {2, 8}, {3, 12}}), 3.0);
}

// A 4 x 4 torus, every processor to the one two columns on: two hops, a tie taken the positive
// way, so each link carries its own message and the one from the column before: S = 2.
TEST(BandwidthSharing, TorusShiftByHalfTheRingCarriesTwo) {
  std::vector<Transfer> shift;
  for (std::int64_t k = 0; k < 16; ++k) shift.push_back({k, (k / 4) * 4 + (k % 4 + 2) % 4});
  EXPECT_EQ(sharing_factor(Topology::Torus2D, 16, shift), 2.0);
  // On a mesh the messages from columns 0 and 1 go right, from 2 and 3 left: the links
  // 1 -> 2 and 2 -> 1 carry two each.
  EXPECT_EQ(sharing_factor(Topology::Mesh2D, 16, shift), 2.0);
}

TEST(BandwidthSharing, MostNearlyCubicBoxes) {
  EXPECT_EQ(processor_layout(Topology::Mesh3D, 8).extents, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(processor_layout(Topology::Mesh3D, 12).extents, (std::vector<std::int64_t>{3, 2, 2}));
  EXPECT_EQ(processor_layout(Topology::Mesh3D, 16).extents, (std::vector<std::int64_t>{4, 2, 2}));
  EXPECT_EQ(processor_layout(Topology::Torus3D, 64).extents, (std::vector<std::int64_t>{4, 4, 4}));
  EXPECT_EQ(processor_layout(Topology::Mesh3D, 10).extents, (std::vector<std::int64_t>{5, 2, 1}));
  EXPECT_TRUE(processor_layout(Topology::Torus3D, 8).wraps);
  EXPECT_FALSE(processor_layout(Topology::Mesh3D, 8).wraps);
  // 3 x 3 x 3: 0 -> 2 and 1 -> 2 share the link 1 -> 2; 0 -> 26 goes along x, then y, then z.
  EXPECT_EQ(sharing_factor(Topology::Mesh3D, 27, {{0, 2}, {1, 2}}), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Mesh3D, 27, {{0, 26}, {2, 8}}), 2.0);  // both cross 2 -> 5
  EXPECT_EQ(sharing_factor(Topology::Torus3D, 27, {{0, 2}, {1, 2}}), 1.0);  // 0 -> 2 wraps: 0 -> 2 directly
}

// e-cube routing, lowest differing bit first; p = 6 is a 3-cube.
TEST(BandwidthSharing, HypercubeRoutesLowestBitFirst) {
  EXPECT_EQ(processor_layout(Topology::Hypercube, 6).extents, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, {{0, 3}, {1, 2}}), 1.0);  // 0-1-3 and 1-0-2
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, {{0, 3}, {0, 1}}), 2.0);  // both over 0-1
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, {{0, 3}, {1, 3}}), 2.0);  // both over 1-3
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 6, {{5, 1}, {4, 0}}), 1.0);
  // Ranks are node numbers, not a Gray code: in the line exchange on 4, 2 -> 1 goes 2 -> 3 -> 1
  // and shares the link 2 -> 3 with the message 2 -> 3.
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, line_exchange(4)), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, {{2, 1}, {2, 3}}), 2.0);
  EXPECT_EQ(sharing_factor(Topology::Hypercube, 4, {{1, 2}, {2, 3}}), 1.0);
}

std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> pairs(const std::vector<Transfer>& step) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> out;
  for (const Transfer& t : step) out[{t.from, t.to}] += t.messages;
  return out;
}

using Pairs = std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t>;

// 10 columns on 4 processors: blocks 0-2, 3-5, 6-7, 8-9 (semantics N3).
TEST(StepTransfers, NeighborExchangeIsEachBlockToItsNeighbours) {
  using scaling::detail::neighbor_exchange_transfers;
  EXPECT_EQ(pairs(neighbor_exchange_transfers(10, 4, false)),
            (Pairs{{{0, 1}, 1}, {{1, 0}, 1}, {{1, 2}, 1}, {{2, 1}, 1}, {{2, 3}, 1}, {{3, 2}, 1}}));
  EXPECT_EQ(
      pairs(neighbor_exchange_transfers(10, 4, true)),
      (Pairs{{{0, 1}, 1}, {{0, 3}, 1}, {{1, 0}, 1}, {{1, 2}, 1}, {{2, 1}, 1}, {{2, 3}, 1}, {{3, 0}, 1}, {{3, 2}, 1}}));
  // p = 2 around a torus: two columns each send both boundaries to the other; one column each
  // is one message (M5).
  EXPECT_EQ(pairs(neighbor_exchange_transfers(4, 2, true)), (Pairs{{{0, 1}, 2}, {{1, 0}, 2}}));
  EXPECT_EQ(pairs(neighbor_exchange_transfers(2, 2, true)), (Pairs{{{0, 1}, 1}, {{1, 0}, 1}}));
  EXPECT_TRUE(neighbor_exchange_transfers(5, 1, false).empty());
}

// CYCLIC 8 units on 4 processors into CYCLIC 8 (a NEIGHBOR joint, no wrap): unit u on u mod 4
// sends to the processors of u + 1 (u < 7) and u - 1 (u > 0).
TEST(StepTransfers, NeighbourJointOfCyclicUnits) {
  using scaling::detail::neighbour_joint_transfers;
  const auto cyclic = models::Scheduling::Cyclic;
  EXPECT_EQ(
      pairs(neighbour_joint_transfers({8, cyclic}, {8, cyclic}, 4, false, false)),
      (Pairs{{{0, 1}, 2}, {{1, 2}, 2}, {{2, 3}, 2}, {{3, 0}, 1}, {{1, 0}, 2}, {{2, 1}, 2}, {{3, 2}, 2}, {{0, 3}, 1}}));
  // Equal blocks: the exchange's messages.
  const auto block = models::Scheduling::Block;
  EXPECT_EQ(pairs(neighbour_joint_transfers({10, block}, {10, block}, 4, false, false)),
            pairs(scaling::detail::neighbor_exchange_transfers(10, 4, false)));
  // Different counts: processor k of b waits for k - 1 and k + 1 of a.
  EXPECT_EQ(pairs(neighbour_joint_transfers({6, block}, {4, block}, 4, false, false)),
            (Pairs{{{0, 1}, 1}, {{1, 0}, 1}, {{1, 2}, 1}, {{2, 1}, 1}, {{2, 3}, 1}, {{3, 2}, 1}}));
}

}  // namespace
