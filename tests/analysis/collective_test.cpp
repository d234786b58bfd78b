// Issue 14: "each collective's cost equals its closed form for deterministic tasks in both
// models". Every processor runs one task of 10, takes part in the collective, then runs another
// task of 10, so T_P = 20 + C with C the collective's time from a common start
// (docs/semantics.md, section Q). The closed forms are worked out here from the rounds the
// docs give each algorithm, with o(L) and t(L) the machine's overhead and transfer and
// m(L) = 2 o(L) + t(L) one message from its send to its receive.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::case_of;
using test_support::request_for;

std::string program_with(const std::string& collective) {
  return "PROGRAM NAME IS 'collective';\n"
         "EXECUTION PATTERN IS w -> " +
         collective +
         " -> w;\n"
         "VARIABLE v = 1000;\n"
         "WORK PHASE w IS:\n"
         "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  PROBLEM SIZE IS VECTOR a(P);\n"
         "END;\n";
}

// o(L) = 2 + L/100 on each end, t(L) = 5 + L/1000 in flight: different enough that a send
// counted as a transfer, or a receive left out, changes every figure.
double o(double bytes) { return 2 + bytes / 100; }
double t(double bytes) { return 5 + bytes / 1000; }
double m(double bytes) { return 2 * o(bytes) + t(bytes); }

std::string machine_with(const std::string& algorithms) {
  return "MACHINE NAME IS 'logp';\n"
         "MESSAGE OVERHEAD IS 2 + L/100;\n"
         "COMMUNICATION TIME IS 5 + L/1000;\n"
         "BARRIER TIME IS 123;\n" +
         algorithms;
}

void expect_collective(const std::string& collective, const std::string& algorithms, int p, double closed) {
  const auto study = analysis::run_study({case_of(program_with(collective), machine_with(algorithms))},
                                         request_for({p}, {Method::SeriesParallel, Method::StateSpace}));
  ASSERT_TRUE(study.ok()) << collective;
  for (Method method : {Method::SeriesParallel, Method::StateSpace}) {
    const solvers::Result& result = study.value->at(0, p, method).result;
    ASSERT_TRUE(result.solved()) << collective << " " << algorithms << " p = " << p;
    EXPECT_NEAR(result.mean, 20 + closed, 1e-9 * (20 + closed))
        << collective << " " << algorithms << " p = " << p << " " << solvers::to_string(method);
  }
}

constexpr double kV = 1000;

TEST(Collective, Q_TreesTakeLog2PMessagesAndLinearOnesPOverheads) {
  for (int p : {2, 4, 8, 16, 64}) {
    const double rounds = std::log2(p);
    double subtrees = 0;  // a binomial gather or scatter: round k carries 2^k blocks
    for (int k = 0; k < rounds; ++k) subtrees += m(std::ldexp(kV, k));
    expect_collective("BROADCAST(v)", "", p, rounds * m(kV));
    expect_collective("REDUCE(v)", "", p, rounds * m(kV));
    expect_collective("GATHER(v)", "", p, subtrees);
    expect_collective("SCATTER(v)", "", p, subtrees);
    // The root's P - 1 sends (or receives) one after another; the last message's other end
    // adds t and o: (P - 1) o + t + o.
    expect_collective("BROADCAST(v)", "COLLECTIVE BROADCAST IS LINEAR;\n", p, p * o(kV) + t(kV));
    expect_collective("REDUCE(v)", "COLLECTIVE REDUCE IS LINEAR;\n", p, p * o(kV) + t(kV));
    expect_collective("GATHER(v)", "COLLECTIVE GATHER IS LINEAR;\n", p, p * o(kV) + t(kV));
    expect_collective("SCATTER(v)", "COLLECTIVE SCATTER IS LINEAR;\n", p, p * o(kV) + t(kV));
  }
}

TEST(Collective, Q_AllreduceAlltoallAndTheBarrier) {
  for (int p : {2, 4, 8, 16, 64}) {
    const double rounds = std::log2(p);
    expect_collective("ALLREDUCE(v)", "", p, rounds * m(kV));
    expect_collective("ALLREDUCE(v)", "COLLECTIVE ALLREDUCE IS RING;\n", p, 2 * (p - 1) * m(kV / p));
    expect_collective("ALLREDUCE(v)", "COLLECTIVE ALLREDUCE IS REDUCE BROADCAST;\n", p, 2 * rounds * m(kV));
    expect_collective("ALLTOALL(v)", "", p, (p - 1) * m(kV));
    expect_collective("SYNC", "", p, 123);
    expect_collective("SYNC", "COLLECTIVE BARRIER IS DISSEMINATION;\n", p, rounds * m(0));
  }
  // The dissemination barrier takes ceil(log2 P) rounds whatever P.
  expect_collective("SYNC", "COLLECTIVE BARRIER IS DISSEMINATION;\n", 6, 3 * m(0));
  expect_collective("SYNC", "COLLECTIVE BARRIER IS DISSEMINATION;\n", 5, 3 * m(0));
}

// P = 3, worked out by hand (a and b the sends, R the receives):
// - a binomial broadcast sends 0 -> 1 in round 0 and 0 -> 2 in round 1: processor 0 sends at
//   0..o and o..2o; processor 2 receives at 2o + t .. 3o + t, the end: 3o + t, less than the
//   2 m = 4o + 2t of ceil(log2 3) rounds.
// - recursive doubling on 3 (q = 2): 2 -> 0 (0 receives at o + t .. 2o + t); 0 and 1
//   exchange: 0 sends at 2o + t .. 3o + t, 1 sent at 0..o, so 0 receives at 3o + t .. 4o + t and
//   1 at 3o + 2t .. 4o + 2t; 0 -> 2: sent 4o + t .. 5o + t, received 5o + 2t .. 6o + 2t (not
//   3 m: the exchange's transfer overlaps processor 0's send).
TEST(Collective, Q_NonPowersOfTwoFollowTheRoundsNotTheLogarithm) {
  expect_collective("BROADCAST(v)", "", 3, 3 * o(kV) + t(kV));
  expect_collective("ALLREDUCE(v)", "", 3, 6 * o(kV) + 2 * t(kV));
}

// Without an overhead (o = 0) nothing occupies the processors: a linear broadcast's P - 1
// messages all fly at once (t), a binomial one still takes log2 P transfers in a chain.
TEST(Collective, Q_AMachineWithoutOverheadOverlapsTheMessages) {
  const std::string latency = "MACHINE NAME IS 'latency';\nCOMMUNICATION TIME IS 5 + L/1000;\n";
  for (int p : {4, 16}) {
    for (const auto& [algorithm, closed] :
         {std::pair<std::string, double>{"", std::log2(p) * t(kV)}, {"COLLECTIVE BROADCAST IS LINEAR;\n", t(kV)}}) {
      const auto study = analysis::run_study({case_of(program_with("BROADCAST(v)"), latency + algorithm)},
                                             request_for({p}, {Method::SeriesParallel, Method::StateSpace}));
      ASSERT_TRUE(study.ok());
      for (Method method : {Method::SeriesParallel, Method::StateSpace}) {
        EXPECT_NEAR(study.value->at(0, p, method).result.mean, 20 + closed, 1e-9) << algorithm << " p = " << p;
      }
    }
  }
}

// On one processor there is nothing to send (G4).
TEST(Collective, Q_OneProcessorSendsNothing) {
  expect_collective("ALLTOALL(v)", "", 1, 0);
  expect_collective("SYNC", "COLLECTIVE BARRIER IS DISSEMINATION;\n", 1, 0);
}

}  // namespace

namespace {

// docs/semantics.md Q2 with docs/machine.md "Topology and bandwidth sharing": a round's
// messages are sent at once and share links. Foster's butterfly (section 3.7): P tasks each
// exchange N/P words log2 P times; on a bus half the processors send at once, S = P/2, so
// T = log2 P (t_s + t_w (N/P) S) = log2 P (t_s + t_w N/2); on a crossbar S = 1. On a ring round
// k's messages travel 2^k hops and 2^k of them cross each link one way: S = 2^k. The machine
// charges Foster's t_s + t_w S L half on each processor, so one message from its send to its
// receive costs t_s + t_w S L.
TEST(Collective, Q_ABusSharesEachRoundsMessages) {
  const double ts = 40, tw = 0.0275, n = 4096;
  const std::string machine_text =
      "MACHINE NAME IS 'net';\n"
      "VARIABLE ts = 40;\n"
      "VARIABLE tw = 0.0275;\n"
      "COMMUNICATION TIME IS 0;\n"
      "MESSAGE OVERHEAD IS (ts + tw*S*L)/2;\n";
  const std::string butterfly =
      "PROGRAM NAME IS 'butterfly';\n"
      "EXECUTION PATTERN IS w -> ALLREDUCE(n/P) -> w;\n"
      "VARIABLE n = 4096;\n"
      "WORK PHASE w IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR a(P);\n"
      "END;\n";
  for (int p : {2, 4, 8, 16, 64}) {
    const double rounds = std::log2(p), words = n / p;
    double ring = 0;
    for (int k = 0; k < rounds; ++k) ring += ts + tw * words * std::ldexp(1.0, k);
    for (const auto& [topology, closed] : {std::pair<std::string, double>{"", rounds * (ts + tw * words)},
                                           {"TOPOLOGY IS BUS;\n", rounds * (ts + tw * n / 2)},
                                           {"TOPOLOGY IS RING;\n", ring}}) {
      const auto study = analysis::run_study({case_of(butterfly, machine_text + topology)},
                                             request_for({p}, {Method::SeriesParallel, Method::StateSpace}));
      ASSERT_TRUE(study.ok());
      for (Method method : {Method::SeriesParallel, Method::StateSpace}) {
        EXPECT_NEAR(study.value->at(0, p, method).result.mean, 20 + closed, 1e-9 * (20 + closed))
            << topology << " p = " << p << " " << solvers::to_string(method);
      }
    }
  }
}

// A binomial broadcast on a bus: round k has 2^k senders and 2^k receivers, S = 2^k.
TEST(Collective, Q_ABinomialBroadcastOnABusDoublesItsByteTermEachRound) {
  const std::string bus =
      "MACHINE NAME IS 'bus';\nTOPOLOGY IS BUS;\nMESSAGE OVERHEAD IS 2;\nCOMMUNICATION TIME IS 0.01*S*L;\n";
  const auto study = analysis::run_study({case_of(program_with("BROADCAST(v)"), bus)},
                                         request_for({8}, {Method::SeriesParallel, Method::StateSpace}));
  ASSERT_TRUE(study.ok());
  // Three rounds of 2o + t: 3 x 4 + 0.01 x 1000 x (1 + 2 + 4).
  for (Method method : {Method::SeriesParallel, Method::StateSpace}) {
    EXPECT_NEAR(study.value->at(0, 8, method).result.mean, 20 + 12 + 70, 1e-9) << solvers::to_string(method);
  }
}

}  // namespace

namespace {

// The exact model's size counts a collective's messages (Q4): a ring allreduce of 256
// processors sends 2 x 255 x 256 messages; with the 4096 tasks of allreduce.pdl's ten steps
// that is far above --max-exact-tasks, refused before the model is built.
TEST(Collective, Q_TheExactModelsSizeCountsTheMessages) {
  const auto study = analysis::run_study({case_of(test_support::read_file("examples/studies/allreduce.pdl"),
                                                  test_support::read_file("examples/machines/ibm-sp2-ring.machine"))},
                                         request_for({16, 256}, {Method::StateSpace}));
  ASSERT_TRUE(study.ok());
  EXPECT_TRUE(study.value->at(0, 16, Method::StateSpace).result.solved());
  const solvers::Result& big = study.value->at(0, 256, Method::StateSpace).result;
  ASSERT_FALSE(big.solved());
  EXPECT_EQ(big.unsolved->reason, solvers::Unsolved::Reason::ExactModelTooLarge);
  // 4096 tasks per step and 3 nodes for each of the 2 x 255 x 256 messages, ten steps.
  EXPECT_DOUBLE_EQ(big.unsolved->size, 10 * (4096 + 3 * 2 * 255 * 256.0));
}

}  // namespace
