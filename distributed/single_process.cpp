#include <atomic>
#include <stdexcept>

#include "distributed/communicator.hpp"

namespace distributed {

namespace {

class LocalQueue final : public WorkQueue {
 public:
  explicit LocalQueue(std::size_t count) : count_(count) {}
  std::optional<std::size_t> next() override {
    const std::size_t item = next_.fetch_add(1, std::memory_order_relaxed);
    if (item >= count_) return std::nullopt;
    return item;
  }

 private:
  std::size_t count_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace

std::unique_ptr<WorkQueue> local_queue(std::size_t count) { return std::make_unique<LocalQueue>(count); }

std::string SingleProcess::broadcast(std::string bytes, int /*root*/) const { return bytes; }

std::vector<std::string> SingleProcess::all_gather(std::string_view mine) const { return {std::string(mine)}; }

std::vector<std::string> SingleProcess::all_to_all(std::vector<std::string> parts) const {
  if (parts.size() != 1) throw std::logic_error("SingleProcess::all_to_all: one part per rank");
  return parts;
}

std::unique_ptr<WorkQueue> SingleProcess::share(std::size_t count) const { return local_queue(count); }

const char* Reader::take(std::size_t count) {
  if (count > bytes_.size() - at_) throw std::runtime_error("distributed::Reader: past the end of the bytes");
  const char* at = bytes_.data() + at_;
  at_ += count;
  return at;
}

}  // namespace distributed
