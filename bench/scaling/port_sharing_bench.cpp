// What fair sharing of ports (PORT SHARING IS FAIR;, docs/semantics.md M13) adds to building the
// exact model, against first come, first served (M12), at p = 4,096 on the switched cluster:
// a 1-D stencil whose 8,000-byte boundaries meet at the ports (every port's messages connected
// along the whole chain, the worst case for recomputing shares), and two binomial BROADCASTs of
// 64 KiB. Argument: 0 first come, 1 fair, 2 first come on nodes of 32 (the stencil only).
// docs/performance.md, "Port sharing" and "Nodes".
#include <benchmark/benchmark.h>

#include <string>

#include "models/bind.hpp"
#include "scaling/exact_model.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

// 0: first come; 1: fair; 2: first come with nodes of 32 processors and a law of their own (M15).
std::string machine_text(std::int64_t variant) {
  return std::string("MACHINE NAME IS 'switched';\nCOMMUNICATION TIME IS 50;\nPORT TIME IS 0.01*L;\n") +
         (variant == 1   ? "PORT SHARING IS FAIR;\n"
          : variant == 2 ? "NODE IS: PROCESSORS IS 32; COMMUNICATION TIME IS 1; END;\n"
                         : "");
}

const char* const kStencil =
    "PROGRAM NAME IS 'stencil';\n"
    "EXECUTION PATTERN IS s{4};\n"
    "WORK PHASE s IS:\n"
    "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(8*P);\n"
    "  COMMUNICATION VOLUME IS 8000;\n"
    "END;\n"
    "CONCATENATION IS:\n"
    "  s, s: NEIGHBOR;\n"
    "END;\n";

const char* const kBroadcasts =
    "PROGRAM NAME IS 'broadcasts';\n"
    "EXECUTION PATTERN IS (w -> BROADCAST(65536)){2};\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(P);\n"
    "END;\n";

void build(benchmark::State& state, const char* program_text) {
  const models::Machine machine = test_support::machine_of_text(machine_text(state.range(0)));
  const models::Program program = test_support::program_of_text(program_text, machine);
  const models::Binding binding = models::bind(program, machine, {});
  std::size_t nodes = 0;
  for (auto _ : state) {
    const scaling::ExactModel model = scaling::exact_model(program, machine, binding.environment, 4096);
    nodes = model.scenarios.front().graph.node_count();
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_ExactStencil(benchmark::State& state) { build(state, kStencil); }
void BM_ExactBroadcasts(benchmark::State& state) { build(state, kBroadcasts); }

BENCHMARK(BM_ExactStencil)->ArgName("fair")->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactBroadcasts)->ArgName("fair")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
