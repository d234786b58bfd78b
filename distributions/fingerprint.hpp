// A structural fingerprint of values built from numbers: two independent 64-bit hashes of the
// same stream of words, so that two models with equal fingerprints can be taken as equal (a
// collision needs both hashes to collide: about 2^-128 per pair). Used to solve a model once
// when several processor counts scale a program to the same model.
#pragma once

#include <cstdint>
#include <string_view>

#include "distributions/distribution.hpp"

namespace distributions {

class Fingerprint {
 public:
  void add(std::uint64_t word);
  // Bit patterns, with -0.0 taken as 0.0 (they compute the same).
  void add(double value);
  void add(std::string_view text);
  // Every parameter of the representation, recursively; equal fingerprints mean the same law
  // and the same representation (a closed form and its grid differ).
  void add(const Distribution& distribution);

  bool operator==(const Fingerprint&) const = default;
  auto operator<=>(const Fingerprint&) const = default;

 private:
  std::uint64_t first_ = 0x9e3779b97f4a7c15ULL;
  std::uint64_t second_ = 0xc2b2ae3d27d4eb4fULL;
};

}  // namespace distributions
