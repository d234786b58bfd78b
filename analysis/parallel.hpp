// The one parallel driver of the analysis: sweeps, loss analysis and isoefficiency all run their
// independent items through it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/failure.hpp"
#include "distributed/communicator.hpp"

namespace analysis {

// The items of two indices laid out in one, as run_items takes them: k = outer × inner + inner
// index, so that the items of the last outer index (a study's largest p) are started first. The
// one place an item's indices are worked out (a study's plan, an isoefficiency search and the
// estimate of its solves).
struct ItemGrid {
  std::size_t outer = 0;
  std::size_t inner = 0;

  std::size_t size() const { return outer * inner; }
  std::size_t item(std::size_t outer_index, std::size_t inner_index) const { return outer_index * inner + inner_index; }
  std::size_t outer_of(std::size_t k) const { return k / inner; }
  std::size_t inner_of(std::size_t k) const { return k % inner; }
};

// Runs item(k) for every k in [0, count) on TBB, with `threads` workers (0: every core). An
// item returns the failure that stops the study, or nothing; a scaling::ScalingError it throws
// is such a failure (with the machine `machine_of(k)`). The result is the failure of the lowest
// failing k, so it does not depend on the thread count. Items are started from the highest k:
// callers put the costly items (large p) there.
std::optional<Failure> run_items(std::size_t count, int threads,
                                 const std::function<std::optional<Failure>(std::size_t)>& item,
                                 const std::function<std::size_t(std::size_t)>& machine_of);

// run_items over the ranks of a job (docs/scale-out.md): the items are handed out one at a time
// to whichever thread of whichever rank is free (costly items, the highest k, first), and
// afterwards every rank has every item's output: `pack(k)` gives the bytes of an item this rank
// ran, `unpack(k, bytes)` takes in one another rank ran. The failure is the same as run_items
// gives (that of the lowest failing k, on every rank): items above a failure a rank has seen
// are skipped, every item below it still runs, and every rank then runs the lowest failing item
// once more to have its Failure. Collective; one rank alone is run_items.
std::optional<Failure> run_shared_items(std::size_t count, int threads, const distributed::Communicator& ranks,
                                        const std::function<std::optional<Failure>(std::size_t)>& item,
                                        const std::function<std::size_t(std::size_t)>& machine_of,
                                        const std::function<std::string(std::size_t)>& pack,
                                        const std::function<void(std::size_t, std::string_view)>& unpack);

}  // namespace analysis
