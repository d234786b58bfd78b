// Nodes of several processors (NODE IS: ... END;, docs/semantics.md M15) on small programs whose
// figures are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

// `text` with its first `from` replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

// A chain a -> b -> c -> d of tasks of no time on processors 0, 1, 2, 3, each arc 100 bytes.
const char* const kChain =
    "PROGRAM NAME IS 'chain';\n"
    "EXECUTION PATTERN IS d;\n"
    "WORK PHASE d IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 2;\n"
    "  TASK d RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 3;\n"
    "  ARC a -> b -> c -> d VOLUME 100;\n"
    "END;\n";

// t = 50 between nodes, 1 inside one.
std::string two_per_node(const char* placement) {
  return std::string(
             "MACHINE NAME IS 'nodes';\n"
             "COMMUNICATION TIME IS 50;\n"
             "NODE IS:\n"
             "  PROCESSORS IS 2;\n"
             "  PLACEMENT IS ") +
         placement +
         ";\n"
         "  COMMUNICATION TIME IS 1;\n"
         "END;\n";
}

// BLOCK: nodes {0, 1} and {2, 3}: a -> b inside (1), b -> c between (50), c -> d inside (1): 52.
// CYCLIC: nodes {0, 2} and {1, 3}: every arc between nodes: 150. The approximate model does not
// list the pairs and charges each level's message the larger law: 150 either way (ARBITRARY, A3).
TEST(Nodes, M15_AMessageInsideANodeTakesTheNodesLaw) {
  expect_means(kChain, two_per_node("BLOCK"), 4, {{Method::StateSpace, 52.0}, {Method::SeriesParallel, 150.0}});
  expect_means(kChain, two_per_node("CYCLIC"), 4, {{Method::StateSpace, 150.0}, {Method::SeriesParallel, 150.0}});
}

// All processors on one node (p = 2 <= k): the approximate model knows every message is inside
// it. a -> b only: 1 for both models.
TEST(Nodes, M15_OnOneNodeBothModelsTakeTheNodesLaw) {
  const char* const pair =
      "PROGRAM NAME IS 'pair';\n"
      "EXECUTION PATTERN IS d;\n"
      "WORK PHASE d IS:\n"
      "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "  TASK a RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 0;\n"
      "  TASK b RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 1;\n"
      "  ARC a -> b VOLUME 100;\n"
      "END;\n";
  expect_means(pair, two_per_node("BLOCK"), 2, {{Method::StateSpace, 1.0}, {Method::SeriesParallel, 1.0}});
}

// With ports, a message inside a node holds none: g = 0.1 L = 10 between nodes only. BLOCK:
// 1 + (10 + 50) + 1 = 62.
TEST(Nodes, M15_AMessageInsideANodeHoldsNoPort) {
  expect_means(kChain, two_per_node("BLOCK") + "PORT TIME IS 0.1*L;\n", 4, {{Method::StateSpace, 62.0}});
}

// Two processors of node 0 (a on 0, b on 1, 10 each) send 100 bytes each to node 1 (a -> c on 2,
// b -> d on 3): the node's one sending port (and node 1's receiving port) pass them one after
// another, g = 10 each: a's 10-20, b's 20-30; d has its message at 30 + 50 = 80 and ends at 81.
// With a port per processor (no NODE) both leave at 20: 71. The approximate model (A3) charges
// the busiest node port's 20 and the latency before the level: 10 + 20 + 50 + 1 = 81.
TEST(Nodes, M15_TheProcessorsOfANodeShareItsPorts) {
  const char* const two_pairs =
      "PROGRAM NAME IS 'two-pairs';\n"
      "EXECUTION PATTERN IS d;\n"
      "WORK PHASE d IS:\n"
      "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
      "  TASK b RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
      "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 2;\n"
      "  TASK e RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 3;\n"
      "  ARC a -> c VOLUME 100;\n"
      "  ARC b -> e VOLUME 100;\n"
      "END;\n";
  const std::string ports = "MACHINE NAME IS 'ports';\nCOMMUNICATION TIME IS 50;\nPORT TIME IS 0.1*L;\n";
  expect_means(two_pairs, ports, 4, {{Method::StateSpace, 71.0}, {Method::SeriesParallel, 71.0}});
  const std::string nodes = ports + "NODE IS: PROCESSORS IS 2; END;\n";
  expect_means(two_pairs, nodes, 4, {{Method::StateSpace, 81.0}, {Method::SeriesParallel, 81.0}});
  expect_means(two_pairs, nodes + "PORT SHARING IS FAIR;\n", 4, {{Method::StateSpace, 81.0}});
}

// 8 tasks of 10, INDEPENDENT, on one node of 4 processors and 2 cores. p = 1: 80. p = 2: two
// processors on two cores, 40. p = 4: four processors share two cores, each task takes 20, two
// tasks a processor: 40, the same as p = 2: the speedup flattens at the cores.
const char* const kEight =
    "PROGRAM NAME IS 'eight';\n"
    "EXECUTION PATTERN IS w;\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(8);\n"
    "END;\n";
const char* const kTwoCores =
    "MACHINE NAME IS 'two-cores';\n"
    "NODE IS: PROCESSORS IS 4; CORES IS 2; END;\n";

TEST(Nodes, M15_FourProcessesOnTwoCoresTakeTwiceTheComputeTime) {
  expect_means(kEight, kTwoCores, 1, {{Method::StateSpace, 80.0}, {Method::SeriesParallel, 80.0}});
  expect_means(kEight, kTwoCores, 2, {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
  expect_means(kEight, kTwoCores, 4, {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
}

// Two nodes of 2 processors on 1 core each, p = 3 (BLOCK: {0, 1}, {2}): processors 0 and 1 share
// a core (tasks of 10 take 20), processor 2 has one to itself. 3 tasks: 20 on 0 and 1, 10 on 2:
// exact 20; the approximate model slows every task by the busiest node's 2: 20.
TEST(Nodes, M15_OnlyTheNodesWithMoreProcessorsThanCoresAreSlowed) {
  const char* const three =
      "PROGRAM NAME IS 'three';\n"
      "EXECUTION PATTERN IS w;\n"
      "WORK PHASE w IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR a(3);\n"
      "END;\n";
  const char* const one_core = "MACHINE NAME IS 'one-core';\nNODE IS: PROCESSORS IS 2; CORES IS 1; END;\n";
  expect_means(three, one_core, 3, {{Method::StateSpace, 20.0}, {Method::SeriesParallel, 20.0}});
  // 6 tasks: processors 0 and 1 two each (40), processor 2 two (20): 40.
  expect_means(std::string(three).replace(std::string(three).find("a(3)"), 4, "a(6)"), one_core, 3,
               {{Method::StateSpace, 40.0}});
}

// NEIGHBOR over 8 columns of 10 on p = 8, boundaries of 100 bytes: t = 5 and one port of g = 1
// between nodes of 4, t = 1 inside. BLOCK ({0..3}, {4..7}): only 3 -> 4 and 4 -> 3 cross, one
// message at each port: exact 10 + g + t = 16. The approximate model knows a node of consecutive
// ranks passes one processor's two messages at its port: 10 + t + 2g = 17 (m = 4 would be 23).
// CYCLIC ({0, 2, 4, 6}, {1, 3, 5, 7}): every boundary crosses, node 0's port sends 7 messages
// ready at 10: the last leaves at 17, arrives at 22; the approximate model 10 + 5 + 4·2·g = 23.
TEST(Nodes, M15_ABlockOfRanksPassesOnlyItsEdgeMessagesAtItsNodesPort) {
  const char* const halo =
      "PROGRAM NAME IS 'halo';\n"
      "EXECUTION PATTERN IS w;\n"
      "WORK PHASE w IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR a(8);\n"
      "  COMMUNICATION VOLUME IS 100;\n"
      "END;\n";
  const std::string machine =
      "MACHINE NAME IS 'n';\nCOMMUNICATION TIME IS 5;\nPORT TIME IS 1;\n"
      "NODE IS: PROCESSORS IS 4; PLACEMENT IS BLOCK; COMMUNICATION TIME IS 1; END;\n";
  expect_means(halo, machine, 8, {{Method::StateSpace, 16.0}, {Method::SeriesParallel, 17.0}});
  expect_means(halo, with(machine, "BLOCK", "CYCLIC"), 8, {{Method::StateSpace, 22.0}, {Method::SeriesParallel, 23.0}});
}

// PLACEMENT IS (0, 3), (1, 2): nodes {0, 3} and {1, 2}. The chain a -> b -> c -> d crosses 0 -> 1
// between nodes (50), 1 -> 2 inside node 1 (1), 2 -> 3 between (50): 101; the approximate model
// charges every level the larger law, 150.
TEST(Nodes, M15_APlacementListPutsEachProcessorOnTheNodeThatNamesIt) {
  expect_means(kChain, with(two_per_node("BLOCK"), "BLOCK", "(0, 3), (1, 2)"), 4,
               {{Method::StateSpace, 101.0}, {Method::SeriesParallel, 150.0}});
}

// A STREAM-like kernel: 64 tasks of 10 that each move 1,000 bytes, on one node whose memory serves
// B = 400 bytes per unit of time. A task's demand is 1,000 / 10 = 100 per unit, so at p processors
// each task takes max(10, 1,000·p / 400) and the phase 64/p times that: 640, 320, 160, then 160
// whatever p: the speedup flattens at B / demand = 4 (both models, every p on one node).
const char* const kStream =
    "PROGRAM NAME IS 'stream';\n"
    "EXECUTION PATTERN IS w;\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  SUBTASK MEMORY VOLUME IS 1000;\n"
    "  PROBLEM SIZE IS VECTOR a(64);\n"
    "END;\n";
const char* const kOneNode = "MACHINE NAME IS 'one-node';\nNODE IS: PROCESSORS IS 64; MEMORY BANDWIDTH IS 400; END;\n";

TEST(Nodes, M16_AMemoryBoundKernelsSpeedupFlattensAtBandwidthOverDemand) {
  for (const auto& [p, expected] : std::map<int, double>{{1, 640.0}, {2, 320.0}, {4, 160.0}, {8, 160.0}, {64, 160.0}}) {
    expect_means(kStream, kOneNode, p, {{Method::StateSpace, expected}, {Method::SeriesParallel, expected}});
  }
  // DYNAMIC takes the same tasks from a queue: the same roofline on the pool's tasks, 20 each; the
  // approximate model's list-schedule bound is 64·20/8 + (1 - 1/8)·20 = 177.5.
  expect_means(with(kStream, "  PROBLEM", "  SCHEDULING IS DYNAMIC;\n  PROBLEM"), kOneNode, 8,
               {{Method::MonteCarlo, 160.0}, {Method::SeriesParallel, 177.5}});
}

// Two nodes of 2 (BLOCK, p = 3: {0, 1} and {2}), B = 100, tasks of 10 moving 1,000 bytes: on node 0
// both processors move theirs at once, max(10, 1,000·2 / 100) = 20; on node 1 alone, 10. 6 tasks,
// two a processor: 40 (exact); the approximate model takes the busiest node's 20 for every task:
// 40 too. Without the memory volume: 20.
TEST(Nodes, M16_EachNodesTasksShareThatNodesBandwidth) {
  const std::string six = with(kStream, "a(64)", "a(6)");
  const char* const two = "MACHINE NAME IS 'two';\nNODE IS: PROCESSORS IS 2; MEMORY BANDWIDTH IS 100; END;\n";
  expect_means(six, two, 3, {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
  // Listed nodes {0} and {1, 2}, 4 tasks (BLOCK: 2, 1, 1): processor 0 alone on its node runs two
  // of 10; processors 1 and 2 one of 20 each: 20. The approximate model gives processor 0's two
  // tasks the busiest node's 20: 40, an upper bound.
  expect_means(with(six, "a(6)", "a(4)"), with(two, "END;", "PLACEMENT IS (0), (1, 2); END;"), 3,
               {{Method::StateSpace, 20.0}, {Method::SeriesParallel, 40.0}});
  expect_means(with(six, "  SUBTASK MEMORY VOLUME IS 1000;\n", ""), two, 3,
               {{Method::StateSpace, 20.0}, {Method::SeriesParallel, 20.0}});
}

// A random task's roofline is max(X, f): for X exponential of mean 10 and f = 5 (1,000 bytes at
// B = 200, alone on its node), E = f + 10·e^(-f/10) = 11.0653...; 64 tasks on one processor:
// 708.18. The series-parallel bracket contains it, Monte Carlo within 4 standard errors.
TEST(Nodes, M16_ARandomTasksRooflineIsTheMaximumOfItsTimeAndItsMemoryTime) {
  const double expected = 64.0 * (5.0 + 10.0 * std::exp(-0.5));
  const std::string program = with(kStream, "DETERMINISTIC(10)", "EXPONENTIAL(10)");
  const char* const machine = "MACHINE NAME IS 'one-node';\nNODE IS: PROCESSORS IS 64; MEMORY BANDWIDTH IS 200; END;\n";
  const auto study = analysis::run_study({test_support::case_of(program, machine)},
                                         test_support::request_for({1}, {Method::SeriesParallel, Method::MonteCarlo}));
  ASSERT_TRUE(study.ok());
  const solvers::Result& bracket = study.value->at(0, 1, Method::SeriesParallel).result;
  EXPECT_LE(bracket.lower, expected);
  EXPECT_GE(bracket.upper, expected);
  const solvers::Result& mc = study.value->at(0, 1, Method::MonteCarlo).result;
  EXPECT_NEAR(mc.mean, expected, 4.0 * (mc.upper - mc.lower) / (2.0 * 1.96));
}

}  // namespace
