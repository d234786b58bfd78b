#include "distributed/mpi_communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace distributed {

namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI: ") + what + ": " + std::string(text, static_cast<std::size_t>(length)));
}

// MPI counts are ints: larger messages go in pieces of at most this many bytes.
constexpr std::size_t kPiece = std::size_t{1} << 30;

int as_count(std::size_t bytes, const char* what) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    throw std::runtime_error(std::string("MPI: ") + what + ": more than 2 GiB in one exchange");
  }
  return static_cast<int>(bytes);
}

constexpr int kRequestTag = 1;
constexpr int kReplyTag = 2;

// Rank 0 holds the counter and a thread that answers the other ranks' requests; a rank's own
// threads take items from it directly (rank 0) or one request at a time (the others).
class MpiQueue final : public WorkQueue {
 public:
  MpiQueue(MPI_Comm comm, std::size_t count) : comm_(comm), count_(count) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    if (rank_ == 0) server_ = std::thread([this] { serve(); });
  }

  ~MpiQueue() override {
    if (rank_ == 0) {
      server_.join();
    } else {
      // Every rank hears "none left" once, so that rank 0's server can stop.
      while (next()) {}
    }
    MPI_Comm_free(&comm_);
  }

  std::optional<std::size_t> next() override {
    if (rank_ == 0) return take();
    std::lock_guard<std::mutex> guard(lock_);
    if (dry_) return std::nullopt;
    std::uint64_t item = 0;
    check(MPI_Send(nullptr, 0, MPI_BYTE, 0, kRequestTag, comm_), "work request");
    check(MPI_Recv(&item, 1, MPI_UINT64_T, 0, kReplyTag, comm_, MPI_STATUS_IGNORE), "work reply");
    if (item >= count_) {
      dry_ = true;
      return std::nullopt;
    }
    return static_cast<std::size_t>(item);
  }

 private:
  std::optional<std::size_t> take() {
    const std::size_t item = next_.fetch_add(1, std::memory_order_relaxed);
    if (item >= count_) return std::nullopt;
    return item;
  }

  // Polls rather than blocks, so that it leaves the core to the rank's workers.
  void serve() {
    int waiting = size_ - 1;
    while (waiting > 0) {
      int arrived = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, comm_, &arrived, &status);
      if (!arrived) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        continue;
      }
      MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, kRequestTag, comm_, MPI_STATUS_IGNORE);
      const std::optional<std::size_t> item = take();
      const std::uint64_t reply = item ? *item : count_;
      MPI_Send(&reply, 1, MPI_UINT64_T, status.MPI_SOURCE, kReplyTag, comm_);
      if (!item) --waiting;
    }
  }

  MPI_Comm comm_;
  std::size_t count_;
  int rank_ = 0;
  int size_ = 1;
  std::atomic<std::size_t> next_{0};
  std::thread server_;
  std::mutex lock_;
  bool dry_ = false;
};

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiCommunicator() override { MPI_Comm_free(&comm_); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::string broadcast(std::string bytes, int root) const override {
    std::uint64_t length = bytes.size();
    check(MPI_Bcast(&length, 1, MPI_UINT64_T, root, comm_), "broadcast");
    bytes.resize(length);
    for (std::size_t at = 0; at < length; at += kPiece) {
      const std::size_t piece = std::min(kPiece, length - at);
      check(MPI_Bcast(bytes.data() + at, static_cast<int>(piece), MPI_BYTE, root, comm_), "broadcast");
    }
    return bytes;
  }

  std::vector<std::string> all_gather(std::string_view mine) const override {
    const std::uint64_t length = mine.size();
    std::vector<std::uint64_t> lengths(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, comm_), "all_gather");
    std::vector<int> counts(lengths.size()), offsets(lengths.size());
    std::size_t total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = as_count(total, "all_gather");
      counts[r] = as_count(lengths[r], "all_gather");
      total += lengths[r];
    }
    std::string all(total, '\0');
    check(MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(rank_)], MPI_BYTE, all.data(), counts.data(),
                         offsets.data(), MPI_BYTE, comm_),
          "all_gather");
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < lengths.size(); ++r)
      parts.push_back(all.substr(static_cast<std::size_t>(offsets[r]), lengths[r]));
    return parts;
  }

  // Point to point from each part and into each received string, rather than one
  // MPI_Alltoallv over joined buffers: the parts are the state space's successor batches, and
  // joining, receiving and splitting them again copied every byte three times.
  std::vector<std::string> all_to_all(std::vector<std::string> parts) const override {
    if (parts.size() != static_cast<std::size_t>(size_)) throw std::logic_error("all_to_all: one part per rank");
    std::vector<std::uint64_t> out_lengths, in_lengths(parts.size());
    for (const std::string& part : parts) out_lengths.push_back(part.size());
    check(MPI_Alltoall(out_lengths.data(), 1, MPI_UINT64_T, in_lengths.data(), 1, MPI_UINT64_T, comm_), "all_to_all");
    std::vector<std::string> received(parts.size());
    std::vector<MPI_Request> requests;
    for (std::size_t r = 0; r < parts.size(); ++r) {
      if (static_cast<int>(r) == rank_) continue;
      received[r].resize(in_lengths[r]);
      for (std::size_t at = 0, piece = 0; at < in_lengths[r]; at += kPiece, ++piece) {
        requests.emplace_back();
        check(MPI_Irecv(received[r].data() + at, static_cast<int>(std::min(kPiece, in_lengths[r] - at)), MPI_BYTE,
                        static_cast<int>(r), static_cast<int>(piece), comm_, &requests.back()),
              "all_to_all");
      }
    }
    for (std::size_t r = 0; r < parts.size(); ++r) {
      if (static_cast<int>(r) == rank_) continue;
      for (std::size_t at = 0, piece = 0; at < out_lengths[r]; at += kPiece, ++piece) {
        requests.emplace_back();
        check(MPI_Isend(parts[r].data() + at, static_cast<int>(std::min(kPiece, out_lengths[r] - at)), MPI_BYTE,
                        static_cast<int>(r), static_cast<int>(piece), comm_, &requests.back()),
              "all_to_all");
      }
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "all_to_all");
    received[static_cast<std::size_t>(rank_)] = std::move(parts[static_cast<std::size_t>(rank_)]);
    return received;
  }

  std::int64_t sum(std::int64_t mine) const override { return reduce(mine, MPI_SUM); }
  std::int64_t largest(std::int64_t mine) const override { return reduce(mine, MPI_MAX); }

  std::unique_ptr<WorkQueue> share(std::size_t count) const override {
    MPI_Comm own;
    check(MPI_Comm_dup(comm_, &own), "MPI_Comm_dup");
    return std::make_unique<MpiQueue>(own, count);
  }

 private:
  std::int64_t reduce(std::int64_t mine, MPI_Op op) const {
    std::int64_t all = 0;
    check(MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, op, comm_), "all_reduce");
    return all;
  }

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

std::unique_ptr<Communicator> start_mpi(int* argc, char*** argv) {
  int provided = MPI_THREAD_SINGLE;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("MPI: this MPI library cannot be called from several threads (MPI_THREAD_SERIALIZED)");
  }
  return std::make_unique<MpiCommunicator>();
}

void end_mpi() { MPI_Finalize(); }

void abort_mpi(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] true if it did
}

}  // namespace distributed
