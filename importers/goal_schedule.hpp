// A GOAL schedule as the GOAL reader holds it between its stages (parsing, matching and
// checking, writing the program): plain tables indexed by operation, which point into the
// input's text instead of copying it (docs/import.md, "GOAL").
#pragma once

#include "importers/located.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace importers::goal {

enum class OpKind : std::uint8_t { Calc, Send, Recv };

// One `calc`, `send` or `recv` statement.
struct Operation {
  Place place;               // the statement's first word: its label, or the operation
  std::uint64_t amount = 0;  // calc: nanoseconds; send, recv: bytes
  std::uint32_t rank = 0;    // the rank whose block holds it
  std::uint32_t peer = 0;    // send: the destination; recv: the source
  std::uint32_t tag = 0;
  std::uint32_t position = 0;      // its place among its rank's operations, from 1: it names the task
  std::uint32_t label_length = 0;  // the label at place.offset; 0 without one
  OpKind kind = OpKind::Calc;
};

// `A requires B` (A starts once B is done) or `A irequires B` (A starts once B has started).
struct Dependency {
  Place place;  // the statement
  std::uint32_t dependent = 0;
  std::uint32_t required = 0;
  bool on_start = false;  // irequires
};

struct Schedule {
  std::uint32_t ranks = 0;
  std::vector<Operation> operations;  // rank blocks in the input's order, each block's in order
  std::vector<Dependency> dependencies;
};

// The label of an operation, or "" without one.
inline std::string_view label_of(const Operation& operation, std::string_view text) {
  return text.substr(operation.place.offset, operation.label_length);
}

// Bytes the reader holds per operation and per dependency at its peak, its tables of every
// stage together (the operation, its label's entry, the match and the graph built from it), for
// the memory budget: an estimate from the types' sizes and their containers' overheads.
inline constexpr std::size_t kBytesPerOperation = sizeof(Operation) + 64 + 48;
inline constexpr std::size_t kBytesPerDependency = sizeof(Dependency) + 16;

// The most ranks: the tool analyses at most 2^20 processors (semantics.md, G3).
inline constexpr std::uint32_t kMaxRanks = 1u << 20;

}  // namespace importers::goal
