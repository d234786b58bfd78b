#include "distributed/threaded_ranks.hpp"

#include <algorithm>
#include <barrier>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace distributed {

namespace {

// What the ranks share: a barrier and a square of mailboxes, slot [from * ranks + to].
struct Hub {
  explicit Hub(int ranks) : size(ranks), barrier(ranks), slots(static_cast<std::size_t>(ranks * ranks)) {}
  int size;
  std::barrier<> barrier;
  std::vector<std::string> slots;
  std::shared_ptr<WorkQueue> queue;
};

class SharedQueue final : public WorkQueue {
 public:
  explicit SharedQueue(std::shared_ptr<WorkQueue> queue) : queue_(std::move(queue)) {}
  std::optional<std::size_t> next() override { return queue_->next(); }

 private:
  std::shared_ptr<WorkQueue> queue_;
};

class ThreadedRank final : public Communicator {
 public:
  ThreadedRank(Hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_.size; }

  std::string broadcast(std::string bytes, int root) const override {
    if (rank_ == root) slot(root, 0) = std::move(bytes);
    hub_.barrier.arrive_and_wait();
    std::string copy = slot(root, 0);
    hub_.barrier.arrive_and_wait();
    return copy;
  }

  std::vector<std::string> all_gather(std::string_view mine) const override {
    slot(rank_, 0) = std::string(mine);
    hub_.barrier.arrive_and_wait();
    std::vector<std::string> all;
    for (int r = 0; r < hub_.size; ++r) all.push_back(slot(r, 0));
    hub_.barrier.arrive_and_wait();
    return all;
  }

  std::vector<std::string> all_to_all(std::vector<std::string> parts) const override {
    if (parts.size() != static_cast<std::size_t>(hub_.size)) throw std::logic_error("all_to_all: one part per rank");
    for (int r = 0; r < hub_.size; ++r) slot(rank_, r) = std::move(parts[static_cast<std::size_t>(r)]);
    hub_.barrier.arrive_and_wait();
    std::vector<std::string> received;
    for (int r = 0; r < hub_.size; ++r) received.push_back(std::move(slot(r, rank_)));
    hub_.barrier.arrive_and_wait();
    return received;
  }

  std::int64_t sum(std::int64_t mine) const override {
    std::int64_t total = 0;
    for (const std::string& part : all_gather(as_bytes(mine))) total += Reader(part).get<std::int64_t>();
    return total;
  }

  std::int64_t largest(std::int64_t mine) const override {
    std::int64_t most = mine;
    for (const std::string& part : all_gather(as_bytes(mine))) most = std::max(most, Reader(part).get<std::int64_t>());
    return most;
  }

  std::unique_ptr<WorkQueue> share(std::size_t count) const override {
    if (rank_ == 0) hub_.queue = local_queue(count);
    hub_.barrier.arrive_and_wait();
    auto queue = std::make_unique<SharedQueue>(hub_.queue);
    hub_.barrier.arrive_and_wait();
    return queue;
  }

 private:
  static std::string as_bytes(std::int64_t value) {
    Writer writer;
    writer.put(value);
    return writer.bytes();
  }
  std::string& slot(int from, int to) const { return hub_.slots[static_cast<std::size_t>(from * hub_.size + to)]; }
  Hub& hub_;
  int rank_;
};

}  // namespace

void run_threaded_ranks(int ranks, const std::function<void(const Communicator&)>& body) {
  if (ranks < 1) throw std::invalid_argument("run_threaded_ranks: at least one rank");
  Hub hub(ranks);
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        ThreadedRank rank(hub, r);
        body(rank);
      } catch (...) {
        failures[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace distributed
