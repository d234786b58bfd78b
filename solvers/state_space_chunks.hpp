// Internal to the state-space solver (state_space.hpp): the work of the sweep on one level, cut
// into fixed chunks of states, who owns which shard when the ranks of a job share the sweep, and
// how a chunk's successors are merged into the later levels.
//
// Why the figures never depend on threads, batches or ranks: the chunks of a level are fixed by
// the sizes of its shards alone, and each shard of a later level takes the successors of the
// level's chunks in the order of the level's chunk list, whoever computed them. The per-chunk
// means and masses are summed in that order too.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solvers/state_space_packed_states.hpp"

namespace solvers::state_space_detail {

// A successor of a state of a chunk, as the chunk's processing emits it.
template <int W>
struct Contribution {
  Key<W> key;
  std::uint64_t hash;
  double fraction;       // rate / total exit rate of the source
  std::uint32_t source;  // index of the source state in its chunk
  std::uint32_t rise;    // level of the target minus the source's
};

// One chunk's processing: its states' exit probabilities and payloads, its successors counting-
// sorted into buckets (rise - 1) * kShards + target shard, and what it adds to the sums.
template <int W>
struct ChunkWork {
  std::size_t shard = 0, begin = 0, end = 0;
  std::vector<Contribution<W>> raw, sorted;
  std::vector<std::uint32_t> bucket_start;  // bucket (rise - 1) * kShards + shard
  std::uint32_t largest_rise = 0;
  std::vector<double> exit_prob;
  std::vector<double> exit_payload;
  double mean = 0.0;
  double absorbed = 0.0;
  std::vector<double> end_payload;
  std::int64_t states = 0;
  std::uint64_t fingerprint = 0;  // sum of the states' state_fingerprint

  double bytes() const {
    return static_cast<double>((raw.capacity() + sorted.capacity()) * sizeof(Contribution<W>) +
                               (exit_prob.capacity() + exit_payload.capacity() + end_payload.capacity()) *
                                   sizeof(double) +
                               bucket_start.capacity() * sizeof(std::uint32_t));
  }
};

// A state's key, entry probability and payload, bit for bit, as one number; their sum over the
// states (SweepOutcome::fingerprint) tells whether two sweeps computed the same chain.
template <int W>
inline std::uint64_t state_fingerprint(const Key<W>& key, double p, const double* payload, std::size_t width) {
  std::uint64_t x = std::bit_cast<std::uint64_t>(p);
  for (std::uint64_t word : key.w) x = x * 0x9E3779B97F4A7C15ULL + word;
  std::uint64_t entries = 0;
  for (std::size_t k = 0; k < width; ++k) entries += std::bit_cast<std::uint64_t>(payload[k]);
  return mix64(x ^ mix64(entries));
}

// Shard s of every level belongs to rank s % ranks; a rank's shards are numbered by s / ranks.
struct Ownership {
  int rank = 0;
  int ranks = 1;
  int owner(std::size_t shard) const { return static_cast<int>(shard % static_cast<std::size_t>(ranks)); }
  bool owns(std::size_t shard) const { return owner(shard) == rank; }
  // Shards of rank r (kShards / ranks, one more for the first kShards % ranks ranks).
  std::size_t shards_of(int r) const {
    const auto n = static_cast<std::size_t>(ranks);
    const auto first = static_cast<std::size_t>(r);
    return first < kShards ? (kShards - first + n - 1) / n : 0;
  }
  std::size_t shard_of(int r, std::size_t local) const {
    return local * static_cast<std::size_t>(ranks) + static_cast<std::size_t>(r);
  }
};

struct ChunkRange {
  std::size_t shard = 0, begin = 0, end = 0;
};

// The chunks of a level and the rounds they are processed in. The chunks interleave the shards
// (the first chunk of every shard, then the second of every shard, ...), so that any run of
// consecutive chunks spreads over the shards, hence over the ranks, however large the shards.
// A round is the longest run of chunks from where the previous one ended in which no rank owns
// more than `per_rank` states (but at least one chunk): the batch whose successor buffers the
// budget allows, on each rank.
struct LevelPlan {
  std::vector<ChunkRange> chunks;
  std::vector<std::size_t> round_start;  // rounds() + 1 entries; round r is [start[r], start[r + 1])
  std::size_t rounds() const { return round_start.size() - 1; }
};

inline LevelPlan plan_level(const std::array<std::size_t, kShards>& shard_sizes, const Ownership& ownership,
                            std::size_t chunk_states, std::size_t per_rank) {
  LevelPlan plan;
  const std::size_t largest = *std::max_element(shard_sizes.begin(), shard_sizes.end());
  for (std::size_t begin = 0; begin < largest; begin += chunk_states) {
    for (std::size_t shard = 0; shard < kShards; ++shard) {
      const std::size_t n = shard_sizes[shard];
      if (begin < n) plan.chunks.push_back({shard, begin, std::min(n, begin + chunk_states)});
    }
  }
  plan.round_start.push_back(0);
  std::vector<std::size_t> taken(static_cast<std::size_t>(ownership.ranks), 0);  // states per rank
  for (std::size_t g = 0; g < plan.chunks.size(); ++g) {
    const std::size_t states = plan.chunks[g].end - plan.chunks[g].begin;
    std::size_t& mine = taken[static_cast<std::size_t>(ownership.owner(plan.chunks[g].shard))];
    if (mine > 0 && mine + states > per_rank) {
      plan.round_start.push_back(g);
      std::fill(taken.begin(), taken.end(), 0);
    }
    mine += states;
  }
  if (!plan.chunks.empty()) plan.round_start.push_back(plan.chunks.size());
  return plan;
}

// Adds one successor to its target shard: the probability of entering it through this move
// (prob = fraction x the source's exit probability) and fraction x the source's exit payload.
// The sweep merges local and received successors through this one function, so the same
// doubles are added in the same way.
template <int W, class PayloadAt>
inline void add_successor(Shard<W>& target, const Key<W>& key, std::uint64_t hash, double prob, double fraction,
                          std::size_t width, PayloadAt payload_at) {
  const std::size_t index = target.find_or_insert(key, hash, width);
  target.prob[index] += prob;
  if (width > 0) {
    double* to = target.payload.data() + index * width;
    for (std::size_t k = 0; k < width; ++k) to[k] += fraction * payload_at(k);
  }
}

// Merges the successors of a chunk of this rank in global bucket `bucket` into `target`.
template <int W>
inline void merge_local(const ChunkWork<W>& w, std::size_t bucket, Shard<W>& target, std::size_t width) {
  if (bucket + 1 >= w.bucket_start.size()) return;
  for (std::uint32_t i = w.bucket_start[bucket]; i < w.bucket_start[bucket + 1]; ++i) {
    const Contribution<W>& c = w.sorted[i];
    const double* from = w.exit_payload.data() + static_cast<std::size_t>(c.source) * width;
    add_successor(target, c.key, c.hash, c.fraction * w.exit_prob[c.source], c.fraction, width,
                  [from](std::size_t k) { return from[k]; });
  }
}

}  // namespace solvers::state_space_detail
