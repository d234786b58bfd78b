#include "analysis/parallel.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <mutex>

#include "scaling/approximate_model.hpp"  // ScalingError

namespace analysis {

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
      try {
        if (auto failure = item(k)) record(k, std::move(*failure));
      } catch (const scaling::ScalingError& error) {
        Failure failure;
        failure.kind = Failure::Kind::InvalidValue;
        failure.machine = machine_of(k);
        failure.message = error.what();
        failure.location = error.location();
        record(k, std::move(failure));
      }
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

}  // namespace analysis
