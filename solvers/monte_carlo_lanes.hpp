// Internal to the Monte Carlo solver (monte_carlo.hpp): the 8 random streams of a sample
// block side by side, and the vector arithmetic the kernels draw with (xoshiro256++ over
// vector registers, a branch-free logarithm). Every file that includes it is compiled with
// -ffp-contract=off (solvers/CMakeLists.txt).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

#include "distributions/random.hpp"
#include "solvers/monte_carlo.hpp"

namespace solvers::monte_carlo_detail {

constexpr int kLanes = 8;
constexpr std::int64_t kRounds = kMonteCarloBlock / kLanes;

// ---- random numbers: 8 xoshiro256++ streams side by side --------------------------------------
// The state of the 8 lanes, in memory. Kernels load it into vector registers for a pass over
// the graph; per-lane draws (general distributions, dynamic pools) use it lane by lane.
struct LaneState {
  alignas(64) std::uint64_t s[4][kLanes];

  // Lane l of block b is the stream Xoshiro256pp(seed, 8 b + l); its first four outputs seed
  // the lane's state (xoshiro's outputs are well mixed, and never all zero in practice).
  void seed(std::uint64_t seed, std::uint64_t block) {
    for (int l = 0; l < kLanes; ++l) {
      distributions::Xoshiro256pp stream(seed, block * kLanes + static_cast<std::uint64_t>(l));
      for (int w = 0; w < 4; ++w) s[w][l] = stream();
      if ((s[0][l] | s[1][l] | s[2][l] | s[3][l]) == 0) s[0][l] = 1;
    }
  }

  // The next output of lane l alone.
  std::uint64_t next(int l) {
    const auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    const std::uint64_t result = rotl(s[0][l] + s[3][l], 23) + s[0][l];
    const std::uint64_t t = s[1][l] << 17;
    s[2][l] ^= s[0][l];
    s[3][l] ^= s[1][l];
    s[1][l] ^= s[2][l];
    s[0][l] ^= s[3][l];
    s[2][l] ^= t;
    s[3][l] = rotl(s[3][l], 45);
    return result;
  }
};

// One lane as a 64-bit URBG, for distributions::Sampler.
struct LaneUrbg {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  LaneState* state;
  int lane;
  result_type operator()() { return state->next(lane); }
};

// ---- the lanes as native vectors ----------------------------------------------------------------
// The 8-lane vectors never cross a call boundary to another translation unit (the kernels
// inline all of this), so GCC's ABI note about vector arguments does not apply. Only the Monte
// Carlo files include this header.
#pragma GCC diagnostic ignored "-Wpsabi"

// Native vectors of W doubles (8: AVX-512, 4: AVX2, 2: SSE2). GCC ignores vector_size on types
// that depend on a template parameter, hence the specialisations.
template <int W>
struct Vectors;
template <>
struct Vectors<2> {
  using D = double __attribute__((vector_size(16)));
  using U = std::uint64_t __attribute__((vector_size(16)));
  using I = std::int64_t __attribute__((vector_size(16)));
};
template <>
struct Vectors<4> {
  using D = double __attribute__((vector_size(32)));
  using U = std::uint64_t __attribute__((vector_size(32)));
  using I = std::int64_t __attribute__((vector_size(32)));
};
template <>
struct Vectors<8> {
  using D = double __attribute__((vector_size(64)));
  using U = std::uint64_t __attribute__((vector_size(64)));
  using I = std::int64_t __attribute__((vector_size(64)));
};

// The 8 lanes as 8/W native vectors of W doubles side by side. Every operation is lane-wise
// and exactly rounded, so every width gives the same bits.
template <int W>
struct LaneVectors {
  static constexpr int N = kLanes / W;
  using D = typename Vectors<W>::D;
  using U = typename Vectors<W>::U;
  using I = typename Vectors<W>::I;
  static_assert(sizeof(D) == 8 * W && sizeof(U) == 8 * W, "vector types");

  // memcpy rather than std::bit_cast: UBSan (GCC 12) reports a null load inside bit_cast of
  // vector types at -O0; both compile to the same register move.
  [[gnu::always_inline]] static D as_double(U x) {
    D d;
    std::memcpy(&d, &x, sizeof d);
    return d;
  }
  [[gnu::always_inline]] static U as_bits(D x) {
    U u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  }
  [[gnu::always_inline]] static D splat(double x) { return D{} + x; }
  [[gnu::always_inline]] static D load(const double* p) {
    D v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  [[gnu::always_inline]] static void store(double* p, D v) { std::memcpy(p, &v, sizeof v); }

  struct Rng {
    U s0[N], s1[N], s2[N], s3[N];
    [[gnu::always_inline]] void load(const LaneState& state) {
      std::memcpy(s0, state.s[0], sizeof s0);
      std::memcpy(s1, state.s[1], sizeof s1);
      std::memcpy(s2, state.s[2], sizeof s2);
      std::memcpy(s3, state.s[3], sizeof s3);
    }
    [[gnu::always_inline]] void save(LaneState& state) const {
      std::memcpy(state.s[0], s0, sizeof s0);
      std::memcpy(state.s[1], s1, sizeof s1);
      std::memcpy(state.s[2], s2, sizeof s2);
      std::memcpy(state.s[3], s3, sizeof s3);
    }
    // The next output of the lanes of part j.
    [[gnu::always_inline]] U next(int j) {
      const U sum = s0[j] + s3[j];
      const U result = ((sum << 23) | (sum >> 41)) + s0[j];
      const U t = s1[j] << 17;
      s2[j] ^= s0[j];
      s3[j] ^= s1[j];
      s1[j] ^= s2[j];
      s0[j] ^= s3[j];
      s2[j] ^= t;
      s3[j] = (s3[j] << 45) | (s3[j] >> 19);
      return result;
    }
    // Uniforms in (0, 1] from 52 random bits: 2 - [1, 2).
    [[gnu::always_inline]] D uniform(int j) { return 2.0 - as_double((next(j) >> 12) | 0x3FF0000000000000ULL); }
  };

  // Natural logarithm of x in (0, 1] (normal numbers), without branches: x = m 2^e with m in
  // [sqrt(1/2), sqrt(2)), log m = 2 atanh(z), z = (m-1)/(m+1), |z| <= 0.1716, by its odd
  // series to z^23 (truncation below 1e-19 relative).
  [[gnu::always_inline]] static D log(D x) {
    const U bits = as_bits(x);
    D m = as_double((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);
    D e = as_double((bits >> 52) | 0x4330000000000000ULL) - (4503599627370496.0 + 1023.0);
    const I big = m > 1.4142135623730951;
    m = big ? 0.5 * m : m;
    e = big ? e + 1.0 : e;
    const D z = (m - 1.0) / (m + 1.0);
    const D z2 = z * z;
    D s = splat(2.0 / 23.0);
    s = s * z2 + 2.0 / 21.0;
    s = s * z2 + 2.0 / 19.0;
    s = s * z2 + 2.0 / 17.0;
    s = s * z2 + 2.0 / 15.0;
    s = s * z2 + 2.0 / 13.0;
    s = s * z2 + 2.0 / 11.0;
    s = s * z2 + 2.0 / 9.0;
    s = s * z2 + 2.0 / 7.0;
    s = s * z2 + 2.0 / 5.0;
    s = s * z2 + 2.0 / 3.0;
    s = s * z2 + 2.0;
    constexpr double kLn2High = 0x1.62e42fefa3800p-1;  // ln 2 with a short mantissa: e * it is exact
    constexpr double kLn2Low = 0x1.ef35793c76730p-45;
    return e * kLn2High + (e * kLn2Low + z * s);
  }
};

}  // namespace solvers::monte_carlo_detail
