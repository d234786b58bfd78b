#include "solvers/monte_carlo_kernels.hpp"

#include <algorithm>
#include <functional>

namespace solvers::monte_carlo_detail {

namespace {

// Makespan of greedy list scheduling: each task goes to the processor that is free first.
double simulate_pool(const Pool& pool, const distributions::Sampler& task, LaneUrbg urbg, std::vector<double>& heap) {
  if (pool.tasks <= pool.processors) {
    double longest = 0.0;
    for (std::int64_t t = 0; t < pool.tasks; ++t) longest = std::max(longest, task(urbg));
    return longest;
  }
  heap.assign(static_cast<std::size_t>(pool.processors), 0.0);  // a min-heap of free times
  for (std::int64_t t = 0; t < pool.tasks; ++t) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    heap.back() += task(urbg);
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  }
  return *std::max_element(heap.begin(), heap.end());
}

// A farm (graph::PoolMaster): the master serves the earliest request first, one at a time; the
// task starts dispatch_seconds after its service, and its result, the worker's next request,
// arrives result_seconds after the task. The makespan is the last result's arrival. `heap`
// holds the workers' request times (a min-heap); ties go in any order: the workers are alike.
double simulate_farm(const Pool& pool, const distributions::Sampler& task, const distributions::Sampler& service,
                     LaneUrbg urbg, std::vector<double>& heap) {
  heap.assign(static_cast<std::size_t>(pool.processors), 0.0);
  double master_free = 0.0, last = 0.0;
  for (std::int64_t t = 0; t < pool.tasks; ++t) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    master_free = std::max(master_free, heap.back()) + service(urbg);
    heap.back() = master_free + pool.dispatch_seconds + task(urbg) + pool.result_seconds;
    last = std::max(last, heap.back());
    std::push_heap(heap.begin(), heap.end(), std::greater<>());
  }
  return last;
}

// One pass over the graph for the 8 lanes, on native vectors of W doubles. Every operation is
// lane-wise and exactly rounded (no FMA: the file is compiled with -ffp-contract=off) and
// every lane consumes its own stream in the same order, so all widths give the same bits.
template <int W>
struct Kernel {
  using V = LaneVectors<W>;
  static constexpr int N = V::N;
  using D = typename V::D;

  // finish[lane] += draw(lane) for every lane, lane by lane in order.
  template <class Draw>
  static void add_per_lane(D* finish, Draw draw) {
    alignas(64) double lanes[kLanes];
    for (int j = 0; j < N; ++j) V::store(lanes + j * W, finish[j]);
    for (int l = 0; l < kLanes; ++l) lanes[l] += draw(l);
    for (int j = 0; j < N; ++j) finish[j] = V::load(lanes + j * W);
  }

  // finish = the latest finish of a node's predecessors predecessor[begin..end) (0 for none).
  [[gnu::always_inline]] static void latest_predecessor(const double* slots, const std::uint32_t* predecessor,
                                                        std::uint32_t begin, std::uint32_t end, D* finish) {
    for (int j = 0; j < N; ++j) finish[j] = V::splat(0.0);
    for (std::uint32_t k = begin; k < end; ++k) {
      const double* from = slots + static_cast<std::size_t>(predecessor[k]) * kLanes;
      for (int j = 0; j < N; ++j) {
        const D other = V::load(from + j * W);
        finish[j] = finish[j] > other ? finish[j] : other;
      }
    }
  }

  // finish += a draw of the task's runtime for every lane.
  [[gnu::always_inline]] static void add_runtime(const LaneSampler& s,
                                                 const std::vector<distributions::Sampler>& generals,
                                                 typename V::Rng& rng, LaneState& state, D* finish) {
    switch (s.kind) {
      case LaneSampler::Kind::Constant:
        for (int j = 0; j < N; ++j) finish[j] += s.a;
        break;
      case LaneSampler::Kind::Exponential:
        for (int j = 0; j < N; ++j) finish[j] += -V::log(rng.uniform(j)) * s.a;
        break;
      case LaneSampler::Kind::ErlangProduct:
        for (int j = 0; j < N; ++j) {
          D product = rng.uniform(j);
          for (int phase = 1; phase < s.phases; ++phase) product *= rng.uniform(j);
          finish[j] += -V::log(product) * s.a;
        }
        break;
      case LaneSampler::Kind::Uniform:
        for (int j = 0; j < N; ++j) finish[j] += s.a + s.b * (1.0 - rng.uniform(j));
        break;
      case LaneSampler::Kind::General: {
        rng.save(state);
        const distributions::Sampler& sampler = generals[static_cast<std::size_t>(s.general)];
        add_per_lane(finish, [&](int l) {
          LaneUrbg urbg{&state, l};
          return sampler(urbg);
        });
        rng.load(state);
        break;
      }
    }
  }

  [[gnu::always_inline]] static void run(const FlatGraph& flat, LaneState& state, Scratch& scratch,
                                         double* makespan_out) {
    if (scratch.slots.size() < static_cast<std::size_t>(flat.slots) * kLanes) {
      scratch.slots.resize(static_cast<std::size_t>(flat.slots) * kLanes);
    }
    double* slots = scratch.slots.data();
    const LaneSampler* samplers = flat.samplers.samplers().data();
    const auto& generals = flat.samplers.generals();
    const std::uint32_t* first = flat.first_predecessor.data();
    const std::uint32_t* predecessor = flat.predecessor_slot.data();
    const std::uint32_t* output = flat.output_slot.data();
    const std::int32_t* operation = flat.operation.data();
    const std::size_t n = flat.output_slot.size();
    typename V::Rng rng;
    rng.load(state);
    D makespan[N];
    for (int j = 0; j < N; ++j) makespan[j] = V::splat(0.0);
    for (std::size_t i = 0; i < n; ++i) {
      D finish[N];
      latest_predecessor(slots, predecessor, first[i], first[i + 1], finish);
      if (operation[i] >= 0) {
        add_runtime(samplers[operation[i]], generals, rng, state, finish);
      } else {
        rng.save(state);
        const Pool& pool = flat.pools[static_cast<std::size_t>(-operation[i] - 1)];
        const distributions::Sampler& task = generals[static_cast<std::size_t>(pool.sampler)];
        if (pool.master >= 0) {
          const distributions::Sampler& service = generals[static_cast<std::size_t>(pool.master)];
          add_per_lane(finish, [&](int l) {
            return simulate_farm(pool, task, service, LaneUrbg{&state, l}, scratch.heap);
          });
        } else {
          add_per_lane(finish, [&](int l) { return simulate_pool(pool, task, LaneUrbg{&state, l}, scratch.heap); });
        }
        rng.load(state);
      }
      if (output[i] == kNoSlot) {
        for (int j = 0; j < N; ++j) makespan[j] = makespan[j] > finish[j] ? makespan[j] : finish[j];
      } else {
        double* to = slots + static_cast<std::size_t>(output[i]) * kLanes;
        for (int j = 0; j < N; ++j) V::store(to + j * W, finish[j]);
      }
    }
    rng.save(state);
    for (int j = 0; j < N; ++j) V::store(makespan_out + j * W, makespan[j]);
  }
};

// The kernel for each instruction set.
__attribute__((target("avx512f"))) void pass_avx512(const FlatGraph& flat, LaneState& state, Scratch& scratch,
                                                    double* makespan) {
  Kernel<8>::run(flat, state, scratch, makespan);
}
__attribute__((target("avx2"))) void pass_avx2(const FlatGraph& flat, LaneState& state, Scratch& scratch,
                                               double* makespan) {
  Kernel<4>::run(flat, state, scratch, makespan);
}
void pass_sse2(const FlatGraph& flat, LaneState& state, Scratch& scratch, double* makespan) {
  Kernel<2>::run(flat, state, scratch, makespan);
}

}  // namespace

bool cpu_supports(MonteCarloIsa isa) {
  __builtin_cpu_init();
  switch (isa) {
    case MonteCarloIsa::Auto:
    case MonteCarloIsa::Sse2: return true;
    case MonteCarloIsa::Avx2: return __builtin_cpu_supports("avx2") != 0;
    case MonteCarloIsa::Avx512: return __builtin_cpu_supports("avx512f") != 0;
  }
  return false;
}

Pass choose_pass(MonteCarloIsa isa) {
  switch (isa) {
    case MonteCarloIsa::Sse2: return pass_sse2;
    case MonteCarloIsa::Avx2: return pass_avx2;
    case MonteCarloIsa::Avx512: return pass_avx512;
    case MonteCarloIsa::Auto: break;
  }
  if (cpu_supports(MonteCarloIsa::Avx512)) return pass_avx512;
  if (cpu_supports(MonteCarloIsa::Avx2)) return pass_avx2;
  return pass_sse2;
}

}  // namespace solvers::monte_carlo_detail
