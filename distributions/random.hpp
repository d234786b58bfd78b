// A small, fast, reproducible random number generator for Monte Carlo: xoshiro256++
// (Blackman & Vigna), seeded through splitmix64. Satisfies std::uniform_random_bit_generator.
//
// Reproducibility whatever the thread count: give every independent unit of work (a sample
// block, a replication) its own stream, Xoshiro256pp(seed, stream_index), rather than one
// generator per thread. Streams are derived by hashing (seed, stream) through splitmix64,
// which gives statistically independent states; jump() (2^128 steps) and long_jump() (2^192)
// are also provided for provably disjoint sub-sequences from one state.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

namespace distributions {

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

class Xoshiro256pp {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  explicit constexpr Xoshiro256pp(std::uint64_t seed = 0x5eed) { seed_from(SplitMix64(seed)); }
  // Stream `stream` of `seed`: a different, independent-looking state per (seed, stream).
  constexpr Xoshiro256pp(std::uint64_t seed, std::uint64_t stream) {
    SplitMix64 mixer(seed);
    const std::uint64_t seed_hash = mixer.next();
    SplitMix64 stream_mixer(seed_hash ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL));
    stream_mixer.next();
    seed_from(stream_mixer);
  }

  constexpr result_type operator()() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Equivalent to 2^128 calls: 2^128 non-overlapping sub-sequences.
  constexpr void jump() {
    constexpr std::array<std::uint64_t, 4> kJump = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL, 0xa9582618e03fc9aaULL,
                                                    0x39abdc4529b1661cULL};
    apply_jump(kJump);
  }
  // Equivalent to 2^192 calls.
  constexpr void long_jump() {
    constexpr std::array<std::uint64_t, 4> kLongJump = {0x76e15d3efefdcbbfULL, 0xc5004e441c522fb3ULL,
                                                        0x77710069854ee241ULL, 0x39109bb02acbe635ULL};
    apply_jump(kLongJump);
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  constexpr void seed_from(SplitMix64 mixer) {
    for (auto& word : s_) word = mixer.next();
    // An all-zero state would be a fixed point; splitmix64 cannot produce four zeros in a row
    // in practice, but make it impossible.
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
  }

  constexpr void apply_jump(const std::array<std::uint64_t, 4>& polynomial) {
    std::array<std::uint64_t, 4> acc{};
    for (std::uint64_t word : polynomial) {
      for (int bit = 0; bit < 64; ++bit) {
        if (word & (std::uint64_t{1} << bit)) {
          for (int i = 0; i < 4; ++i) acc[i] ^= s_[i];
        }
        (*this)();
      }
    }
    s_ = acc;
  }

  std::array<std::uint64_t, 4> s_{};
};

// A uniform double in (0, 1] from 53 random bits: never 0, so -log(u) is finite.
template <class Rng>
inline double uniform_open_closed(Rng& rng) {
  return static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;
}
// A uniform double in [0, 1).
template <class Rng>
inline double uniform_closed_open(Rng& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace distributions
