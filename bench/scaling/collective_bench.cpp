// The cost of a collective in the approximate model (scaling::collective_makespan: the time of
// its rounds from a common start, docs/semantics.md Q4) as p grows, for a tree (P - 1 messages
// simulated one by one) and a permutation algorithm (P - 1 rounds of one closed-form step each).
// docs/performance.md, "Collectives".
#include <benchmark/benchmark.h>

#include "scaling/bandwidth_sharing.hpp"
#include "scaling/collective_schedule.hpp"

namespace {

using models::CollectiveAlgorithm;
using models::CollectiveOperation;

// Arguments: operation, algorithm, p.
void BM_CollectiveMakespan(benchmark::State& state) {
  const scaling::CollectiveSchedule schedule{static_cast<CollectiveOperation>(state.range(0)),
                                             static_cast<CollectiveAlgorithm>(state.range(1)), state.range(2), 8.0};
  // Foster's SP2 message, half of t_s + t_w L on each end.
  const scaling::RoundCost cost = [](std::int64_t, double bytes) {
    return scaling::CollectiveCost{(40 + 0.0275 * bytes) / 2, 0.0};
  };
  for (auto _ : state) benchmark::DoNotOptimize(scaling::collective_makespan(schedule, cost));
  state.counters["messages"] = scaling::message_count(schedule);
}

constexpr auto kGather = static_cast<int>(CollectiveOperation::Gather);
constexpr auto kAllreduce = static_cast<int>(CollectiveOperation::Allreduce);
constexpr auto kAlltoall = static_cast<int>(CollectiveOperation::Alltoall);
constexpr auto kBinomial = static_cast<int>(CollectiveAlgorithm::Binomial);
constexpr auto kDoubling = static_cast<int>(CollectiveAlgorithm::RecursiveDoubling);
constexpr auto kPairwise = static_cast<int>(CollectiveAlgorithm::Pairwise);

BENCHMARK(BM_CollectiveMakespan)
    ->ArgNames({"operation", "algorithm", "p"})
    ->Args({kGather, kBinomial, 1024})
    ->Args({kGather, kBinomial, 1 << 20})
    ->Args({kAllreduce, kDoubling, 1000})
    ->Args({kAllreduce, kDoubling, 1000000})
    ->Args({kAlltoall, kPairwise, 1 << 20})
    ->Unit(benchmark::kMillisecond);

// The bandwidth-sharing factor of one round on a routed network (scaling::sharing_factor): the
// last round of recursive doubling, every processor exchanging with the one p/2 ranks away, the
// longest routes. Arguments: topology, p.
void BM_RoundSharing(benchmark::State& state) {
  const auto topology = static_cast<models::Topology>(state.range(0));
  const std::int64_t p = state.range(1);
  std::vector<scaling::Transfer> round;
  for (std::int64_t r = 0; r < p; ++r) round.push_back({r, r ^ (p / 2)});
  for (auto _ : state) benchmark::DoNotOptimize(scaling::sharing_factor(topology, p, round));
  state.counters["messages_per_second"] =
      benchmark::Counter(static_cast<double>(p), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_RoundSharing)
    ->ArgNames({"topology", "p"})
    ->Args({static_cast<int>(models::Topology::Bus), 1 << 20})
    ->Args({static_cast<int>(models::Topology::Ring), 1024})
    ->Args({static_cast<int>(models::Topology::Mesh2D), 1024})
    ->Args({static_cast<int>(models::Topology::Mesh2D), 1 << 16})
    ->Args({static_cast<int>(models::Topology::Torus3D), 1 << 16})
    ->Args({static_cast<int>(models::Topology::Hypercube), 1 << 16})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
