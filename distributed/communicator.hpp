// The processes of one run and what they say to each other (docs/scale-out.md). A run is one
// process (SingleProcess) or the ranks of an MPI job (mpi_world.hpp); the analysis and the
// solvers are written against this interface only, so they build and run without MPI.
//
// Every member except WorkQueue::next is collective: every rank calls it, in the same order,
// from one thread at a time (the ranks run the same program over the same input, so they meet
// the same calls in the same order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace distributed {

// Items [0, count) handed out one at a time to whichever thread of whichever rank asks next
// (dynamic load balancing): every item is handed out exactly once. next() is thread-safe.
class WorkQueue {
 public:
  virtual ~WorkQueue() = default;
  // The next item, or nothing once every item has been handed out.
  virtual std::optional<std::size_t> next() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool alone() const { return size() == 1; }

  // `bytes` of rank `root`, on every rank.
  virtual std::string broadcast(std::string bytes, int root) const = 0;
  // Every rank's bytes, in rank order, on every rank.
  virtual std::vector<std::string> all_gather(std::string_view mine) const = 0;
  // parts[r] (one per rank) goes to rank r; returns what each rank sent this one, in rank order.
  virtual std::vector<std::string> all_to_all(std::vector<std::string> parts) const = 0;
  // The sum and the largest of the ranks' values, on every rank (exact: integers).
  virtual std::int64_t sum(std::int64_t mine) const = 0;
  virtual std::int64_t largest(std::int64_t mine) const = 0;
  // A queue of `count` items shared by every rank; collective to make and to destroy (the
  // destructor waits until every rank has seen the queue run dry).
  virtual std::unique_ptr<WorkQueue> share(std::size_t count) const = 0;
};

// The run of one process: every collective is the identity.
class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string broadcast(std::string bytes, int root) const override;
  std::vector<std::string> all_gather(std::string_view mine) const override;
  std::vector<std::string> all_to_all(std::vector<std::string> parts) const override;
  std::int64_t sum(std::int64_t mine) const override { return mine; }
  std::int64_t largest(std::int64_t mine) const override { return mine; }
  std::unique_ptr<WorkQueue> share(std::size_t count) const override;
};

// A queue served from this process's memory (an atomic counter); SingleProcess's, and the one
// rank 0 of an MPI job serves to every rank.
std::unique_ptr<WorkQueue> local_queue(std::size_t count);

// Plain values to bytes and back, for the collectives above. The ranks of a job run the same
// binary on the same kind of machine, so the bytes are the values' own representation.
class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <class T>
  void put_all(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(values.size());
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  }
  void put_text(std::string_view text) { put_all(std::span<const char>(text.data(), text.size())); }
  // One field of a record whose fields are listed once, for writing and reading (Reader::field):
  // text, a vector of plain values or a plain value.
  void field(const std::string& text) { put_text(text); }
  template <class T>
  void field(const std::vector<T>& values) {
    put_all(std::span<const T>(values));
  }
  template <class T>
  void field(const T& value) {
    put(value);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// Reads what a Writer wrote, in the same order; throws std::runtime_error past the end.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  template <class T>
  std::vector<T> get_all() {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto count = get<std::uint64_t>();
    std::vector<T> values(count);
    if (count > 0) std::memcpy(values.data(), take(count * sizeof(T)), count * sizeof(T));
    return values;
  }
  std::string get_text() {
    const auto count = get<std::uint64_t>();
    return std::string(take(count), count);
  }
  // What Writer::field wrote, into `value`.
  void field(std::string& text) { text = get_text(); }
  template <class T>
  void field(std::vector<T>& values) {
    values = get_all<T>();
  }
  template <class T>
  void field(T& value) {
    value = get<T>();
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const char* take(std::size_t count);
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace distributed
