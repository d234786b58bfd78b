// Foster's bandwidth-sharing factor S (Designing and Building Parallel Programs, section 3.7:
// T_msg = t_s + t_w·L·S): how many of a set of messages sent at once share one wire, given how
// the machine's processors are wired (models::Topology). The machine's COMMUNICATION TIME and
// MESSAGE OVERHEAD read it as S (docs/machine.md, "Topology and bandwidth sharing").
#pragma once

#include <cstdint>
#include <vector>

#include "models/machine.hpp"

namespace scaling {

// A message of a step from processor `from` to processor `to`; to = kOutside: a receiver
// outside the processors (INDEPENDENT's results). `messages` such messages between the pair
// (1 unless a caller counts several at once).
inline constexpr std::int64_t kOutside = -1;
struct Transfer {
  std::int64_t from;
  std::int64_t to;
  std::int64_t messages = 1;
};

// S of the messages `step` sends at once on p processors (>= 1; 1 for no message):
//   FULLY CONNECTED, FAT TREE: 1 (a crossbar, a full-bisection tree);
//   BUS: min(m, max(1, floor(q/2))), m the messages, q the distinct endpoints (senders and
//        receivers, the outside counting as one);
//   RING, MESH 2D/3D, TORUS 2D/3D, HYPERCUBE: the most messages crossing one directed link
//        under dimension-order routing (processor_layout()); a message to the outside loads no
//        link.
double sharing_factor(models::Topology topology, std::int64_t p, const std::vector<Transfer>& step);

// False for the topologies whose S is always 1 (FULLY CONNECTED, FAT TREE): no step's messages
// need to be listed there.
bool shares_links(models::Topology topology);

// The most links one message crosses on p processors under dimension-order routing (the
// network's diameter): RING floor(p/2), a mesh the sum of (extent - 1), a torus the sum of
// floor(extent/2), HYPERCUBE ceil(log2 p); 1 on a BUS, FULLY CONNECTED and FAT TREE.
double diameter(models::Topology topology, std::int64_t p);

// Where the ranks sit: the extents of the dimensions, fastest-varying first (rank =
// x0 + e0·(x1 + e1·x2)), and whether they wrap around. RING: {p}, wrapping; MESH/TORUS 2D: the
// most nearly square rows × columns = p with rows <= columns (grid_layout.hpp) as {columns,
// rows}; MESH/TORUS 3D: the a <= b <= c with a·b·c = p of least c, then least b, as {c, b, a};
// HYPERCUBE: ceil(log2 p) dimensions of extent 2 (the ranks are node numbers of the
// 2^ceil(log2 p)-cube). Empty for the topologies without routes (FULLY CONNECTED, BUS, FAT TREE).
struct ProcessorLayout {
  std::vector<std::int64_t> extents;
  bool wraps = false;
};
ProcessorLayout processor_layout(models::Topology topology, std::int64_t p);

}  // namespace scaling
