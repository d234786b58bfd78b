// Nodes of several processors (NODE IS: ... END;, docs/semantics.md M15) on small programs whose
// figures are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

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

}  // namespace
