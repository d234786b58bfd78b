// The messages one step of a scheme sends at once, as processor pairs, for the bandwidth-sharing
// factor S (bandwidth_sharing.hpp; docs/machine.md, "Topology and bandwidth sharing"). Shared by
// both models so that they price a step's messages with the same S.
#pragma once

#include <cstdint>
#include <vector>

#include "models/program.hpp"
#include "scaling/bandwidth_sharing.hpp"
#include "scaling/grid_layout.hpp"

namespace scaling::detail {

// The processor of unit c of n on p processors under BLOCK (contiguous blocks, the first n mod p
// one unit more) or CYCLIC (c mod p) (docs/semantics.md G6).
std::int64_t unit_processor(std::int64_t c, std::int64_t n, std::int64_t p, models::Scheduling scheduling);

// One instance's NEIGHBOR exchange of n columns in blocks (semantics N3): every processor k with
// columns lo_k..hi_k sends lo_k's boundary to the processor of column lo_k - 1 and hi_k's to the
// processor of hi_k + 1 (wrapping mod n when `torus`, dropped outside otherwise), none to itself,
// one message per sending column and receiving processor (M5).
std::vector<Transfer> neighbor_exchange_transfers(std::int64_t n, std::int64_t p, bool torus);

// The units of a phase instance on the processors.
struct UnitPlacement {
  std::int64_t units = 0;
  models::Scheduling scheduling = models::Scheduling::Block;
};
// The messages of a NEIGHBOR / NEIGHBOR-TORUS / TORUS joint from instance a to instance b
// (semantics C4): equal counts, unit c of b depends on c-1, c, c+1 of a (`torus_kind`, a TORUS
// concatenation: c, c-1); different counts, the first unit of each processor k of b on the last
// unit of processors k-1 and k+1 in a; indices (processors) wrap when `wrap`. One message per
// sending unit and receiving processor (M5). With a CYCLIC side and more than
// kMostEnumeratedUnits units the messages are not enumerated: the result is empty (S = 1).
inline constexpr std::int64_t kMostEnumeratedUnits = std::int64_t{1} << 22;
std::vector<Transfer> neighbour_joint_transfers(UnitPlacement a, UnitPlacement b, std::int64_t p, bool torus_kind,
                                                bool wrap);

// INDEPENDENT's results: each of the first `senders` processors sends one message out.
std::vector<Transfer> results_transfers(std::int64_t senders);

// A 2-D NEIGHBOR instance's edge messages (semantics N6).
std::vector<Transfer> grid_transfers(const std::vector<GridMessage>& messages);

}  // namespace scaling::detail
