// PAIRED: n loop iterations, each an independent part and a dependent part; dependent(i)
// waits for dependent(i - d) for every DEPENDENCY distance d.
// Exact: iteration i on its processor, each processor its independent parts then its
// dependent parts in order; no barrier between the two. Approximate: the independent parts
// spread over the processors, a barrier, then the dependent parts level by level (level k:
// the iterations whose longest chain of dependences has k links), each level spread afresh;
// so the approximate mean is not guaranteed to bound the exact one (docs/methods.md).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "scaling/scheme_builders.hpp"

namespace scaling::detail {
namespace {

// The DEPENDENCY distances, each >= 1; Builder is either model's builder.
template <class Builder>
std::vector<std::int64_t> dependency_distances(const Builder& builder, const models::WorkPhase& phase) {
  std::vector<std::int64_t> distances;
  for (const auto& d : phase.dependencies) {
    const std::int64_t distance = builder.count(d, phase.location, "dependency distance");
    if (distance < 1) throw ScalingError(phase.location, "dependency distance must be >= 1");
    distances.push_back(distance);
  }
  return distances;
}

}  // namespace

// Iteration i on its processor (BLOCK or CYCLIC; the checker refuses DYNAMIC); each processor
// runs the independent parts of its iterations, then their dependent parts in order;
// dependent(i) waits for independent(i) and dependent(i - d) for every distance d.
void exact_paired(ExactBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t n = builder.count(*phase.units, phase.location, "number of iterations");
  const distributions::Distribution independent_time = builder.runtime(phase.independent->runtime);
  const distributions::Distribution dependent_time = builder.runtime(phase.dependent->runtime);
  const double dependent_bytes = builder.value(phase.dependent->volume, phase.location, "communication volume");
  const std::vector<std::int64_t> distances = dependency_distances(builder, phase);
  builder.enter(phase, false);
  builder.forget_units();
  if (n == 0) return;
  const models::Scheduling scheduling =
      phase.scheduling == models::Scheduling::Cyclic ? models::Scheduling::Cyclic : models::Scheduling::Block;
  const std::int64_t step = builder.take_steps(2);
  for (std::int64_t i = 0; i < n; ++i) {
    const int k = builder.processor_of(i, n, scheduling);
    builder.run_on(static_cast<std::size_t>(k), builder.add(phase.name + " independent " + std::to_string(i),
                                                            NodeKind::Task, independent_time, k, step));
  }
  std::vector<NodeId> dependent(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const int k = builder.processor_of(i, n, scheduling);
    const NodeId v =
        builder.add(phase.name + " dependent " + std::to_string(i), NodeKind::Task, dependent_time, k, step + 1);
    for (std::int64_t d : distances) {
      if (i - d >= 0) builder.link(dependent[static_cast<std::size_t>(i - d)], v, dependent_bytes, phase.location);
    }
    builder.run_on(static_cast<std::size_t>(k), v);
    dependent[static_cast<std::size_t>(i)] = v;
  }
  const double work =
      static_cast<double>(n) * (distributions::mean(independent_time) + distributions::mean(dependent_time));
  builder.leave_closed(phase, builder.contention_seconds(work, phase.location));
}

// The independent parts of all iterations run first, spread over the processors; a barrier;
// then the dependent parts level by level, where level k holds the iterations whose longest
// chain of dependences has k links.
Piece approximate_paired(ApproximateBuilder& builder, const models::WorkPhase& phase) {
  const std::int64_t n = builder.count(*phase.units, phase.location, "number of iterations");
  const distributions::Distribution independent_time = builder.runtime(phase.independent->runtime);
  const distributions::Distribution dependent_time = builder.runtime(phase.dependent->runtime);
  const std::size_t independent = builder.task_leaf(phase.name + " independent", independent_time);
  const std::size_t dependent = builder.task_leaf(phase.name + " dependent", dependent_time);
  builder.value(phase.independent->volume, phase.location, "communication volume");  // checked, never sent
  const double dependent_bytes = builder.value(phase.dependent->volume, phase.location, "communication volume");
  builder.priced_as_eager(builder.message_cost(dependent_bytes, phase.location), phase, "PAIRED");
  const std::vector<std::int64_t> distances = dependency_distances(builder, phase);
  // Level sizes, run-length encoded: the tree grows with the number of distinct runs.
  constexpr std::int64_t kMaxIterations = 100'000'000;
  if (n > kMaxIterations) {
    throw ScalingError(phase.location, "PAIRED phase with more than 100000000 iterations");
  }
  std::vector<std::int32_t> depth(static_cast<std::size_t>(n), 1);
  std::int32_t deepest = n > 0 ? 1 : 0;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t d : distances) {
      if (i - d >= 0) depth[i] = std::max(depth[i], depth[i - d] + 1);
    }
    deepest = std::max(deepest, depth[i]);
  }
  std::vector<std::int64_t> level_size(static_cast<std::size_t>(deepest) + 1, 0);
  for (std::int32_t k : depth) ++level_size[k];

  // No iterations: the phase's concatenations apply, nothing else (as in the exact model).
  if (n == 0) return builder.open_phase(phase, builder.uniform(kZero));
  std::size_t middle = builder.barrier(phase.location);
  for (std::int32_t k = 1; k <= deepest;) {
    std::int32_t run = 1;
    while (k + run <= deepest && level_size[k + run] == level_size[k]) ++run;
    middle = builder.series(
        {middle, builder.power(builder.level(dependent, level_size[k], dependent_bytes, phase.location), run)});
    k += run;
  }
  const double work =
      static_cast<double>(n) * (distributions::mean(independent_time) + distributions::mean(dependent_time));
  Piece piece = builder.synchronised(builder.series({middle, builder.contention(work, phase.location)}));
  piece.first_phase = piece.last_phase = phase.name;
  piece.head = builder.spread(n, [&](std::int64_t c) {
    // The independent part's result goes to the dependent part of its own iteration, on the
    // same processor: no message (as in the exact model).
    return c == 0 ? kZero : builder.power(independent, c);
  });
  return piece;
}

}  // namespace scaling::detail
