// Internal to the state-space solver (state_space.hpp): states packed into 1, 2 or 4 64-bit
// words, the hash shards a level of the sweep is kept in, and the dispatch from a model's key
// width to the code for it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "solvers/state_space_model.hpp"

namespace solvers::state_space_detail {

template <int W>
struct Key {
  std::array<std::uint64_t, W> w{};
  // Word by word: the defaulted comparison calls memcmp, a sixth of the sweep's time.
  bool operator==(const Key& other) const {
    bool same = true;
    for (std::size_t i = 0; i < W; ++i) same &= w[i] == other.w[i];
    return same;
  }
};

template <int W>
inline std::uint64_t get(const Key<W>& key, const Field& f) {
  return (key.w[static_cast<std::size_t>(f.word)] >> f.shift) & f.mask;
}

template <int W>
inline void put(Key<W>& key, const Field& f, std::uint64_t value) {
  std::uint64_t& word = key.w[static_cast<std::size_t>(f.word)];
  word = (word & ~(f.mask << f.shift)) | (value << f.shift);
}

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

template <int W>
inline std::uint64_t hash_of(const Key<W>& key) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t word : key.w) h = mix64(h ^ word);
  return h;
}

// Shards split each level by the top bits of the hash, so that successors are merged in
// parallel (one shard per task) and deterministically (each shard in chunk order).
constexpr int kShardBits = 6;
constexpr std::size_t kShards = std::size_t{1} << kShardBits;
inline std::size_t shard_of(std::uint64_t hash) { return static_cast<std::size_t>(hash >> (64 - kShardBits)); }

// Open addressing, linear probing, slots hold index + 1 into the entry arrays (kept in
// insertion order, which is what makes the sweep's order deterministic).
template <int W>
struct Shard {
  std::vector<Key<W>> keys;
  std::vector<double> prob;
  std::vector<double> payload;
  std::vector<std::uint32_t> slots;

  std::size_t find_or_insert(const Key<W>& key, std::uint64_t hash, std::size_t payload_width) {
    if ((keys.size() + 1) * 10 > slots.size() * 7) grow();
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = slots[i];
      if (s == 0) {
        slots[i] = static_cast<std::uint32_t>(keys.size() + 1);
        keys.push_back(key);
        prob.push_back(0.0);
        payload.resize(payload.size() + payload_width, 0.0);
        return keys.size() - 1;
      }
      if (keys[s - 1] == key) return s - 1;
    }
  }

  void grow() {
    if (keys.size() >= std::numeric_limits<std::uint32_t>::max() / 2) {
      throw std::length_error("state space: more than 2^31 states in one shard of a level");
    }
    std::vector<std::uint32_t> bigger(std::max<std::size_t>(64, slots.size() * 2), 0);
    const std::size_t mask = bigger.size() - 1;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      std::size_t i = hash_of(keys[k]) & mask;
      while (bigger[i] != 0) i = (i + 1) & mask;
      bigger[i] = static_cast<std::uint32_t>(k + 1);
    }
    slots.swap(bigger);
  }

  double bytes() const {
    return static_cast<double>(keys.capacity() * sizeof(Key<W>) + prob.capacity() * sizeof(double) +
                               payload.capacity() * sizeof(double) + slots.capacity() * sizeof(std::uint32_t));
  }
};

template <int W>
struct Level {
  std::vector<Shard<W>> shards = std::vector<Shard<W>>(kShards);
  std::size_t size() const {
    std::size_t n = 0;
    for (const Shard<W>& s : shards) n += s.keys.size();
    return n;
  }
  double bytes() const {
    double b = 0.0;
    for (const Shard<W>& s : shards) b += s.bytes();
    return b;
  }
};

// Bytes per live state: key, probability and payload in vectors that grow by doubling, plus
// the hash slots (load factor 0.35 to 0.7).
inline double bytes_per_state(std::size_t key_bytes, std::size_t payload_width) {
  return 1.5 * static_cast<double>(key_bytes + sizeof(double) * (1 + payload_width)) + 8.0;
}

// ---- Dispatch on the key width -------------------------------------------------------------

template <class F>
auto with_key_width(int words, F&& f) {
  if (words <= 1) return f(std::integral_constant<int, 1>{});
  if (words <= 2) return f(std::integral_constant<int, 2>{});
  return f(std::integral_constant<int, 4>{});
}

constexpr int kMostWords = 4;

inline std::size_t key_bytes(int words) { return words <= 1 ? 8 : words <= 2 ? 16 : 32; }

}  // namespace solvers::state_space_detail
