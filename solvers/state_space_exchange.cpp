#include "solvers/state_space_exchange.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace solvers::state_space_detail {

namespace {

// A successor on the wire, and with a payload its fraction and payload row. Its hash is not
// sent: the receiver computes it again (hash_of is a few multiplications; the message is a
// third shorter for a one-word key).
template <int W>
struct Sent {
  Key<W> key;
  double prob;  // fraction x the source's exit probability
};

struct PayloadReference {
  double fraction;
  std::uint64_t row;  // index of the source's exit payload among the segment's rows
};

constexpr std::uint32_t kNoRow = std::numeric_limits<std::uint32_t>::max();

// Messages are byte strings: values are copied in and out, never read in place (alignment).
template <class T>
char* put(char* at, const T& value) {
  std::memcpy(at, &value, sizeof value);
  return at + sizeof value;
}

template <class T>
T read(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// Calls f(first, last) for the successors of `w` in each bucket of rank `to`, in the order of
// that rank's buckets (rise, then its shards in ascending order).
template <int W, class F>
void for_each_bucket_of(const ChunkWork<W>& w, const Ownership& own, int to, F f) {
  const std::size_t shards = own.shards_of(to);
  for (std::size_t rise = 1; rise <= w.largest_rise; ++rise) {
    for (std::size_t i = 0; i < shards; ++i) {
      const std::size_t bucket = (rise - 1) * kShards + own.shard_of(to, i);
      f(w.bucket_start[bucket], w.bucket_start[bucket + 1]);
    }
  }
}

}  // namespace

template <int W>
std::array<std::size_t, kShards> RoundExchange<W>::shard_sizes(const Level<W>& level) const {
  distributed::Writer mine;
  for (std::size_t i = 0; i < own_.shards_of(own_.rank); ++i) {
    mine.put<std::uint64_t>(level.shards[own_.shard_of(own_.rank, i)].keys.size());
  }
  std::array<std::size_t, kShards> sizes{};
  const std::vector<std::string> all = communicator_.all_gather(mine.bytes());
  for (int r = 0; r < own_.ranks; ++r) {
    distributed::Reader theirs(all[static_cast<std::size_t>(r)]);
    for (std::size_t i = 0; i < own_.shards_of(r); ++i) sizes[own_.shard_of(r, i)] = theirs.get<std::uint64_t>();
  }
  return sizes;
}

template <int W>
void RoundExchange<W>::swap(std::span<const ChunkWork<W>> work, std::span<const std::size_t> chunks,
                            tbb::task_arena& arena) {
  const auto ranks = static_cast<std::size_t>(own_.ranks);
  const std::size_t count = work.size();
  // First pass, per (chunk, receiving rank): the summary, whose counts size the segment, and
  // with a payload the rows to send (the sources with a successor there, in source order).
  std::vector<ChunkSummary> summaries(count * ranks);
  std::vector<std::size_t> segment_bytes(count * ranks, 0);
  rows_of_.resize(std::max(rows_of_.size(), count));
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1), [&](const tbb::blocked_range<std::size_t>& range) {
      for (std::size_t k = range.begin(); k != range.end(); ++k) {
        summarise_chunk(work[k], chunks[k], k, summaries, segment_bytes);
      }
    });
  });
  std::vector<std::size_t> offset(count * ranks, 0);
  std::vector<std::string> parts = allocate_messages(segment_bytes, count, offset);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1), [&](const tbb::blocked_range<std::size_t>& range) {
      for (std::size_t k = range.begin(); k != range.end(); ++k) pack_chunk(work[k], k, summaries, offset, parts);
    });
  });
  messages_ = communicator_.all_to_all(std::move(parts));
  view_received();
  for (const std::vector<std::uint32_t>& rows : rows_of_) sent_bytes_ += static_cast<double>(rows.capacity() * 4);
}

// Chunk k of the round (`chunk` in the level's list): its summary and segment size for every
// other rank, and with a payload its rows_of_[k].
template <int W>
void RoundExchange<W>::summarise_chunk(const ChunkWork<W>& w, std::size_t chunk, std::size_t k,
                                       std::span<ChunkSummary> summaries, std::span<std::size_t> segment_bytes) {
  const auto ranks = static_cast<std::size_t>(own_.ranks);
  const std::size_t states = w.end - w.begin;
  std::vector<std::uint32_t>& row_of = rows_of_[k];
  if (width_ > 0) row_of.assign(ranks * states, kNoRow);
  for (int to = 0; to < own_.ranks; ++to) {
    if (to == own_.rank) continue;
    ChunkSummary& s = summaries[k * ranks + static_cast<std::size_t>(to)];
    s.chunk = chunk;
    s.mean = w.mean;
    s.absorbed = w.absorbed;
    s.fingerprint = w.fingerprint;
    s.largest_rise = w.largest_rise;
    s.buckets = static_cast<std::uint32_t>(w.largest_rise * own_.shards_of(to));
    s.end_payload = w.absorbed > 0.0 ? width_ : 0;
    std::uint32_t* rows = width_ > 0 ? row_of.data() + static_cast<std::size_t>(to) * states : nullptr;
    for_each_bucket_of(w, own_, to, [&](std::uint32_t first, std::uint32_t last) {
      s.successors += last - first;
      for (std::uint32_t i = first; rows != nullptr && i < last; ++i) rows[w.sorted[i].source] = 0;
    });
    for (std::size_t source = 0; rows != nullptr && source < states; ++source) {
      if (rows[source] != kNoRow) rows[source] = static_cast<std::uint32_t>(s.rows++);
    }
    segment_bytes[k * ranks + static_cast<std::size_t>(to)] =
        sizeof(ChunkSummary) + (s.end_payload + s.rows * width_) * sizeof(double) +
        (s.buckets + std::size_t{1}) * sizeof(std::uint32_t) +
        s.successors * (sizeof(Sent<W>) + (width_ > 0 ? sizeof(PayloadReference) : 0));
  }
}

// Each rank's message: the segments of the chunks in order. The strings received last round
// carry them, so that their memory is reused rather than allocated (and paged in) anew.
template <int W>
std::vector<std::string> RoundExchange<W>::allocate_messages(std::span<const std::size_t> segment_bytes,
                                                             std::size_t count, std::vector<std::size_t>& offset) {
  const auto ranks = static_cast<std::size_t>(own_.ranks);
  std::vector<std::string> parts = std::move(messages_);
  parts.resize(ranks);
  sent_bytes_ = 0.0;
  for (std::size_t to = 0; to < ranks; ++to) {
    std::size_t total = 0;
    for (std::size_t k = 0; k < count; ++k) {
      offset[k * ranks + to] = total;
      total += segment_bytes[k * ranks + to];
    }
    parts[to].clear();
    parts[to].resize(total);
    sent_bytes_ += static_cast<double>(parts[to].capacity());
  }
  return parts;
}

// Writes the segments of chunk k of the round into the messages to every other rank.
template <int W>
void RoundExchange<W>::pack_chunk(const ChunkWork<W>& w, std::size_t k, std::span<const ChunkSummary> summaries,
                                  std::span<const std::size_t> offset, std::vector<std::string>& parts) const {
  const auto ranks = static_cast<std::size_t>(own_.ranks);
  const std::size_t states = w.end - w.begin;
  for (int to = 0; to < own_.ranks; ++to) {
    if (to == own_.rank) continue;
    const ChunkSummary& s = summaries[k * ranks + static_cast<std::size_t>(to)];
    char* at = parts[static_cast<std::size_t>(to)].data() + offset[k * ranks + static_cast<std::size_t>(to)];
    at = put(at, s);
    if (s.end_payload > 0) {
      std::memcpy(at, w.end_payload.data(), width_ * sizeof(double));
      at += width_ * sizeof(double);
    }
    std::uint32_t start = 0;
    at = put(at, start);
    for_each_bucket_of(w, own_, to, [&](std::uint32_t first, std::uint32_t last) {
      start += last - first;
      at = put(at, start);
    });
    const std::uint32_t* rows = width_ > 0 ? rows_of_[k].data() + static_cast<std::size_t>(to) * states : nullptr;
    for (std::size_t source = 0; rows != nullptr && source < states; ++source) {
      if (rows[source] == kNoRow) continue;
      std::memcpy(at, w.exit_payload.data() + source * width_, width_ * sizeof(double));
      at += width_ * sizeof(double);
    }
    for_each_bucket_of(w, own_, to, [&](std::uint32_t first, std::uint32_t last) {
      for (std::uint32_t i = first; i < last; ++i) {
        const Contribution<W>& c = w.sorted[i];
        at = put(at, Sent<W>{c.key, c.fraction * w.exit_prob[c.source]});
      }
    });
    if (rows == nullptr) continue;
    for_each_bucket_of(w, own_, to, [&](std::uint32_t first, std::uint32_t last) {
      for (std::uint32_t i = first; i < last; ++i) {
        const Contribution<W>& c = w.sorted[i];
        at = put(at, PayloadReference{c.fraction, rows[c.source]});
      }
    });
  }
}

// Views of the received segments.
template <int W>
void RoundExchange<W>::view_received() {
  const auto ranks = static_cast<std::size_t>(own_.ranks);
  received_.resize(ranks);
  received_bytes_ = 0.0;
  for (std::size_t from = 0; from < ranks; ++from) {
    std::vector<Segment>& segments = received_[from];
    segments.clear();
    const std::string& message = messages_[from];
    received_bytes_ += static_cast<double>(message.capacity());
    if (static_cast<int>(from) == own_.rank) continue;
    const char* at = message.data();
    const char* end = at + message.size();
    while (at < end) {
      Segment seg;
      seg.summary = read<ChunkSummary>(at);
      const ChunkSummary& s = seg.summary;
      at += sizeof(ChunkSummary);
      seg.end_payload = at;
      at += s.end_payload * sizeof(double);
      seg.bucket_start = at;
      at += (s.buckets + std::size_t{1}) * sizeof(std::uint32_t);
      seg.rows = at;
      at += s.rows * width_ * sizeof(double);
      seg.successors = at;
      at += s.successors * sizeof(Sent<W>);
      seg.references = at;
      if (width_ > 0) at += s.successors * sizeof(PayloadReference);
      if (at > end) throw std::logic_error("state space: a truncated message from rank " + std::to_string(from));
      segments.push_back(seg);
    }
    received_bytes_ += static_cast<double>(segments.capacity() * sizeof(Segment));
  }
}

template <int W>
void RoundExchange<W>::add_end_payload(int rank, std::size_t j, std::vector<double>& sum) const {
  const Segment& seg = received_[static_cast<std::size_t>(rank)][j];
  for (std::size_t i = 0; i < seg.summary.end_payload; ++i)
    sum[i] += read<double>(seg.end_payload + i * sizeof(double));
}

template <int W>
void RoundExchange<W>::merge(int rank, std::size_t j, std::size_t rise, std::size_t shard, Shard<W>& target) const {
  const Segment& seg = received_[static_cast<std::size_t>(rank)][j];
  const std::size_t bucket = local_bucket(rise, shard);
  if (bucket >= seg.summary.buckets) return;
  const auto first = read<std::uint32_t>(seg.bucket_start + bucket * sizeof(std::uint32_t));
  const auto last = read<std::uint32_t>(seg.bucket_start + (bucket + 1) * sizeof(std::uint32_t));
  for (std::uint32_t i = first; i < last; ++i) {
    const auto s = read<Sent<W>>(seg.successors + i * sizeof(Sent<W>));
    if (width_ == 0) {
      add_successor(target, s.key, hash_of(s.key), s.prob, 0.0, 0, [](std::size_t) { return 0.0; });
      continue;
    }
    const auto reference = read<PayloadReference>(seg.references + i * sizeof(PayloadReference));
    const char* row = seg.rows + reference.row * width_ * sizeof(double);
    add_successor(target, s.key, hash_of(s.key), s.prob, reference.fraction, width_,
                  [row](std::size_t k) { return read<double>(row + k * sizeof(double)); });
  }
}

template <int W>
std::pair<double, std::int64_t> RoundExchange<W>::job_memory(double live_bytes, std::int64_t live_states) const {
  distributed::Writer mine;
  mine.put(live_bytes);
  mine.put(live_states);
  double most = 0.0;
  std::int64_t states = 0;
  for (const std::string& part : communicator_.all_gather(mine.bytes())) {
    distributed::Reader theirs(part);
    most = std::max(most, theirs.get<double>());
    states += theirs.get<std::int64_t>();
  }
  return {most, states};
}

template class RoundExchange<1>;
template class RoundExchange<2>;
template class RoundExchange<4>;

}  // namespace solvers::state_space_detail
