#include "analysis/parallel.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "scaling/approximate_model.hpp"  // ScalingError

namespace analysis {

namespace {

// The item's failure: what it returned, or the scaling::ScalingError it threw.
std::optional<Failure> failure_of(const std::function<std::optional<Failure>(std::size_t)>& item,
                                  const std::function<std::size_t(std::size_t)>& machine_of, std::size_t k) {
  try {
    return item(k);
  } catch (const scaling::ScalingError& error) {
    Failure failure;
    failure.kind = Failure::Kind::InvalidValue;
    failure.machine = machine_of(k);
    failure.message = error.what();
    failure.location = error.location();
    return failure;
  }
}

}  // namespace

std::optional<Failure> run_items(std::size_t count, int threads,
                                 const std::function<std::optional<Failure>(std::size_t)>& item,
                                 const std::function<std::size_t(std::size_t)>& machine_of) {
  std::optional<Failure> first;
  std::size_t first_index = count;
  std::mutex lock;
  auto record = [&](std::size_t k, Failure failure) {
    std::lock_guard<std::mutex> guard(lock);
    if (k < first_index) {
      first_index = k;
      first = std::move(failure);
    }
  };
  auto work = [&] {
    tbb::parallel_for(std::size_t{0}, count, [&](std::size_t j) {
      const std::size_t k = count - 1 - j;
      if (auto failure = failure_of(item, machine_of, k)) record(k, std::move(*failure));
    });
  };
  if (threads > 0) {
    tbb::task_arena arena(threads);
    arena.execute(work);
  } else {
    work();
  }
  return first;
}

std::optional<Failure> run_shared_items(std::size_t count, int threads, const distributed::Communicator& ranks,
                                        const std::function<std::optional<Failure>(std::size_t)>& item,
                                        const std::function<std::size_t(std::size_t)>& machine_of,
                                        const std::function<std::string(std::size_t)>& pack,
                                        const std::function<void(std::size_t, std::string_view)>& unpack) {
  if (ranks.alone()) return run_items(count, threads, item, machine_of);
  std::mutex lock;
  std::vector<std::size_t> ran;
  std::size_t lowest_failure = count;
  {
    const std::unique_ptr<distributed::WorkQueue> queue = ranks.share(count);
    // One loop per worker, each taking items until none is left.
    const auto work = [&] {
      const int workers = tbb::this_task_arena::max_concurrency();
      tbb::parallel_for(
          0, workers,
          [&](int) {
            while (const std::optional<std::size_t> next = queue->next()) {
              const std::size_t k = count - 1 - *next;
              {
                std::lock_guard<std::mutex> guard(lock);
                if (k > lowest_failure) continue;
              }
              const std::optional<Failure> failure = failure_of(item, machine_of, k);
              std::lock_guard<std::mutex> guard(lock);
              if (failure)
                lowest_failure = std::min(lowest_failure, k);
              else
                ran.push_back(k);
            }
          },
          tbb::static_partitioner());
    };
    if (threads > 0) {
      tbb::task_arena arena(threads);
      arena.execute(work);
    } else {
      work();
    }
  }
  const auto failed = static_cast<std::size_t>(-ranks.largest(-static_cast<std::int64_t>(lowest_failure)));
  if (failed < count) return failure_of(item, machine_of, failed);
  distributed::Writer out;
  for (std::size_t k : ran) {
    out.put<std::uint64_t>(k);
    out.put_text(pack(k));
  }
  const std::vector<std::string> all = ranks.all_gather(out.bytes());
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (static_cast<int>(r) == ranks.rank()) continue;
    distributed::Reader in(all[r]);
    while (!in.done()) {
      const auto k = static_cast<std::size_t>(in.get<std::uint64_t>());
      const std::string bytes = in.get_text();
      unpack(k, bytes);
    }
  }
  return std::nullopt;
}

}  // namespace analysis
