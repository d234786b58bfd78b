#include "solvers/monte_carlo.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/representation.hpp"
#include "distributions/sampler.hpp"

namespace solvers {

bool MonteCarloOptions::IsValid(std::string* why) const {
  auto fail = [&](const std::string& message) {
    if (why != nullptr) *why = message;
    return false;
  };
  if (!(relative_precision >= 0.0) || !std::isfinite(relative_precision)) {
    return fail("relative_precision must be finite and >= 0, got " + std::to_string(relative_precision));
  }
  if (relative_precision == 0.0 && samples < 2) return fail("samples must be >= 2, got " + std::to_string(samples));
  if (relative_precision > 0.0) {
    if (min_samples < 2) return fail("min_samples must be >= 2, got " + std::to_string(min_samples));
    if (max_samples < min_samples) {
      return fail("max_samples (" + std::to_string(max_samples) + ") must be >= min_samples (" +
                  std::to_string(min_samples) + ")");
    }
  }
  const std::int64_t most = relative_precision > 0.0 ? max_samples : samples;
  if (most > (std::int64_t{1} << 40)) return fail("at most 2^40 samples, got " + std::to_string(most));
  if (threads < 0) return fail("threads must be >= 0 (0: all cores), got " + std::to_string(threads));
  if (histogram_bins < 1 || histogram_bins > 1'000'000) {
    return fail("histogram_bins must be in [1, 1000000], got " + std::to_string(histogram_bins));
  }
  return true;
}

namespace {

constexpr int kLanes = 8;
constexpr std::int64_t kRounds = kMonteCarloBlock / kLanes;

// ---- random numbers: 8 xoshiro256++ streams side by side --------------------------------------
// The state of the 8 lanes, in memory. Kernels load it into vector registers for a pass over
// the graph; per-lane draws (general distributions, dynamic pools) use it lane by lane.
struct LaneState {
  alignas(64) std::uint64_t s[4][kLanes];

  // Lane l of block b is the stream Xoshiro256pp(seed, 8 b + l); its first four outputs seed
  // the lane's state (xoshiro's outputs are well mixed, and never all zero in practice).
  void seed(std::uint64_t seed, std::uint64_t block) {
    for (int l = 0; l < kLanes; ++l) {
      distributions::Xoshiro256pp stream(seed, block * kLanes + static_cast<std::uint64_t>(l));
      for (int w = 0; w < 4; ++w) s[w][l] = stream();
      if ((s[0][l] | s[1][l] | s[2][l] | s[3][l]) == 0) s[0][l] = 1;
    }
  }

  // The next output of lane l alone.
  std::uint64_t next(int l) {
    const auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    const std::uint64_t result = rotl(s[0][l] + s[3][l], 23) + s[0][l];
    const std::uint64_t t = s[1][l] << 17;
    s[2][l] ^= s[0][l];
    s[3][l] ^= s[1][l];
    s[1][l] ^= s[2][l];
    s[0][l] ^= s[3][l];
    s[2][l] ^= t;
    s[3][l] = rotl(s[3][l], 45);
    return result;
  }
};

// One lane as a 64-bit URBG, for distributions::Sampler.
struct LaneUrbg {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  LaneState* state;
  int lane;
  result_type operator()() { return state->next(lane); }
};

// ---- compiled distributions -------------------------------------------------------------------
// The common task distributions are drawn for all lanes at once (vector uniforms, a vector
// log); everything else goes through distributions::Sampler lane by lane.
struct LaneSampler {
  enum class Kind : std::uint8_t { Constant, Exponential, ErlangProduct, Uniform, General };
  Kind kind = Kind::Constant;
  int phases = 0;
  double a = 0.0;  // constant value, scale (1/rate) or low end
  double b = 0.0;  // width of a uniform
  int general = -1;  // index into the general samplers

};

class SamplerTable {
 public:
  // Index of the lane sampler of d; one per distinct representation.
  std::uint32_t index(const distributions::Distribution& d) {
    const auto key = &d.node();
    const auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    LaneSampler s;
    const auto& value = d.node().value;
    if (const auto* c = std::get_if<distributions::detail::Deterministic>(&value)) {
      s.kind = LaneSampler::Kind::Constant;
      s.a = c->value;
    } else if (const auto* e = std::get_if<distributions::detail::Exponential>(&value)) {
      s.kind = LaneSampler::Kind::Exponential;
      s.a = 1.0 / e->rate;
    } else if (const auto* g = std::get_if<distributions::detail::Erlang>(&value); g != nullptr && g->phases <= 16) {
      s.kind = g->phases == 1 ? LaneSampler::Kind::Exponential : LaneSampler::Kind::ErlangProduct;
      s.phases = static_cast<int>(g->phases);
      s.a = 1.0 / g->rate;
    } else if (const auto* u = std::get_if<distributions::detail::Uniform>(&value)) {
      s.kind = LaneSampler::Kind::Uniform;
      s.a = u->low;
      s.b = u->high - u->low;
    } else {
      s.kind = LaneSampler::Kind::General;
      s.general = static_cast<int>(generals_.size());
      generals_.emplace_back(d);
    }
    samplers_.push_back(s);
    const auto i = static_cast<std::uint32_t>(samplers_.size() - 1);
    index_.emplace(key, i);
    return i;
  }
  const std::vector<LaneSampler>& samplers() const { return samplers_; }
  const std::vector<distributions::Sampler>& generals() const { return generals_; }
  // A general sampler for scalar draws (dynamic pools).
  int general_index(const distributions::Distribution& d) {
    const auto key = &d.node();
    const auto found = general_index_.find(key);
    if (found != general_index_.end()) return found->second;
    generals_.emplace_back(d);
    const int i = static_cast<int>(generals_.size() - 1);
    general_index_.emplace(key, i);
    return i;
  }

 private:
  std::map<const distributions::detail::Node*, std::uint32_t> index_;
  std::map<const distributions::detail::Node*, int> general_index_;
  std::vector<LaneSampler> samplers_;
  std::vector<distributions::Sampler> generals_;
};

// ---- the compiled graph -----------------------------------------------------------------------
constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();

struct Pool {
  int sampler = 0;  // general sampler of one task
  std::int64_t tasks = 0;
  int processors = 1;
};

// The graph in topological order: predecessors as slots (CSR), the slot each node's finish
// time goes to (kNoSlot: a sink, folded into the makespan at once), its sampler or pool.
// Slots are recycled after a node's last successor, so the working set is the graph's widest
// cut, not its size.
struct FlatGraph {
  std::vector<std::uint32_t> first_predecessor;  // size nodes + 1
  std::vector<std::uint32_t> predecessor_slot;
  std::vector<std::uint32_t> output_slot;
  std::vector<std::int32_t> operation;  // >= 0: lane sampler; < 0: pool -(i + 1)
  std::vector<Pool> pools;
  SamplerTable samplers;
  std::uint32_t slots = 0;
  std::int64_t task_samples_per_sample = 0;
};

FlatGraph compile(const graph::TaskGraph& g) {
  const std::vector<graph::NodeId> order = graph::topological_order(g);  // throws on a cycle
  const std::size_t n = order.size();
  std::vector<std::uint32_t> position(n);
  for (std::size_t i = 0; i < n; ++i) position[order[i]] = static_cast<std::uint32_t>(i);
  const auto& bg = g.boost_graph();
  // The position of each node's last successor.
  std::vector<std::uint32_t> last_use(n, 0);
  std::vector<char> has_successor(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto [it, end] = boost::adjacent_vertices(order[i], bg); it != end; ++it) {
      has_successor[i] = 1;
      last_use[i] = std::max(last_use[i], position[*it]);
    }
  }
  FlatGraph flat;
  flat.first_predecessor.reserve(n + 1);
  flat.output_slot.resize(n);
  flat.operation.resize(n);
  flat.first_predecessor.push_back(0);
  std::vector<std::uint32_t> free_slots;
  std::vector<std::vector<std::uint32_t>> release_at(n);  // slots freed after position i
  for (std::size_t i = 0; i < n; ++i) {
    const graph::TaskNode& node = g.node(order[i]);
    for (auto [it, end] = boost::in_edges(order[i], bg); it != end; ++it) {
      flat.predecessor_slot.push_back(flat.output_slot[position[boost::source(*it, bg)]]);
    }
    flat.first_predecessor.push_back(static_cast<std::uint32_t>(flat.predecessor_slot.size()));
    // Slots whose last reader is this node are free again (the node reads them before it
    // writes its own).
    for (std::uint32_t s : release_at[i]) free_slots.push_back(s);
    if (has_successor[i]) {
      std::uint32_t slot;
      if (free_slots.empty()) {
        slot = flat.slots++;
      } else {
        slot = free_slots.back();
        free_slots.pop_back();
      }
      flat.output_slot[i] = slot;
      release_at[last_use[i]].push_back(slot);
    } else {
      flat.output_slot[i] = kNoSlot;
    }
    if (node.kind == graph::NodeKind::DynamicPool) {
      Pool pool;
      pool.sampler = flat.samplers.general_index(node.runtime);
      pool.tasks = node.pool_tasks;
      pool.processors = std::max(1, node.pool_processors);
      flat.pools.push_back(pool);
      flat.operation[i] = -static_cast<std::int32_t>(flat.pools.size());
      flat.task_samples_per_sample += pool.tasks;
    } else {
      flat.operation[i] = static_cast<std::int32_t>(flat.samplers.index(node.runtime));
      ++flat.task_samples_per_sample;
    }
  }
  return flat;
}

// Scratch memory of one worker: the slots of 8 lanes and a heap for pools.
struct Scratch {
  std::vector<double> slots;
  std::vector<double> heap;
};

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

// The 8-lane vectors never cross a call boundary to another translation unit (everything
// here is internal and inlined), so GCC's ABI note about vector arguments does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

// One pass over the graph for the 8 lanes, written for native vectors of W doubles (8: AVX-512,
// 4: AVX2, 2: SSE2), 8/W of them side by side. Every operation is lane-wise and exactly
// rounded (no FMA: the file is compiled with -ffp-contract=off) and every lane consumes its
// own stream in the same order, so all widths give the same bits.
// (GCC ignores vector_size on types that depend on a template parameter, hence the
// specialisations.)
template <int W>
struct Vectors;
template <>
struct Vectors<2> {
  using D = double __attribute__((vector_size(16)));
  using U = std::uint64_t __attribute__((vector_size(16)));
  using I = std::int64_t __attribute__((vector_size(16)));
};
template <>
struct Vectors<4> {
  using D = double __attribute__((vector_size(32)));
  using U = std::uint64_t __attribute__((vector_size(32)));
  using I = std::int64_t __attribute__((vector_size(32)));
};
template <>
struct Vectors<8> {
  using D = double __attribute__((vector_size(64)));
  using U = std::uint64_t __attribute__((vector_size(64)));
  using I = std::int64_t __attribute__((vector_size(64)));
};

template <int W>
struct Kernel {
  static constexpr int N = kLanes / W;
  using D = typename Vectors<W>::D;
  using U = typename Vectors<W>::U;
  using I = typename Vectors<W>::I;
  static_assert(sizeof(D) == 8 * W && sizeof(U) == 8 * W, "vector types");

  // memcpy rather than std::bit_cast: UBSan (GCC 12) reports a null load inside bit_cast of
  // vector types at -O0; both compile to the same register move.
  [[gnu::always_inline]] static D as_double(U x) {
    D d;
    std::memcpy(&d, &x, sizeof d);
    return d;
  }
  [[gnu::always_inline]] static U as_bits(D x) {
    U u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  }
  [[gnu::always_inline]] static D splat(double x) { return D{} + x; }
  [[gnu::always_inline]] static D load(const double* p) {
    D v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  [[gnu::always_inline]] static void store(double* p, D v) { std::memcpy(p, &v, sizeof v); }

  struct Rng {
    U s0[N], s1[N], s2[N], s3[N];
    [[gnu::always_inline]] void load(const LaneState& state) {
      std::memcpy(s0, state.s[0], sizeof s0);
      std::memcpy(s1, state.s[1], sizeof s1);
      std::memcpy(s2, state.s[2], sizeof s2);
      std::memcpy(s3, state.s[3], sizeof s3);
    }
    [[gnu::always_inline]] void save(LaneState& state) const {
      std::memcpy(state.s[0], s0, sizeof s0);
      std::memcpy(state.s[1], s1, sizeof s1);
      std::memcpy(state.s[2], s2, sizeof s2);
      std::memcpy(state.s[3], s3, sizeof s3);
    }
    // The next output of the lanes of part j.
    [[gnu::always_inline]] U next(int j) {
      const U sum = s0[j] + s3[j];
      const U result = ((sum << 23) | (sum >> 41)) + s0[j];
      const U t = s1[j] << 17;
      s2[j] ^= s0[j];
      s3[j] ^= s1[j];
      s1[j] ^= s2[j];
      s0[j] ^= s3[j];
      s2[j] ^= t;
      s3[j] = (s3[j] << 45) | (s3[j] >> 19);
      return result;
    }
    // Uniforms in (0, 1] from 52 random bits: 2 - [1, 2).
    [[gnu::always_inline]] D uniform(int j) { return 2.0 - as_double((next(j) >> 12) | 0x3FF0000000000000ULL); }
  };

  // Natural logarithm of x in (0, 1] (normal numbers), without branches: x = m 2^e with m in
  // [sqrt(1/2), sqrt(2)), log m = 2 atanh(z), z = (m-1)/(m+1), |z| <= 0.1716, by its odd
  // series to z^23 (truncation below 1e-19 relative).
  [[gnu::always_inline]] static D log(D x) {
    const U bits = as_bits(x);
    D m = as_double((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);
    D e = as_double((bits >> 52) | 0x4330000000000000ULL) - (4503599627370496.0 + 1023.0);
    const I big = m > 1.4142135623730951;
    m = big ? 0.5 * m : m;
    e = big ? e + 1.0 : e;
    const D z = (m - 1.0) / (m + 1.0);
    const D z2 = z * z;
    D s = splat(2.0 / 23.0);
    s = s * z2 + 2.0 / 21.0;
    s = s * z2 + 2.0 / 19.0;
    s = s * z2 + 2.0 / 17.0;
    s = s * z2 + 2.0 / 15.0;
    s = s * z2 + 2.0 / 13.0;
    s = s * z2 + 2.0 / 11.0;
    s = s * z2 + 2.0 / 9.0;
    s = s * z2 + 2.0 / 7.0;
    s = s * z2 + 2.0 / 5.0;
    s = s * z2 + 2.0 / 3.0;
    s = s * z2 + 2.0;
    constexpr double kLn2High = 0x1.62e42fefa3800p-1;  // ln 2 with a short mantissa: e * it is exact
    constexpr double kLn2Low = 0x1.ef35793c76730p-45;
    return e * kLn2High + (e * kLn2Low + z * s);
  }

  // finish[lane] += draw(lane) for every lane, lane by lane in order.
  template <class Draw>
  static void add_per_lane(D* finish, Draw draw) {
    alignas(64) double lanes[kLanes];
    for (int j = 0; j < N; ++j) store(lanes + j * W, finish[j]);
    for (int l = 0; l < kLanes; ++l) lanes[l] += draw(l);
    for (int j = 0; j < N; ++j) finish[j] = load(lanes + j * W);
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
    Rng rng;
    rng.load(state);
    D makespan[N];
    for (int j = 0; j < N; ++j) makespan[j] = splat(0.0);
    for (std::size_t i = 0; i < n; ++i) {
      D finish[N];
      for (int j = 0; j < N; ++j) finish[j] = splat(0.0);
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
        const double* from = slots + static_cast<std::size_t>(predecessor[k]) * kLanes;
        for (int j = 0; j < N; ++j) {
          const D other = load(from + j * W);
          finish[j] = finish[j] > other ? finish[j] : other;
        }
      }
      if (operation[i] >= 0) {
        const LaneSampler& s = samplers[operation[i]];
        switch (s.kind) {
          case LaneSampler::Kind::Constant:
            for (int j = 0; j < N; ++j) finish[j] += s.a;
            break;
          case LaneSampler::Kind::Exponential:
            for (int j = 0; j < N; ++j) finish[j] += -log(rng.uniform(j)) * s.a;
            break;
          case LaneSampler::Kind::ErlangProduct:
            for (int j = 0; j < N; ++j) {
              D product = rng.uniform(j);
              for (int phase = 1; phase < s.phases; ++phase) product *= rng.uniform(j);
              finish[j] += -log(product) * s.a;
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
      } else {
        rng.save(state);
        const Pool& pool = flat.pools[static_cast<std::size_t>(-operation[i] - 1)];
        const distributions::Sampler& task = generals[static_cast<std::size_t>(pool.sampler)];
        add_per_lane(finish, [&](int l) { return simulate_pool(pool, task, LaneUrbg{&state, l}, scratch.heap); });
        rng.load(state);
      }
      if (output[i] == kNoSlot) {
        for (int j = 0; j < N; ++j) makespan[j] = makespan[j] > finish[j] ? makespan[j] : finish[j];
      } else {
        double* to = slots + static_cast<std::size_t>(output[i]) * kLanes;
        for (int j = 0; j < N; ++j) store(to + j * W, finish[j]);
      }
    }
    rng.save(state);
    for (int j = 0; j < N; ++j) store(makespan_out + j * W, makespan[j]);
  }
};

// The kernel for each instruction set; chosen once per solve from what the CPU supports.
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
using Pass = void (*)(const FlatGraph&, LaneState&, Scratch&, double*);

// The widest kernel the CPU runs; PDL_SCALE_MC_ISA=sse2|avx2|avx512 forces one (for tests
// that compare them).
Pass choose_pass() {
  __builtin_cpu_init();
  const char* forced = std::getenv("PDL_SCALE_MC_ISA");
  const std::string want = forced != nullptr ? forced : "";
  if (want == "sse2") return pass_sse2;
  if (want == "avx2" && __builtin_cpu_supports("avx2")) return pass_avx2;
  if (want.empty() && __builtin_cpu_supports("avx512f")) return pass_avx512;
  if ((want.empty() || want == "avx512") && __builtin_cpu_supports("avx2")) return pass_avx2;
  if (want == "avx512" && __builtin_cpu_supports("avx512f")) return pass_avx512;
  return pass_sse2;
}

// ---- the sampling driver, shared by every model ----------------------------------------------
// Fills samples [64 b, 64 b + 64) of block b.
using BlockSampler = std::function<void(std::uint64_t block, double* out, Scratch& scratch)>;

int thread_count(const MonteCarloOptions& options) {
  return options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
}

void run_blocks(const BlockSampler& sampler, std::int64_t first_block, std::int64_t blocks, double* out,
                tbb::task_arena& arena, std::int64_t grain) {
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(first_block, first_block + blocks, grain),
                      [&](const tbb::blocked_range<std::int64_t>& range) {
                        Scratch scratch;
                        for (std::int64_t b = range.begin(); b != range.end(); ++b) {
                          sampler(static_cast<std::uint64_t>(b), out + (b - first_block) * kMonteCarloBlock, scratch);
                        }
                      });
  });
}

struct Moments {
  double mean = 0.0;
  double variance = 0.0;
};
Moments moments(const std::vector<double>& x) {
  Moments m;
  double sum = 0.0;
  for (double v : x) sum += v;
  m.mean = sum / static_cast<double>(x.size());
  double squares = 0.0;
  for (double v : x) squares += (v - m.mean) * (v - m.mean);
  m.variance = x.size() > 1 ? squares / static_cast<double>(x.size() - 1) : 0.0;
  return m;
}

constexpr double kZ95 = 1.959963984540054;

Result run(const BlockSampler& sampler, std::int64_t cost_per_block, std::int64_t task_samples_per_sample,
           const MonteCarloOptions& options, std::string detail, MonteCarloSummary* summary) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  const auto start = std::chrono::steady_clock::now();
  const int threads = thread_count(options);
  tbb::task_arena arena(threads);
  // Chunks of about a million task-samples keep scheduling overhead low and load balanced.
  const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t{1} << 20) / std::max<std::int64_t>(1, cost_per_block));
  auto blocks_for = [](std::int64_t samples) { return (samples + kMonteCarloBlock - 1) / kMonteCarloBlock; };

  std::vector<double> samples;
  std::int64_t wanted = options.relative_precision > 0.0 ? options.min_samples : options.samples;
  std::int64_t blocks_done = 0;
  for (;;) {
    const std::int64_t blocks = blocks_for(wanted) - blocks_done;
    if (blocks > 0) {
      samples.resize(static_cast<std::size_t>((blocks_done + blocks) * kMonteCarloBlock));
      run_blocks(sampler, blocks_done, blocks, samples.data() + blocks_done * kMonteCarloBlock, arena, grain);
      blocks_done += blocks;
    }
    if (options.relative_precision == 0.0) break;
    const Moments m = moments(samples);
    const double half_width = kZ95 * std::sqrt(m.variance / static_cast<double>(samples.size()));
    const double target = options.relative_precision * std::abs(m.mean);
    const auto have = static_cast<std::int64_t>(samples.size());
    if (half_width <= target || have >= options.max_samples) break;
    // The count the observed variance asks for, 10% more, at least 1.5 times what we have.
    const double needed = target > 0.0 ? static_cast<double>(have) * (half_width / target) * (half_width / target) * 1.1
                                       : static_cast<double>(options.max_samples);
    wanted = std::min(options.max_samples,
                      std::max(have + have / 2, static_cast<std::int64_t>(std::min(needed, 9e15))));
    wanted = std::max(wanted, have + kMonteCarloBlock);
  }
  if (options.relative_precision == 0.0) samples.resize(static_cast<std::size_t>(options.samples));
  if (options.relative_precision > 0.0 && static_cast<std::int64_t>(samples.size()) > options.max_samples) {
    samples.resize(static_cast<std::size_t>(options.max_samples));
  }

  const Moments m = moments(samples);
  MonteCarloSummary s;
  s.samples = static_cast<std::int64_t>(samples.size());
  s.mean = m.mean;
  s.variance = m.variance;
  s.standard_error = std::sqrt(m.variance / static_cast<double>(s.samples));
  s.half_width = kZ95 * s.standard_error;
  s.threads = threads;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.minimum = sorted.front();
  s.maximum = sorted.back();
  for (std::size_t q = 0; q < s.quantiles.size(); ++q) {
    const double at = MonteCarloSummary::kQuantileLevels[q] * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    s.quantiles[q] = sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
  }
  const std::size_t bins = static_cast<std::size_t>(options.histogram_bins);
  s.histogram.assign(bins, 0);
  s.histogram_low = s.minimum;
  s.histogram_width = (s.maximum - s.minimum) / static_cast<double>(bins);
  for (double v : samples) {
    std::size_t bin = s.histogram_width > 0.0 ? static_cast<std::size_t>((v - s.minimum) / s.histogram_width) : 0;
    s.histogram[std::min(bin, bins - 1)] += 1;
  }
  s.task_samples = s.samples * task_samples_per_sample;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.task_samples_per_second = s.seconds > 0.0 ? static_cast<double>(blocks_done * kMonteCarloBlock * task_samples_per_sample) / s.seconds : 0.0;

  Result result;
  result.method = Method::MonteCarlo;
  result.mean = s.mean;
  result.lower = s.mean - s.half_width;
  result.upper = s.mean + s.half_width;
  result.detail = std::move(detail) + ", " + std::to_string(s.samples) + " samples, 95% confidence interval";
  result.statistics.samples = s.samples;
  result.statistics.seconds = s.seconds;
  if (summary != nullptr) *summary = std::move(s);
  return result;
}

std::int64_t block_cost(std::int64_t task_samples_per_sample) {
  return std::max<std::int64_t>(1, task_samples_per_sample) * kMonteCarloBlock;
}

// ---- series-parallel trees ----------------------------------------------------------------------
constexpr std::int64_t kMaxCopies = 4096;

distributions::Distribution reduce_subtree(const graph::SpTree& tree, std::size_t root,
                                           std::map<std::size_t, distributions::Distribution>& memo) {
  namespace d = distributions;
  const auto found = memo.find(root);
  if (found != memo.end()) return found->second;
  const graph::SpNode& node = tree.node(root);
  d::Distribution value;
  switch (node.kind) {
    case graph::SpKind::Leaf: value = node.task.runtime; break;
    case graph::SpKind::Series:
      value = reduce_subtree(tree, node.children.front(), memo);
      for (std::size_t k = 1; k < node.children.size(); ++k) value = d::series(value, reduce_subtree(tree, node.children[k], memo));
      break;
    case graph::SpKind::Parallel:
      value = reduce_subtree(tree, node.children.front(), memo);
      for (std::size_t k = 1; k < node.children.size(); ++k) value = d::parallel(value, reduce_subtree(tree, node.children[k], memo));
      break;
    case graph::SpKind::SeriesPower: value = d::series_power(reduce_subtree(tree, node.children.front(), memo), node.count); break;
    case graph::SpKind::ParallelPower: value = d::parallel_power(reduce_subtree(tree, node.children.front(), memo), node.count); break;
    case graph::SpKind::Branch: {
      std::vector<d::Distribution> alternatives;
      for (std::size_t child : node.children) alternatives.push_back(reduce_subtree(tree, child, memo));
      value = d::mixture(node.probabilities, std::move(alternatives));
      break;
    }
  }
  memo.emplace(root, value);
  return value;
}

class TreeSampler {
 public:
  explicit TreeSampler(const graph::SpTree& tree) : tree_(tree), direct_(tree.nodes().size(), -1), cost_(tree.nodes().size(), 0) {
    std::map<std::size_t, distributions::Distribution> memo;
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
      const graph::SpNode& node = tree.node(i);
      std::int64_t cost = 0;
      switch (node.kind) {
        case graph::SpKind::Leaf:
          direct_[i] = add(node.task.runtime);
          cost = 1;
          break;
        case graph::SpKind::SeriesPower:
        case graph::SpKind::ParallelPower: {
          const std::size_t child = node.children.front();
          const bool leaf = tree.node(child).kind == graph::SpKind::Leaf;
          if (leaf || node.count > kMaxCopies) {
            const distributions::Distribution base = leaf ? tree.node(child).task.runtime : reduce_subtree(tree, child, memo);
            direct_[i] = add(node.kind == graph::SpKind::SeriesPower ? distributions::series_power(base, node.count)
                                                                   : distributions::parallel_power(base, node.count));
            cost = 1;
          } else {
            cost = node.count * cost_[child];
          }
          break;
        }
        default:
          for (std::size_t child : node.children) cost = node.kind == graph::SpKind::Branch ? std::max(cost, cost_[child]) : cost + cost_[child];
      }
      cost_[i] = cost;
    }
  }
  double operator()(distributions::Xoshiro256pp& rng) const { return sample(tree_.root(), rng); }
  std::int64_t cost() const { return cost_[tree_.root()]; }

 private:
  int add(const distributions::Distribution& d) {
    samplers_.emplace_back(d);
    return static_cast<int>(samplers_.size() - 1);
  }
  double sample(std::size_t i, distributions::Xoshiro256pp& rng) const {
    if (direct_[i] >= 0) return samplers_[static_cast<std::size_t>(direct_[i])](rng);
    const graph::SpNode& node = tree_.node(i);
    double value = 0.0;
    switch (node.kind) {
      case graph::SpKind::Leaf: break;
      case graph::SpKind::Series:
        for (std::size_t c : node.children) value += sample(c, rng);
        break;
      case graph::SpKind::Parallel:
        for (std::size_t c : node.children) value = std::max(value, sample(c, rng));
        break;
      case graph::SpKind::SeriesPower:
        for (std::int64_t k = 0; k < node.count; ++k) value += sample(node.children.front(), rng);
        break;
      case graph::SpKind::ParallelPower:
        for (std::int64_t k = 0; k < node.count; ++k) value = std::max(value, sample(node.children.front(), rng));
        break;
      case graph::SpKind::Branch: {
        double u = distributions::uniform_closed_open(rng);
        for (std::size_t k = 0; k < node.children.size(); ++k) {
          if (u < node.probabilities[k] || k + 1 == node.children.size()) return sample(node.children[k], rng);
          u -= node.probabilities[k];
        }
        break;
      }
    }
    return value;
  }
  const graph::SpTree& tree_;
  std::vector<int> direct_;  // node -> sampler drawing the node's whole value at once, or -1
  std::vector<std::int64_t> cost_;
  std::vector<distributions::Sampler> samplers_;
};

}  // namespace

Result solve_monte_carlo(const graph::TaskGraph& graph, const MonteCarloOptions& options, MonteCarloSummary* summary) {
  const WeightedGraph one{1.0, &graph};
  return solve_monte_carlo(std::span<const WeightedGraph>(&one, 1), options, summary);
}

Result solve_monte_carlo(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options,
                         MonteCarloSummary* summary) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  if (mixture.empty()) throw std::invalid_argument("Monte Carlo: the mixture has no scenario");
  std::vector<FlatGraph> flats;
  std::vector<double> cumulative;
  double total = 0.0;
  std::int64_t largest = 0;
  for (std::size_t i = 0; i < mixture.size(); ++i) {
    const WeightedGraph& scenario = mixture[i];
    if (scenario.graph == nullptr) throw std::invalid_argument("Monte Carlo: scenario " + std::to_string(i) + " has no graph");
    if (!(scenario.probability >= 0.0) || !std::isfinite(scenario.probability)) {
      throw std::invalid_argument("Monte Carlo: scenario " + std::to_string(i) + " has probability " +
                                  std::to_string(scenario.probability));
    }
    flats.push_back(compile(*scenario.graph));
    largest = std::max(largest, flats.back().task_samples_per_sample);
    total += scenario.probability;
    cumulative.push_back(total);
  }
  if (std::abs(total - 1.0) > 1e-9) {
    throw std::invalid_argument("Monte Carlo: scenario probabilities sum to " + std::to_string(total) + ", not 1");
  }
  const std::uint64_t seed = options.seed;
  const bool single = flats.size() == 1;
  // Expected task-samples per sample, for the throughput figure.
  double expected_tasks = 0.0;
  for (std::size_t i = 0; i < flats.size(); ++i) {
    expected_tasks += mixture[i].probability * static_cast<double>(flats[i].task_samples_per_sample);
  }
  const Pass pass = choose_pass();
  BlockSampler sampler = [&](std::uint64_t block, double* out, Scratch& scratch) {
    LaneState rng;
    rng.seed(seed, block);
    if (single) {
      for (std::int64_t round = 0; round < kRounds; ++round) pass(flats.front(), rng, scratch, out + round * kLanes);
      return;
    }
    // Each sample's scenario from the block's own choice stream (separate from the lanes').
    distributions::Xoshiro256pp choice(seed ^ 0x6d69787475726573ULL, block);
    std::vector<std::size_t> scenario(kMonteCarloBlock);
    for (auto& s : scenario) {
      const double u = distributions::uniform_closed_open(choice) * total;
      s = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      s = std::min(s, flats.size() - 1);
    }
    // Every scenario a round needs runs for all 8 lanes; each lane keeps its own scenario's value.
    for (std::int64_t round = 0; round < kRounds; ++round) {
      const std::size_t* chosen = scenario.data() + round * kLanes;
      for (std::size_t f = 0; f < flats.size(); ++f) {
        if (std::find(chosen, chosen + kLanes, f) == chosen + kLanes) continue;
        double makespan[kLanes];
        pass(flats[f], rng, scratch, makespan);
        for (int l = 0; l < kLanes; ++l) {
          if (chosen[l] == f) out[round * kLanes + l] = makespan[l];
        }
      }
    }
  };
  std::string detail = single ? "Monte Carlo simulation of the task graph"
                              : "Monte Carlo simulation of a mixture of " + std::to_string(flats.size()) + " task graphs";
  return run(sampler, block_cost(largest), static_cast<std::int64_t>(std::llround(expected_tasks)), options,
             std::move(detail), summary);
}

Result solve_monte_carlo(const graph::SpTree& tree, const MonteCarloOptions& options, MonteCarloSummary* summary) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  const TreeSampler tree_sampler(tree);
  const std::uint64_t seed = options.seed;
  BlockSampler sampler = [&](std::uint64_t block, double* out, Scratch&) {
    distributions::Xoshiro256pp rng(seed, block);
    for (std::int64_t i = 0; i < kMonteCarloBlock; ++i) out[i] = tree_sampler(rng);
  };
  return run(sampler, block_cost(tree_sampler.cost()), tree_sampler.cost(), options,
             "Monte Carlo simulation of the series-parallel tree", summary);
}

std::string MonteCarloSummary::BriefReport() const {
  std::ostringstream out;
  out << "Monte Carlo: mean " << mean << " ± " << half_width << " (95%), " << samples << " samples, "
      << task_samples_per_second / 1e6 << " M task-samples/s on " << threads << " threads";
  return out.str();
}

std::string MonteCarloSummary::FullReport() const {
  std::ostringstream out;
  out << BriefReport() << "\n";
  out << "variance " << variance << ", standard error " << standard_error << ", range [" << minimum << ", " << maximum
      << "]\n";
  out << "quantiles:";
  for (std::size_t q = 0; q < quantiles.size(); ++q) out << " " << kQuantileLevels[q] * 100 << "% " << quantiles[q];
  out << "\nhistogram (" << histogram.size() << " bins from " << histogram_low << ", width " << histogram_width << "):";
  for (std::int64_t c : histogram) out << " " << c;
  out << "\n";
  return out.str();
}

}  // namespace solvers
