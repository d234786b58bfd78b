// Internal to the state-space solver (state_space.hpp): what the ranks of a distributed sweep
// say to each other. Per level, the sizes of the shards each owns (so that every rank knows the
// level's chunk list); per round, one all_to_all carrying, to every other rank, a segment per
// chunk this rank processed: the chunk's summary (its mean, absorbed mass, end payload,
// fingerprint and largest rise, which every rank folds in chunk order) and the chunk's successors in the
// buckets the receiving rank owns; and after the merge, the ranks' memory and live states.
//
// A successor travels as its key and prob = fraction x the source's exit probability, the
// product the receiver would have computed; with a payload also its fraction and an index
// into the payload rows sent once per (chunk, source, receiving rank), so that the receiver
// adds fraction x row[k] exactly as merge_local does with the local row.
#pragma once

#include <tbb/task_arena.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "distributed/communicator.hpp"
#include "solvers/state_space_chunks.hpp"

namespace solvers::state_space_detail {

// What a rank tells every other about one of its chunks of a round.
struct ChunkSummary {
  std::uint64_t chunk = 0;  // index in the level's chunk list
  double mean = 0.0;
  double absorbed = 0.0;
  std::uint64_t fingerprint = 0;
  std::uint32_t largest_rise = 0;
  std::uint32_t buckets = 0;  // buckets of the receiver held in the segment
  std::uint64_t rows = 0;     // payload rows
  std::uint64_t successors = 0;
  std::uint64_t end_payload = 0;  // doubles of end payload that follow (width when absorbed > 0)
};

template <int W>
class RoundExchange {
 public:
  RoundExchange(const distributed::Communicator& communicator, const Ownership& ownership, std::size_t width)
      : communicator_(communicator), own_(ownership), width_(width) {}

  // The sizes of every shard of `level`, each reported by its owner.
  std::array<std::size_t, kShards> shard_sizes(const Level<W>& level) const;

  // Sends every other rank the segments of this rank's chunks of the round (work[k] is chunk
  // chunks[k] of the level's list, ascending) and receives theirs, each rank's in ascending
  // chunk order. Packing runs in `arena`.
  void swap(std::span<const ChunkWork<W>> work, std::span<const std::size_t> chunks, tbb::task_arena& arena);

  // The j-th chunk received from `rank` this round.
  const ChunkSummary& summary(int rank, std::size_t j) const {
    return received_[static_cast<std::size_t>(rank)][j].summary;
  }
  // Its end payload (summary.end_payload doubles) added to `sum`.
  void add_end_payload(int rank, std::size_t j, std::vector<double>& sum) const;
  // Merges its successors in this rank's bucket (rise, shard) into `target`.
  void merge(int rank, std::size_t j, std::size_t rise, std::size_t shard, Shard<W>& target) const;

  // Bytes held by the round's messages (sent and received).
  double bytes() const { return sent_bytes_ + received_bytes_; }

  // The largest of the ranks' live bytes and the sum of their live states, on every rank.
  std::pair<double, std::int64_t> job_memory(double live_bytes, std::int64_t live_states) const;

 private:
  struct Segment {
    ChunkSummary summary;
    const char* end_payload = nullptr;
    const char* bucket_start = nullptr;  // summary.buckets + 1 uint32
    const char* rows = nullptr;          // summary.rows x width doubles
    const char* successors = nullptr;    // summary.successors Sent
    const char* references = nullptr;    // summary.successors PayloadReference, with a payload
  };
  std::size_t local_bucket(std::size_t rise, std::size_t shard) const {
    return (rise - 1) * own_.shards_of(own_.rank) + shard / static_cast<std::size_t>(own_.ranks);
  }
  // The steps of swap.
  void summarise_chunk(const ChunkWork<W>& w, std::size_t chunk, std::size_t k, std::span<ChunkSummary> summaries,
                       std::span<std::size_t> segment_bytes);
  std::vector<std::string> allocate_messages(std::span<const std::size_t> segment_bytes, std::size_t count,
                                             std::vector<std::size_t>& offset);
  void pack_chunk(const ChunkWork<W>& w, std::size_t k, std::span<const ChunkSummary> summaries,
                  std::span<const std::size_t> offset, std::vector<std::string>& parts) const;
  void view_received();

  const distributed::Communicator& communicator_;
  Ownership own_;
  std::size_t width_;
  std::vector<std::string> messages_;                // received, one per rank
  std::vector<std::vector<Segment>> received_;       // per rank, views into messages_
  std::vector<std::vector<std::uint32_t>> rows_of_;  // per chunk sent: (rank, source) -> payload row
  double sent_bytes_ = 0.0;
  double received_bytes_ = 0.0;
};

}  // namespace solvers::state_space_detail
