// The rules of docs/semantics.md that no other test pinned, each by a tiny program whose figures
// are worked out by hand from the rule's text (deterministic tasks: every method's mean is the
// longest path, so the state space and Monte Carlo give the exact model's makespan and the
// series-parallel reduction the approximate model's sum). Each test is named after its rule;
// the hand computation is the comment above it. Notation as in docs/semantics.md: t, o, b, c
// the machine's transfer time, message overhead, barrier time and contention.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "report/report.hpp"
#include "graph/task_graph.hpp"
#include "scaling/exact_model.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::case_of;
using test_support::expect_means;
using test_support::request_for;

// The machines: each sets only the terms it names, the others keep their defaults (t = o = b
// = 0, no contention).
// lo: every message of L > 0 bytes costs t = 10 in flight and o = 1 on each end.
const char* const kLo =
    "MACHINE NAME IS 'lo';\n"
    "COMMUNICATION TIME IS 10;\n"
    "MESSAGE OVERHEAD IS 1;\n";
// lob: lo with a barrier of 1000.
const char* const kLob =
    "MACHINE NAME IS 'lob';\n"
    "COMMUNICATION TIME IS 10;\n"
    "MESSAGE OVERHEAD IS 1;\n"
    "BARRIER TIME IS 1000;\n";
// barrier: only a barrier of 100.
const char* const kBarrier =
    "MACHINE NAME IS 'b';\n"
    "BARRIER TIME IS 100;\n";
// contention: only c(T, P) = 0.1 T (P - 1), 0.1 T on two processors.
const char* const kContention =
    "MACHINE NAME IS 'c';\n"
    "CONTENTION IS 0.1*T*(P-1);\n";
// transfer: only t = 10, no overhead: a message is one transfer node (processor none).
const char* const kTransfer =
    "MACHINE NAME IS 't';\n"
    "COMMUNICATION TIME IS 10;\n";
// ideal: everything free.
const char* const kIdeal = "MACHINE NAME IS 'ideal';\n";

// The only scenario of the exact model of `program` on `machine` with p processors.
graph::TaskGraph exact_graph(const std::string& program, const std::string& machine, int p,
                             const std::map<std::string, double>& values = {}) {
  const analysis::Case one = case_of(program, machine, values);
  scaling::ExactModel model = scaling::exact_model(*one.program, *one.machine, one.environment, p);
  EXPECT_EQ(model.scenarios.size(), 1u);
  return std::move(model.scenarios.front().graph);
}

bool is_transfer(const graph::TaskNode& node) {
  return node.kind == graph::NodeKind::Communication && node.processor == -1;
}

double mean_runtime(const graph::TaskNode& node) { return distributions::mean(node.runtime); }

// ---- M. Messages --------------------------------------------------------------------------------

// Six columns of 100 on three processors (columns 0-1, 2-3, 4-5), two instances joined by
// NEIGHBOR, 8 bytes per boundary.
const char* const kStencil =
    "PROGRAM NAME IS 'stencil';\n"
    "EXECUTION PATTERN IS w{2};\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(100);\n"
    "  PROBLEM SIZE IS VECTOR a(6);\n"
    "  COMMUNICATION VOLUME IS 8;\n"
    "END;\n"
    "CONCATENATION IS:\n"
    "  w, w : NEIGHBOR;\n"
    "END;\n";

// Rule M4 with o > 0: every dependence across processors is the chain u -> send (o = 1, on
// u's processor) -> transfer (t = 10, no processor) -> receive (o = 1, on v's) -> v.
// kStencil on lo, p = 3. Messages (C4, equal counts): instance 2's columns 1, 2, 3, 4 need
// instance 1's columns 2, 1, 4, 3 from the neighbouring processor; at the end (N3, o > 0) the
// boundary columns 1, 2, 3, 4 of instance 2 are sent again: 8 messages, each a send, a
// transfer and a receive: 12 tasks + 24 nodes. Creation order (columns 0..5, each after its
// receives; sends spliced right after their column, M6; receives appended, M7) gives the
// orders (i1, i2 the instances, S a send, R a receive):
//   p0: c0 c1 S(c1) | c0' R(c2) c1' | S(c1') R(c2')
//   p1: c2 S(c2) c3 S(c3) R(c1) c2' S(c2') R(c4) c3' S(c3') | R(c1') R(c4')
//   p2: c4 S(c4) c5 R(c3) c4' S(c4') c5' | R(c3')
// Times: p1 sends c2 at 100-101 (arrives 111), p2 sends c4 at 100-101 (111), p0 sends c1 at
// 200-201 (211), p1 sends c3 at 201-202 (212). p0: c0' 201-301, R 301-302, c1' 302-402, S
// 402-403 (arrives 413). p1: R 211-212, c2' 212-312, S 312-313 (323), R 313-314, c3' 314-414,
// S 414-415 (425), R(c1') 415-416, R(c4') 416-417. p2: R 212-213, c4' 213-313, S 313-314
// (324), c5' 314-414, R(c3') 425-426. p0: R(c2') 403-404. Makespan 426.
TEST(Semantics, M4_AMessageIsASendATransferAndAReceive) {
  const graph::TaskGraph g = exact_graph(kStencil, kLo, 3);
  int tasks = 0, transfers = 0, sends = 0, receives = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    const graph::TaskNode& node = g.node(v);
    if (node.kind == graph::NodeKind::Task) {
      ++tasks;
      continue;
    }
    ASSERT_EQ(node.kind, graph::NodeKind::Communication) << node.label;
    if (node.processor >= 0) {
      // A send (before a transfer) or a receive (after one), of o each.
      bool before_transfer = false, after_transfer = false;
      for (graph::NodeId w : g.successors(v)) before_transfer = before_transfer || is_transfer(g.node(w));
      for (graph::NodeId u : g.predecessors(v)) after_transfer = after_transfer || is_transfer(g.node(u));
      EXPECT_NE(before_transfer, after_transfer) << node.label;
      sends += before_transfer;
      receives += after_transfer;
      EXPECT_DOUBLE_EQ(mean_runtime(node), 1.0) << node.label;
      continue;
    }
    ++transfers;
    EXPECT_DOUBLE_EQ(mean_runtime(node), 10.0);
    ASSERT_EQ(g.predecessors(v).size(), 1u);
    ASSERT_EQ(g.successors(v).size(), 1u);
    const graph::NodeId send = g.predecessors(v).front();
    const graph::NodeId receive = g.successors(v).front();
    EXPECT_EQ(g.node(send).kind, graph::NodeKind::Communication);
    EXPECT_DOUBLE_EQ(mean_runtime(g.node(send)), 1.0);
    EXPECT_EQ(g.node(receive).kind, graph::NodeKind::Communication);
    EXPECT_DOUBLE_EQ(mean_runtime(g.node(receive)), 1.0);
    EXPECT_GE(g.node(send).processor, 0);
    EXPECT_GE(g.node(receive).processor, 0);
    EXPECT_NE(g.node(send).processor, g.node(receive).processor);
    // The send follows the sending column on its processor.
    ASSERT_EQ(g.predecessors(send).size(), 1u);
    const graph::TaskNode& from = g.node(g.predecessors(send).front());
    EXPECT_EQ(from.kind, graph::NodeKind::Task);
    EXPECT_EQ(from.processor, g.node(send).processor);
  }
  EXPECT_EQ(tasks, 12);
  EXPECT_EQ(transfers, 8);
  EXPECT_EQ(sends, 8);
  EXPECT_EQ(receives, 8);
  EXPECT_EQ(g.node_count(), 36u);
  expect_means(kStencil, kLo, 3, {{Method::StateSpace, 426.0}});
}

// Rule M9 with o > 0: a processor that sends s and receives r messages in one place is charged
// s·o + t + r·o. kStencil on lo, p = 3: each NEIGHBOR instance charges every processor its 2
// columns and msg(8; 2, 2) (N5, m = 2 for 3 processors of 2 columns) = 2·1 + 10 + 2·1 = 14:
// 214; the NEIGHBOR joint closes W at no further cost (C5: e = 2 − 2 = 0). Two instances: 428.
TEST(Semantics, M9_TheSendsTheTransferAndTheReceivesInOneLeaf) {
  expect_means(kStencil, kLo, 3, {{Method::SeriesParallel, 428.0}});
}

// u on processor 0 sends 8 bytes to v and `w_bytes` to w, both on processor 1.
std::string fan_out(const std::string& w_bytes) {
  return "PROGRAM NAME IS 'fanout';\n"
         "EXECUTION PATTERN IS g;\n"
         "WORK PHASE g IS:\n"
         "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
         "  TASK u RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
         "  TASK v RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
         "  TASK w RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
         "  ARC u -> v VOLUME 8;\n"
         "  ARC u -> w VOLUME " +
         w_bytes +
         ";\n"
         "END;\n";
}

// Rule M5: one message per sender, receiving processor and size. fan_out("8") on lo, p = 2 (A2):
// u 0-10, its send 10-11, the transfer 11-21; processor 1 receives 21-22, runs v 22-32 and w
// 32-42 (w reuses the message: an arc from the receive). Exact 42 (two messages would give
// sends 10-12, receives 21-22 and 32-33, w 33-43). Different sizes are different messages:
// fan_out("16"): sends 10-11 and 11-12, transfers to 21 and 22, processor 1 receives 21-22,
// v 22-32, receives 32-33, w 33-43: 43.
TEST(Semantics, M5_OneMessagePerSenderReceivingProcessorAndSize) {
  expect_means(fan_out("8"), kLo, 2, {{Method::StateSpace, 42.0}});
  const graph::TaskGraph g = exact_graph(fan_out("8"), kLo, 2);
  int transfers = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) transfers += is_transfer(g.node(v));
  EXPECT_EQ(transfers, 1);
  expect_means(fan_out("16"), kLo, 2, {{Method::StateSpace, 43.0}});
}

// Three columns of 10 on three processors, two instances joined by NEIGHBOR, 100 bytes per
// boundary; `machine` prices a message at t = 50 and no overhead.
const char* const kThreeColumns =
    "PROGRAM NAME IS 'three';\n"
    "EXECUTION PATTERN IS w{2};\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(3);\n"
    "  COMMUNICATION VOLUME IS 100;\n"
    "END;\n"
    "CONCATENATION IS:\n"
    "  w, w : NEIGHBOR;\n"
    "END;\n";
std::string transfer_of_50(const std::string& eager_limit) {
  return "MACHINE NAME IS 't50';\nCOMMUNICATION TIME IS 50;\n" +
         (eager_limit.empty() ? std::string{} : "EAGER LIMIT IS " + eager_limit + ";\n");
}

// Rule M11: above the eager limit a transfer starts no earlier than the receiver posts its
// receive, where its order stands when the dependence is made. kThreeColumns, p = 3: the first
// instance 0-10 everywhere, each boundary sent at 10. Eager (no limit, or 100 bytes allowed):
// every transfer 10-60, the second instance 60-70, the final exchange (N3) sends at 70 and
// ends at 120. Rendezvous (EAGER LIMIT IS 99): processor 1 posts its receive from 0 at 10
// (transfer 10-60), then the one from 2 once that receive is done (60-110): its column
// 110-120, processors 0 and 2 at 60-70. The final exchange: 0 and 2 post their receives from
// 1 at 70, whose sends at 120 end at 170; 1 posts from 0 at 120 (120-170), then from 2 at 170:
// 220. The approximate model (M11) has processor 1 take its two receives a step one after the
// other, 100 instead of 50 a step: 10 + 100 + 10 + 100 = 220 (eager, 120).
TEST(Semantics, M11_ARendezvousTransferWaitsForItsReceive) {
  expect_means(kThreeColumns, transfer_of_50(""), 3, {{Method::StateSpace, 120.0}});
  expect_means(kThreeColumns, transfer_of_50("100"), 3, {{Method::StateSpace, 120.0}});
  expect_means(kThreeColumns, transfer_of_50("99"), 3, {{Method::StateSpace, 220.0}, {Method::SeriesParallel, 220.0}});
  expect_means(kThreeColumns, transfer_of_50("100"), 3, {{Method::SeriesParallel, 120.0}});
  // One receive node per message of the receiver's order, even without an overhead.
  const graph::TaskGraph g = exact_graph(kThreeColumns, transfer_of_50("99"), 3);
  int receives = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    receives += g.node(v).kind == graph::NodeKind::Communication && g.node(v).processor >= 0;
  }
  EXPECT_EQ(receives, 8);  // 4 boundaries a step (0 -> 1, 1 -> 0, 1 -> 2, 2 -> 1), two steps
}

// ---- K. Contention ------------------------------------------------------------------------------

// Rule K3: after a DYNAMIC pool, one shared contention node (exact) and a leaf c after the
// results leaf (approximate). Four tasks of 10 on 2 processors, no volume, contention machine:
// T = 4·10 = 40, c = 0.1·40·1 = 4. Exact (I3): the pool takes 20 (two tasks per processor), no
// results node (0 bytes), then c: 24 (the pool is simulated: Monte Carlo, exact for
// deterministic tasks). Approximate (I4): q' = 2, 40/2 + (1 − 1/2)·10 = 25, then c: 29.
TEST(Semantics, K3_ContentionAfterADynamicPool) {
  const char* const program =
      "PROGRAM NAME IS 'pool';\n"
      "EXECUTION PATTERN IS x;\n"
      "WORK PHASE x IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR v(4);\n"
      "  SCHEDULING IS DYNAMIC;\n"
      "END;\n";
  expect_means(program, kContention, 2, {{Method::MonteCarlo, 24.0}, {Method::SeriesParallel, 29.0}});
}

// Five tasks: a (10, ON PROCESSOR 1), b (20), c (30) in level 0; d (5) after a, e (7) after a,
// b and c in level 1. Positions (A1): level 0 a 0, b 1, c 2, so a on 1, b on 1 mod 2 = 1, c on
// 2 mod 2 = 0; level 1 d 0 on processor 0, e 1 on processor 1.
std::string dag(const std::string& ad, const std::string& ae, const std::string& be, const std::string& ce) {
  const auto arc = [](const std::string& from, const std::string& to, const std::string& volume) {
    return "  ARC " + from + " -> " + to + (volume.empty() ? std::string{} : " VOLUME " + volume) + ";\n";
  };
  return "PROGRAM NAME IS 'dag';\n"
         "EXECUTION PATTERN IS g;\n"
         "WORK PHASE g IS:\n"
         "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
         "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
         "  TASK b RUNTIME IS DETERMINISTIC(20);\n"
         "  TASK c RUNTIME IS DETERMINISTIC(30);\n"
         "  TASK d RUNTIME IS DETERMINISTIC(5);\n"
         "  TASK e RUNTIME IS DETERMINISTIC(7);\n" +
         arc("a", "d", ad) + arc("a", "e", ae) + arc("b", "e", be) + arc("c", "e", ce) + "END;\n";
}

// Rule K4 for ARBITRARY: after the closing sync, one contention node of c with T = Σ E[task];
// the approximate model's last leaf. dag() without volumes on the contention machine, p = 2:
// processor 0 runs c 0-30, d 30-35; processor 1 a 0-10, b 10-30, e 30-37 (after c); then
// c(72) = 0.1·72 = 7.2: exact 44.2. Approximate (A3, no messages): level 0 max(30, 10 + 20) =
// 30, level 1 max(5, 7) = 7, then 7.2: 44.2.
TEST(Semantics, K4_ContentionAfterAnArbitraryPhase) {
  expect_means(dag("", "", "", ""), kContention, 2, {{Method::StateSpace, 44.2}, {Method::SeriesParallel, 44.2}});
}

// PAIRED, 4 iterations, DEPENDENCY 2, BLOCK (iterations 0, 1 on processor 0; 2, 3 on 1),
// independent 10, dependent 5, no volumes.
const char* const kPaired =
    "PROGRAM NAME IS 'loop';\n"
    "EXECUTION PATTERN IS l;\n"
    "WORK PHASE l IS:\n"
    "  PARALLELIZATION SCHEME IS PAIRED;\n"
    "  DEPENDENCY IS 2;\n"
    "  INDEPENDENT SUBTASK IS:\n"
    "    RUNTIME IS DETERMINISTIC(10);\n"
    "  END;\n"
    "  DEPENDENT SUBTASK IS:\n"
    "    RUNTIME IS DETERMINISTIC(5);\n"
    "  END;\n"
    "  PROBLEM SIZE IS VECTOR v(4);\n"
    "  SCHEDULING IS BLOCK;\n"
    "END;\n";

// kPaired at p = 2. Exact (P1): processor 0 runs I0 0-10, I1 10-20, D0 20-25, D1 25-30;
// processor 1 I2 0-10, I3 10-20, D2 after D0 25-30, D3 after D1 30-35: 35. Approximate (P3):
// I^{⊕2} = 20, b = 0, level 1 = {0, 1} and level 2 = {2, 3}, each spread as 1 + 1: 5 + 5: 30.
// Rule K4 for PAIRED: on the contention machine T = 4·(10 + 5) = 60, c = 6 after the closing
// sync and as the last leaf: exact 41, approximate 36.
TEST(Semantics, K4_ContentionAfterAPairedPhase) {
  expect_means(kPaired, kContention, 2, {{Method::StateSpace, 41.0}, {Method::SeriesParallel, 36.0}});
}

// ---- C. Concatenations --------------------------------------------------------------------------

// NEIGHBOR a (6 columns of 10, 8 bytes) then INDEPENDENT b (nb tasks, no volume) joined by
// `kind`.
std::string neighbor_then_independent(const std::string& kind) {
  return "PROGRAM NAME IS 'mixed';\n"
         "EXECUTION PATTERN IS a -> b;\n"
         "VARIABLE nb = 6;\n"
         "WORK PHASE a IS:\n"
         "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  PROBLEM SIZE IS VECTOR x(6);\n"
         "  COMMUNICATION VOLUME IS 8;\n"
         "END;\n"
         "WORK PHASE b IS:\n"
         "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  PROBLEM SIZE IS VECTOR y(nb);\n"
         "END;\n"
         "CONCATENATION IS:\n"
         "  a, b : " +
         kind +
         ";\n"
         "END;\n";
}

// Rule C4, TORUS and different counts: on the transfer machine (o = 0) a message is one
// transfer node; a's pending boundary is dropped (the neighbour dependences carry it) and b
// sends nothing, so the transfers are exactly C4's messages (M5 merging repeats). p = 3, a's
// columns 0-1, 2-3, 4-5 on processors 0, 1, 2.
// Equal counts (nb = 6, b's units on the same processors): TORUS links unit c to c and c − 1
// (wrapping): units 0, 2, 4 need columns 5, 1, 3 from another processor: 3 messages. NEIGHBOR
// links c − 1, c, c + 1 (dropped outside): 1 <- 2, 2 <- 1, 3 <- 4, 4 <- 3: 4. NEIGHBOR-TORUS
// adds 0 <- 5 and 5 <- 0: 6.
// Different counts (nb = 3, unit k on processor k): each processor's first unit waits for the
// last column a left on processor k − 1 and on k + 1 (1, 3, 5 on processors 0, 1, 2): TORUS
// (wrapping, every kind waits for both neighbours) 0 <- 5, 3; 1 <- 1, 5; 2 <- 3, 1: 6;
// NEIGHBOR drops processors −1 and 3: 0 <- 3; 1 <- 1, 5; 2 <- 3: 4; NEIGHBOR-TORUS 6.
TEST(Semantics, C4_TorusAndDifferentCountsWaitForTheirNeighbours) {
  const auto transfers = [](const std::string& kind, double nb) {
    const graph::TaskGraph g = exact_graph(neighbor_then_independent(kind), kTransfer, 3, {{"nb", nb}});
    int count = 0;
    for (graph::NodeId v = 0; v < g.node_count(); ++v) {
      if (!is_transfer(g.node(v))) continue;
      ++count;
      EXPECT_DOUBLE_EQ(mean_runtime(g.node(v)), 10.0);
    }
    return count;
  };
  EXPECT_EQ(transfers("TORUS", 6), 3);
  EXPECT_EQ(transfers("TORUS", 3), 6);
  EXPECT_EQ(transfers("NEIGHBOR", 6), 4);
  EXPECT_EQ(transfers("NEIGHBOR", 3), 4);
  EXPECT_EQ(transfers("NEIGHBOR-TORUS", 6), 6);
  EXPECT_EQ(transfers("NEIGHBOR-TORUS", 3), 6);
}

// Rule C5 with e > 0. INDEPENDENT a (6 tasks of 10, 8 bytes each) then NEIGHBOR b (6 columns
// of 10, no volume) joined by NEIGHBOR, on lo, p = 3 (2 units per processor).
// Approximate: a charges each processor 20 + msg(2·8; 1, 0) = 20 + 1 + 10 = 31 (I2); the joint
// closes W and charges msg(8; e, e) with e = most − own = 2 − 0 (a is INDEPENDENT) = 2:
// 2 + 10 + 2 = 14; b charges 20 (no volume): 31 + 14 + 20 = 65.
// Exact: a's tasks, then each processor's results node of o + t = 11 (M8) at 20-31. b's units
// 1, 2, 3, 4 need a's units 2, 1, 4, 3 (8 bytes, C4): sends spliced after those tasks (M6):
// processor 0 a0 0-10, a1 10-20, S 20-21, results 21-32; processor 1 a2 0-10, S 10-11, a3
// 11-21, S 21-22, results 22-33; processor 2 a4 0-10, S 10-11, a5 11-21, results 21-32.
// Processor 0: b0 32-42, receive (sent at 11, arrived 21) 42-43, b1 43-53. Processor 1:
// receive (arrived 31) 33-34, b2 34-44, receive (arrived 21) 44-45, b3 45-55. Processor 2:
// receive (sent 21-22, arrived 32) 32-33, b4 33-43, b5 43-53. Exact 55.
TEST(Semantics, C5_ExtraMessagesAfterAnIndependentPhase) {
  const char* const program =
      "PROGRAM NAME IS 'gather';\n"
      "EXECUTION PATTERN IS a -> b;\n"
      "WORK PHASE a IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR x(6);\n"
      "  COMMUNICATION VOLUME IS 8;\n"
      "END;\n"
      "WORK PHASE b IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR x(6);\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  a, b : NEIGHBOR;\n"
      "END;\n";
  expect_means(program, kLo, 3, {{Method::SeriesParallel, 65.0}, {Method::StateSpace, 55.0}});
}

// ---- F. FORK-JOIN -------------------------------------------------------------------------------

std::string fork_join(const std::string& jobs, const std::string& tasks, const std::string& interarrival,
                      const std::string& volume, const std::string& scheduling) {
  return "PROGRAM NAME IS 'farm';\n"
         "EXECUTION PATTERN IS f;\n"
         "WORK PHASE f IS:\n"
         "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  JOBS IS " +
         jobs +
         ";\n"
         "  TASKS PER JOB IS " +
         tasks +
         ";\n"
         "  INTERARRIVAL TIME IS DETERMINISTIC(" +
         interarrival +
         ");\n"
         "  JOIN RUNTIME IS DETERMINISTIC(1);\n"
         "  COMMUNICATION VOLUME IS " +
         volume +
         ";\n"
         "  SCHEDULING IS " +
         scheduling +
         ";\n"
         "END;\n";
}

// Three jobs of 2 tasks of 10 (one per processor), a drain of 1, released 100 apart, no volume.
const std::string kReleases = fork_join("3", "2", "100", "0", "BLOCK");

// Rule F1: J − 1 interarrival waits. kReleases on the ideal machine, p = 2: job 0 starts at 0
// (no wait), its tasks 0-10, drain 10-11; A_1 ends at 100, job 1 100-110, drain 110-111; A_2
// (after A_1) ends at 200, job 2 200-210, drain 210-211. Exact 211 (J waits would give 311).
TEST(Semantics, F1_JobJIsReleasedJInterarrivalTimesAfterTheStart) {
  expect_means(kReleases, kIdeal, 2, {{Method::StateSpace, 211.0}});
}

// Rule F6, the J − 1 waits: job = max(10, 10) + 0 (no receives) + 1 = 11, waiting =
// max(11, 100) = 100; waiting^{⊕2} ⊕ job = 200 + 11 = 211.
TEST(Semantics, F6_TheApproximateModelWaitsJMinusOneTimes) {
  expect_means(kReleases, kIdeal, 2, {{Method::SeriesParallel, 211.0}});
}

// Rule F3, a DYNAMIC job: one job of 4 tasks of 10, DYNAMIC, on lo, p = 2 (no COMMUNICATION
// VOLUME: the checker refuses one there, tests/pdl/bad/fork_join_dynamic_results.pdl).
// Exact: a pool of 4 tasks on 2 processors (20) after the start, the drain (1) after it; no
// results message: 21 (Monte Carlo: the pool is simulated; exact for deterministic tasks).
// Approximate (F6, DYNAMIC): Graham's leaves 40/2 + (1 − 1/2)·10 = 25, no message, the drain: 26.
TEST(Semantics, F3_ADynamicJobIsAPoolBeforeTheDrain) {
  std::string program = fork_join("1", "4", "0", "0", "DYNAMIC");
  const std::string volume = "  COMMUNICATION VOLUME IS 0;\n";
  program.erase(program.find(volume), volume.size());
  expect_means(program, kLo, 2, {{Method::MonteCarlo, 21.0}, {Method::SeriesParallel, 26.0}});
}

// Rule F4: the drain releases the next job by a plain arc, no message, though the tasks send
// their results (100 bytes) to it. Two jobs of 2 tasks of 10, no interarrival time, on lo,
// p = 2. Exact (F2): job 0's tasks 0-10; processor 1 sends 10-11, the transfer 11-21,
// processor 0 receives 21-22, the drain 22-23; job 1's tasks start at 23 on both processors
// (no send, transfer or receive between the drain and processor 1's task): 23-33, send 33-34,
// transfer 34-44, receive 44-45, drain 45-46. Exact 46 (a message from the drain would delay
// processor 1 by 1 + 10 + 1). Approximate (F6): W_0 = 10, W_1 = 10 + msg(100; 1, 0) = 21, job
// = 21 + o (processor 0's receive) + 1 = 23; A is zero: 23 + 23 = 46.
TEST(Semantics, F4_TheDrainReleasesTheNextJobWithoutAMessage) {
  expect_means(fork_join("2", "2", "0", "100", "BLOCK"), kLo, 2,
               {{Method::StateSpace, 46.0}, {Method::SeriesParallel, 46.0}});
}

// ---- MP. MACROPIPELINE --------------------------------------------------------------------------

// Rule MP2. 3 jobs, 3 stages of 10, released 4 apart, 8 bytes per crossing, on lo (t = 10,
// o = 1), p = 2: stages 0, 1 on processor 0, stage 2 on processor 1.
// Approximate: B_0 = 20 + o = 21 (its send), B_1 = o + 10 = 11 (its receive). The first job
// 21 + 10 + 11 = 42; each of the other two max(21, 11, 4) = 21: 42 + 42 = 84.
// Exact (MP1): processor 0 runs (0,0) 0-10, (0,1) 10-20, send 20-21, (1,0) 21-31 (released at
// 4), (1,1) 31-41, send 41-42, (2,0) 42-52 (released at 8), (2,1) 52-62, send 62-63;
// processor 1 receives 31-32, (0,2) 32-42, receives 52-53, (1,2) 53-63, receives 73-74,
// (2,2) 74-84. Exact 84: here the slowest block sets the pace and the decomposition is exact.
TEST(Semantics, MP2_TheBlocksCarryTheOverheads) {
  const char* const program =
      "PROGRAM NAME IS 'pipe';\n"
      "EXECUTION PATTERN IS m;\n"
      "WORK PHASE m IS:\n"
      "  PARALLELIZATION SCHEME IS MACROPIPELINE;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  JOBS IS 3;\n"
      "  STAGES IS 3;\n"
      "  INTERARRIVAL TIME IS DETERMINISTIC(4);\n"
      "  COMMUNICATION VOLUME IS 8;\n"
      "END;\n";
  expect_means(program, kLo, 2, {{Method::SeriesParallel, 84.0}, {Method::StateSpace, 84.0}});
}

// ---- P. PAIRED ----------------------------------------------------------------------------------

// Rule P2: neither the independent subtask's volume nor a phase-level COMMUNICATION VOLUME is
// sent. Two iterations (0 on processor 0, 1 on processor 1), DEPENDENCY 1, independent 10
// with 1000 bytes, dependent 5 without, on lo, p = 2. Exact: I0 0-10, I1 0-10, D0 10-15, D1
// after D0 by a plain arc (0 bytes): 15-20: 20. Approximate (P3): I^{⊕1} = 10, b = 0, level 1
// {0} 5 + msg(0; 1, 1) = 5, level 2 {1} 5: 20. Either volume sent would add 1 + 10 + 1.
TEST(Semantics, P2_TheIndependentVolumeIsNeverSent) {
  const auto paired = [](const std::string& phase_volume) {
    return "PROGRAM NAME IS 'loop';\n"
           "EXECUTION PATTERN IS l;\n"
           "WORK PHASE l IS:\n"
           "  PARALLELIZATION SCHEME IS PAIRED;\n"
           "  DEPENDENCY IS 1;\n"
           "  INDEPENDENT SUBTASK IS:\n"
           "    RUNTIME IS DETERMINISTIC(10);\n"
           "    COMMUNICATION VOLUME IS 1000;\n"
           "  END;\n"
           "  DEPENDENT SUBTASK IS:\n"
           "    RUNTIME IS DETERMINISTIC(5);\n"
           "  END;\n"
           "  PROBLEM SIZE IS VECTOR v(2);\n" +
           phase_volume + "END;\n";
  };
  expect_means(paired(""), kLo, 2, {{Method::StateSpace, 20.0}, {Method::SeriesParallel, 20.0}});
  expect_means(paired("  COMMUNICATION VOLUME IS 1000;\n"), kLo, 2,
               {{Method::StateSpace, 20.0}, {Method::SeriesParallel, 20.0}});
}

// ---- A. ARBITRARY -------------------------------------------------------------------------------

// Rule A1, positions with pinned tasks: dag() on the ideal machine, p = 2. Level 0 in
// declaration order: a (position 0, pinned to 1), b (position 1: processor 1), c (position 2:
// processor 0); level 1: d processor 0, e processor 1. Processor 0: c 0-30, d 30-35;
// processor 1: a 0-10, b 10-30, e 30-37. Both models 37 (approximate: max(30, 30) + max(5, 7)).
// Were positions counted without the pinned a, b would run on 0 and c on 1: e after c at 40,
// 47.
TEST(Semantics, A1_PinnedTasksTakeTheirTurnInTheLevel) {
  expect_means(dag("", "", "", ""), kIdeal, 2, {{Method::StateSpace, 37.0}, {Method::SeriesParallel, 37.0}});
}

// Rule A3 with messages: fan_out("8") on lo, p = 2. One message after M5 (u to processor 1, 8
// bytes): o = 1 to processor 0's sends and processor 1's receives in level 1, L = 8 into
// level 1. Level 0: u 10. Level 1: max sends + max receives = 2, t(8) = 10, processor 1's
// v + w = 20. 10 + 2 + 10 + 20 = 42.
TEST(Semantics, A3_MessagesAreChargedBeforeTheirReceivingLevel) {
  expect_means(fan_out("8"), kLo, 2, {{Method::SeriesParallel, 42.0}});
}

// Rule A4: levels cost no barrier, in either model, on a machine with b = 1000. dag() with
// a -> d and a -> e 100 bytes, b -> e 8, c -> e 0, on lob, p = 2 (placement as in A1).
// Exact: processor 1 runs a 0-10, its send to d 10-11 (spliced before b), b 11-31; the
// transfer 11-21; processor 0 runs c 0-30, the receive 30-31, d 31-36; e (a and b on its
// processor, c -> e 0 bytes: a plain arc) 31-38. Exact 38. Approximate: level 0 max(30, 30) =
// 30; level 1 (one message, a -> d): sends 1 + receives 1 = 2, t(100) = 10, max(5, 7) = 7: 19.
// 49. A barrier per level (or at the phase's start or end) would add 1000.
TEST(Semantics, A4_LevelsCostNoBarrier) {
  expect_means(dag("100", "100", "8", "0"), kLob, 2, {{Method::SeriesParallel, 49.0}, {Method::StateSpace, 38.0}});
}

// ---- S. Alternatives ----------------------------------------------------------------------------

// Rule S5: the concatenations around alternatives are required and have no effect. a, b, c, d
// each 2 tasks of 10 (one per processor), every pair BARRIER, on a machine with b = 100, p = 2.
// The alternatives block is closed on both sides with no barrier time (S4): a 10, the branch
// 10, d 10 in both scenarios: 30 in both models (130 or 230 if the BARRIER pairs applied).
TEST(Semantics, S5_ConcatenationsAroundAlternativesHaveNoEffect) {
  std::string program =
      "PROGRAM NAME IS 'branches';\n"
      "EXECUTION PATTERN IS a -> (0.5: b | 0.5: c) -> d;\n";
  for (const char* phase : {"a", "b", "c", "d"}) {
    program += std::string{"WORK PHASE "} + phase +
               " IS:\n"
               "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
               "  PROBLEM SIZE IS VECTOR x(2);\n"
               "END;\n";
  }
  program +=
      "CONCATENATION IS:\n"
      "  a, b : BARRIER;\n"
      "  a, c : BARRIER;\n"
      "  b, d : BARRIER;\n"
      "  c, d : BARRIER;\n"
      "END;\n";
  expect_means(program, kBarrier, 2, {{Method::StateSpace, 30.0}, {Method::SeriesParallel, 30.0}});
}

// ---- U. The approximate model against the exact one ---------------------------------------------

// Rule U2: with PAIRED the approximate mean may lie below the exact one. kPaired on the ideal
// machine, p = 2 (hand computation above K4_ContentionAfterAPairedPhase): approximate
// 20 + 5 + 5 = 30, exact 35.
TEST(Semantics, U2_PairedApproximationMayLieBelowTheExactMean) {
  expect_means(kPaired, kIdeal, 2, {{Method::SeriesParallel, 30.0}, {Method::StateSpace, 35.0}});
}

// Rule U3, the "below" note: kPaired on the ideal machine, p = 2, with approx and bounds. The
// bounds' lower end is at least the critical path of means, 35 (the exact makespan: so both
// ends are 35); approx (30) lies below it, so the table says so for p = 2.
TEST(Semantics, U3_TheTableNotesAnApproximationBelowTheLowerBound) {
  const auto study =
      analysis::run_study({case_of(kPaired, kIdeal)}, request_for({2}, {Method::SeriesParallel, Method::Bounds}));
  ASSERT_TRUE(study.ok());
  const solvers::Result& approx = study.value->at(0, 2, Method::SeriesParallel).result;
  const solvers::Result& bounds = study.value->at(0, 2, Method::Bounds).result;
  ASSERT_TRUE(approx.solved() && bounds.solved());
  EXPECT_NEAR(approx.upper, 30.0, 1e-9);
  EXPECT_NEAR(bounds.lower, 35.0, 1e-9);
  report::ReportInputs inputs;
  inputs.program_name = "loop";
  inputs.program_file = "test.pdl";
  inputs.machines = {{"ideal", "", {}, {}}};
  inputs.request = request_for({2}, {Method::SeriesParallel, Method::Bounds});
  const std::string table = report::render(*study.value, inputs, report::Format::Table);
  EXPECT_NE(table.find("approx lies below the lower bound of the exact mean for p = 2: it is no upper bound for "
                       "this program there"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("more than 10% above"), std::string::npos) << table;
}

// Rule U3 against Monte Carlo: kPaired on the ideal machine, p = 2, with approx and mc. The
// tasks are deterministic, so Monte Carlo's interval is the exact makespan 35 (zero width);
// approx (30) lies below 0.9 x 35 = 31.5, so the table says it is more than 10% below.
TEST(Semantics, U3_TheTableNotesAnApproximationFarFromMonteCarlo) {
  const analysis::Request request = request_for({2}, {Method::SeriesParallel, Method::MonteCarlo});
  const auto study = analysis::run_study({case_of(kPaired, kIdeal)}, request);
  ASSERT_TRUE(study.ok());
  const solvers::Result& sampled = study.value->at(0, 2, Method::MonteCarlo).result;
  ASSERT_TRUE(sampled.solved());
  EXPECT_NEAR(sampled.lower, 35.0, 1e-9);
  EXPECT_NEAR(sampled.upper, 35.0, 1e-9);
  report::ReportInputs inputs;
  inputs.program_name = "loop";
  inputs.program_file = "test.pdl";
  inputs.machines = {{"ideal", "", {}, {}}};
  inputs.request = request;
  const std::string table = report::render(*study.value, inputs, report::Format::Table);
  EXPECT_NE(table.find("approx lies more than 10% below the mc confidence interval of the exact mean for p = 2"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("10% above"), std::string::npos) << table;
}

}  // namespace
