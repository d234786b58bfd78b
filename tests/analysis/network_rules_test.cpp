// The rules of docs/semantics.md for networks as clusters behave. M12, ports: a message of L bytes holds its sender's
// sending port and its receiver's receiving port for g(L) (the machine's PORT TIME), each port serving one message at a
// time, first come first served; then it flies for t(L) (COMMUNICATION TIME). F7, release messages: a FORK-JOIN phase's
// RELEASE VOLUME is a message from processor 0 to every other processor with tasks before each job. Each figure is
// worked out by hand in the comment above its test; deterministic tasks, so every method's mean is the longest path.
#include <gtest/gtest.h>

#include <string>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

// t = 50 in flight, g(L) = L/10 on each port: 10 for 100 bytes.
const char* const kPorts =
    "MACHINE NAME IS 'ports';\n"
    "COMMUNICATION TIME IS 50;\n"
    "PORT TIME IS 0.1*L;\n";
// The same costs for a message alone, without ports: t = 50 + L/10.
const char* const kNoPorts =
    "MACHINE NAME IS 'no-ports';\n"
    "COMMUNICATION TIME IS 50 + 0.1*L;\n";

// a (10) on processor 0, b (1) on 1 and c (1) on 2, with the given arcs.
std::string three_tasks(const std::string& arcs) {
  return "PROGRAM NAME IS 'three';\n"
         "EXECUTION PATTERN IS d;\n"
         "WORK PHASE d IS:\n"
         "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
         "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
         "  TASK b RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 1;\n"
         "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 2;\n" +
         arcs + "END;\n";
}

// a (10) on processor 0 sends 100 bytes to b and to c (1 each) on processors 1 and 2. Without
// ports both messages fly at once: 10 + 60 + 1 = 71. With ports processor 0's sending port
// passes them one after the other (10-20, 20-30); the second lands at 30 + 50 = 80 and its task
// ends at 81: two simultaneous messages through one port take twice the port time. ARBITRARY's
// approximate model (A3) charges the busiest port's port times into the level: 10 + 20 + 50 + 1.
const std::string kFanOut = three_tasks("  ARC a -> b VOLUME 100;\n  ARC a -> c VOLUME 100;\n");

TEST(Ports, M12_TwoMessagesThroughOnePortTakeTwiceThePortTime) {
  expect_means(kFanOut, kNoPorts, 3, {{Method::StateSpace, 71.0}, {Method::SeriesParallel, 71.0}});
  expect_means(kFanOut, kPorts, 3, {{Method::StateSpace, 81.0}, {Method::SeriesParallel, 81.0}});
}

// Two messages into processor 2's receiving port: a (10) on 0 and b (1) on 1 each send 100
// bytes to c (1) on 2. c declares a's arc first, but b's message is ready first (at 1): the
// port serves it 1-11, then a's 11-21, which lands at 71; c ends at 72. In the order the arcs
// are written, a's 10-20 and b's 20-30 would give 81. The approximate model charges both port
// times after the level: 10 + 20 + 50 + 1 = 81.
const std::string kFanIn = three_tasks("  ARC a -> c VOLUME 100;\n  ARC b -> c VOLUME 100;\n");

TEST(Ports, M12_APortServesItsMessagesInTheOrderTheyAreReady) {
  expect_means(kFanIn, kPorts, 3, {{Method::StateSpace, 72.0}, {Method::SeriesParallel, 81.0}});
}

// One job of 16 tasks of 10 on p processors, each sending its tasks' results (100 bytes a task)
// to the drain on processor 0 (F2). Each processor's 16/p tasks end at 160/p; the p - 1
// messages of L = 1600/p bytes queue at processor 0's receiving port, g = 160/p each: the last
// leaves it at 160/p + (p - 1)·160/p and lands t = 50 later. A gather of p - 1 messages into one
// port takes t_s + (p - 1)·t_w·L after the tasks: 160 + 50 = 210 for every p > 1. The
// approximate model (F6) charges the drain's port the same sum after the last send.
const char* const kGather =
    "PROGRAM NAME IS 'gather';\n"
    "EXECUTION PATTERN IS f;\n"
    "WORK PHASE f IS:\n"
    "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  JOBS IS 1;\n"
    "  TASKS PER JOB IS 16;\n"
    "  INTERARRIVAL TIME IS DETERMINISTIC(0);\n"
    "  JOIN RUNTIME IS DETERMINISTIC(0);\n"
    "  COMMUNICATION VOLUME IS 100;\n"
    "END;\n";

TEST(Ports, M12_AGatherIntoOnePortTakesTheLatencyPlusEveryPortTime) {
  expect_means(kGather, kPorts, 1, {{Method::StateSpace, 160.0}, {Method::SeriesParallel, 160.0}});
  for (int p : {2, 4, 8, 16}) {
    const double g = 0.1 * 1600.0 / p;
    const double closed = 160.0 / p + 50.0 + (p - 1) * g;
    EXPECT_NEAR(closed, 210.0, 1e-9);
    expect_means(kGather, kPorts, p, {{Method::StateSpace, closed}, {Method::SeriesParallel, closed}});
  }
}

// Two ports a direction (PORTS IS 2): the fan-out's two messages leave together, 10 + 60 + 1 =
// 71 as without ports; a gather of p - 1 = 7 results of 200 bytes (g = 20) into processor 0,
// ready at 20, leaves its two receiving ports two at a time: 40, 40, 60, 60, 80, 80, 100, and
// lands at 150 (⌈7/2⌉ port times); the approximate model's Graham bound, 7·20/2 + 20/2 = 80
// after the tasks, is the same here.
TEST(Ports, M12_KPortsServeKMessagesAtATime) {
  const std::string two = std::string(kPorts) + "PORTS IS 2;\n";
  expect_means(kFanOut, two, 3, {{Method::StateSpace, 71.0}, {Method::SeriesParallel, 71.0}});
  expect_means(kGather, two, 8, {{Method::StateSpace, 150.0}, {Method::SeriesParallel, 150.0}});
}

// Issue 48's case: a binomial REDUCE(50) after seven tasks of 10 on p = 5 (tasks 2, 2, 1, 1, 1:
// processors 0 and 1 end at 20, the others at 10), t = 5, g = 0.01·L = 0.5, two ports a
// direction. Round 0: 3 -> 2 lands at 10 + 0.5 + 5 = 15.5 and 1 -> 0 leaves its ports at 20.5;
// round 1: 2 -> 0 after 2's receive, ports 15.5-16; round 2: 4 -> 0 after 4's task, ports 10-10.5.
// Processor 0's receiving ports meet them as they come, 4's at 10, 2's at 15.5 and 1's at 20, a
// port free each time: the last lands at 20.5 + 5 = 25.5. Served by round instead (1's first),
// 2's would wait behind it and land at 21 + 5 = 26.
TEST(Ports, M12_AMessageTakesTheFirstFreePortInTheOrderMessagesComeNotByRound) {
  const std::string machine =
      "MACHINE NAME IS 'two-ports';\nCOMMUNICATION TIME IS 5;\nPORT TIME IS 0.01*L;\nPORTS IS 2;\n";
  const std::string program =
      "PROGRAM NAME IS 'reduce';\n"
      "EXECUTION PATTERN IS w -> REDUCE(50);\n"
      "WORK PHASE w IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR a(7);\n"
      "END;\n";
  expect_means(program, machine, 5, {{Method::StateSpace, 25.5}, {Method::MonteCarlo, 25.5}});
}

// A LINEAR gather of v = 100 bytes (Q): every processor r > 0 sends v to the root at once after
// its task of 10; the root's receiving port serves the p - 1 messages one after another, the
// last lands at (p - 1)·g(v) + t: 10 + 50 + 10·(p - 1), then the last task of 10. A binomial
// gather's rounds are one message per port each: round k's message of 2^k·v bytes costs
// g(2^k v) + t, so on p = 2^R it takes R·50 + 10·(2^R - 1).
std::string collective_program(const std::string& collective) {
  return "PROGRAM NAME IS 'collective';\n"
         "EXECUTION PATTERN IS w -> " +
         collective +
         " -> w;\n"
         "WORK PHASE w IS:\n"
         "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  PROBLEM SIZE IS VECTOR a(P);\n"
         "END;\n";
}

TEST(Ports, M12_ACollectivesRoundsQueueAtThePorts) {
  const std::string linear = std::string(kPorts) + "COLLECTIVE GATHER IS LINEAR;\n";
  for (int p : {2, 3, 8, 32}) {
    const double closed = 20.0 + 50.0 + 10.0 * (p - 1);
    expect_means(collective_program("GATHER(100)"), linear, p,
                 {{Method::StateSpace, closed}, {Method::SeriesParallel, closed}});
  }
  for (int rounds : {1, 3, 5}) {
    const int p = 1 << rounds;
    const double closed = 20.0 + rounds * 50.0 + 10.0 * (p - 1);
    expect_means(collective_program("GATHER(100)"), kPorts, p,
                 {{Method::StateSpace, closed}, {Method::SeriesParallel, closed}});
  }
}

// One job of `tasks` tasks of 10, no results, released with 100 bytes (F7). On p = 4 with four
// tasks: processor 0 sends the releases to 1, 2, 3 at once. Without ports each lands at 60 (t =
// 50 + 10) and the workers end at 70, processor 0 at 10. With ports processor 0's sending port
// passes them at 0-10, 10-20, 20-30: they land at 60, 70, 80 and the last worker ends at 90. The
// approximate model charges, before the job, msg(100; 3, 1) with 3 port times: 50 + 30, then 10.
// With RELEASE VOLUME IS 0 no message is sent (M3): 10. On p = 1 nothing to release: 40.
std::string released_job(const std::string& release) {
  return "PROGRAM NAME IS 'released';\n"
         "EXECUTION PATTERN IS f;\n"
         "WORK PHASE f IS:\n"
         "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
         "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
         "  JOBS IS 1;\n"
         "  TASKS PER JOB IS 4;\n"
         "  INTERARRIVAL TIME IS DETERMINISTIC(0);\n"
         "  RELEASE VOLUME IS " +
         release +
         ";\n"
         "END;\n";
}

TEST(Release, F7_EachJobStartsWithAMessageFromProcessor0ToEveryWorker) {
  expect_means(released_job("100"), kNoPorts, 4, {{Method::StateSpace, 70.0}, {Method::SeriesParallel, 70.0}});
  expect_means(released_job("100"), kPorts, 4, {{Method::StateSpace, 90.0}, {Method::SeriesParallel, 90.0}});
  expect_means(released_job("0"), kPorts, 4, {{Method::StateSpace, 10.0}, {Method::SeriesParallel, 10.0}});
  expect_means(released_job("100"), kPorts, 1, {{Method::StateSpace, 40.0}, {Method::SeriesParallel, 40.0}});
}

// Issue 48: M11 decides eager or rendezvous by each processor's own results, c_k·V. One job of 9
// tasks of 3 on p = 3: each processor runs 3 tasks (9) and sends 90 bytes, under the EAGER LIMIT
// of 100: eager. Processors 1 and 2 send at 9, their results land at 9 + 2 = 11, the drain of 1
// ends at 12: the exact model and F6's approximate one alike. Deciding by (⌊9/3⌋ + 1)·30 = 120
// bytes, a size no processor sends, made the approximate model rendezvous: 14.
TEST(Rendezvous, M11_AForkJoinsResultsAreEagerOrRendezvousByTheirOwnSize) {
  const std::string program =
      "PROGRAM NAME IS 'fj';\n"
      "EXECUTION PATTERN IS f;\n"
      "WORK PHASE f IS:\n"
      "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(3);\n"
      "  JOBS IS 1;\n"
      "  TASKS PER JOB IS 9;\n"
      "  INTERARRIVAL TIME IS DETERMINISTIC(0);\n"
      "  JOIN RUNTIME IS DETERMINISTIC(1);\n"
      "  COMMUNICATION VOLUME IS 30;\n"
      "END;\n";
  const std::string machine = "MACHINE NAME IS 'eager100';\nCOMMUNICATION TIME IS 2;\nEAGER LIMIT IS 100;\n";
  expect_means(program, machine, 3, {{Method::StateSpace, 12.0}, {Method::SeriesParallel, 12.0}});
}

// Issue 48: ARBITRARY, MACROPIPELINE and PAIRED price their messages as eager in the approximate
// model; where the machine makes one rendezvous (M11) the approximate figure is no bound (U2) and
// says so in its note, which the reports show under the table. An eager machine: no note.
TEST(Rendezvous, U2_ApproxSaysWhereItPricesRendezvousMessagesAsEager) {
  const std::string program = three_tasks("  ARC a -> b VOLUME 1000;\n");
  const auto note = [&](const std::string& machine) {
    const auto study = analysis::run_study({test_support::case_of(program, machine)},
                                           test_support::request_for({3}, {Method::SeriesParallel}));
    EXPECT_TRUE(study.ok());
    return study.ok() ? study.value->at(0, 3, Method::SeriesParallel).result.note : std::string();
  };
  EXPECT_NE(
      note("MACHINE NAME IS 'rv';\nCOMMUNICATION TIME IS 5;\nEAGER LIMIT IS 100;\n")
          .find("prices the rendezvous messages (by the machine's EAGER LIMIT or SEGMENT) of ARBITRARY phase 'd' as "
                "eager, so it is no upper bound"),
      std::string::npos);
  EXPECT_EQ(note("MACHINE NAME IS 'eager';\nCOMMUNICATION TIME IS 5;\nEAGER LIMIT IS 1000;\n"), "");
  EXPECT_EQ(note(kPorts), "");
}

}  // namespace
