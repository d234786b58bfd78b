#include "scaling/step_transfers.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace scaling::detail {

std::int64_t unit_processor(std::int64_t c, std::int64_t n, std::int64_t p, models::Scheduling scheduling) {
  if (scheduling == models::Scheduling::Cyclic) return c % p;
  const std::int64_t q = n / p, r = n % p;
  const std::int64_t big = r * (q + 1);
  return c < big ? c / (q + 1) : r + (c - big) / q;
}

namespace {

// Pairs counted once per (from, to): the messages between them.
std::vector<Transfer> as_transfers(const std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t>& counts) {
  std::vector<Transfer> transfers;
  transfers.reserve(counts.size());
  for (const auto& [pair, messages] : counts) transfers.push_back({pair.first, pair.second, messages});
  return transfers;
}

// Unit u wrapped into [0, n) when `wrap`; -1 when it falls outside and does not wrap.
std::int64_t unit_at(std::int64_t u, std::int64_t n, bool wrap) {
  if (u >= 0 && u < n) return u;
  if (!wrap || n == 0) return -1;
  return ((u % n) + n) % n;
}

}  // namespace

std::vector<Transfer> neighbor_exchange_transfers(std::int64_t n, std::int64_t p, bool torus) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> counts;
  const std::int64_t holders = std::min(n, p);
  if (holders < 2) return {};
  const std::int64_t q = n / p, r = n % p;
  for (std::int64_t k = 0; k < holders; ++k) {
    const std::int64_t lo = k * q + std::min(k, r), hi = lo + q + (k < r ? 1 : 0) - 1;
    const std::int64_t before = unit_at(lo - 1, n, torus), after = unit_at(hi + 1, n, torus);
    const std::int64_t to_before = before < 0 ? k : unit_processor(before, n, p, models::Scheduling::Block);
    const std::int64_t to_after = after < 0 ? k : unit_processor(after, n, p, models::Scheduling::Block);
    if (to_before != k) ++counts[{k, to_before}];
    // The same column's boundary to the same processor is one message (M5).
    if (to_after != k && !(lo == hi && to_after == to_before)) ++counts[{k, to_after}];
  }
  return as_transfers(counts);
}

std::vector<Transfer> neighbour_joint_transfers(UnitPlacement a, UnitPlacement b, std::int64_t p, bool torus_kind,
                                                bool wrap) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> counts;
  if (p < 2 || a.units == 0 || b.units == 0) return {};
  if (a.units != b.units) {
    // The first unit of each processor of b waits for the last units of its neighbouring
    // processors in a: one message per pair of processors.
    for (std::int64_t k = 0; k < std::min(p, b.units); ++k) {
      for (std::int64_t other : {k - 1, k + 1}) {
        if (other < 0 || other >= p) {
          if (!wrap) continue;
          other = (other + p) % p;
        }
        if (other != k && other < std::min(p, a.units)) counts[{other, k}] = 1;
      }
    }
    return as_transfers(counts);
  }
  const std::int64_t n = a.units;
  const bool blocks = a.scheduling != models::Scheduling::Cyclic && b.scheduling != models::Scheduling::Cyclic;
  if (!blocks && n > kMostEnumeratedUnits) return {};
  // Per sending unit u of a: the units of b that depend on it (c = u+1, u, u-1; TORUS: u, u+1),
  // one message per receiving processor other than u's.
  const auto send_from = [&](std::int64_t u) {
    const std::int64_t from = unit_processor(u, n, p, a.scheduling);
    std::int64_t sent[3];
    int count = 0;
    const std::int64_t offsets[3] = {1, 0, -1};
    for (int i = 0; i < (torus_kind ? 2 : 3); ++i) {
      const std::int64_t c = unit_at(u + offsets[i], n, wrap);
      if (c < 0) continue;
      const std::int64_t to = unit_processor(c, n, p, b.scheduling);
      if (to == from || std::find(sent, sent + count, to) != sent + count) continue;
      sent[count++] = to;
      ++counts[{from, to}];
    }
  };
  if (blocks) {
    // Equal blocks on both sides: only the first and last unit of a block has a dependent on
    // another processor.
    const std::int64_t q = n / p, r = n % p;
    for (std::int64_t k = 0; k < std::min(p, n); ++k) {
      const std::int64_t lo = k * q + std::min(k, r), hi = lo + q + (k < r ? 1 : 0) - 1;
      send_from(lo);
      if (hi != lo) send_from(hi);
    }
  } else {
    for (std::int64_t u = 0; u < n; ++u) send_from(u);
  }
  return as_transfers(counts);
}

std::vector<Transfer> results_transfers(std::int64_t senders) {
  std::vector<Transfer> transfers;
  for (std::int64_t k = 0; k < senders; ++k) transfers.push_back({k, kOutside});
  return transfers;
}

std::vector<Transfer> grid_transfers(const std::vector<GridMessage>& messages) {
  std::vector<Transfer> transfers;
  transfers.reserve(messages.size());
  for (const GridMessage& m : messages) transfers.push_back({m.from, m.to});
  return transfers;
}

}  // namespace scaling::detail
