// Fair sharing of ports (PORT SHARING IS FAIR;, docs/semantics.md M13) on small programs whose
// figures are worked out by hand in the comments, against first come, first served (M12).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

// t = 50 in flight, g(L) = L/10 on each port: 10 for 100 bytes.
const char* const kFirstCome =
    "MACHINE NAME IS 'first-come';\n"
    "COMMUNICATION TIME IS 50;\n"
    "PORT TIME IS 0.1*L;\n";
const char* const kFair =
    "MACHINE NAME IS 'fair';\n"
    "COMMUNICATION TIME IS 50;\n"
    "PORT TIME IS 0.1*L;\n"
    "PORT SHARING IS FAIR;\n";

// a (10) on processor 0 sends 100 bytes to b (20) on 1 and to c (1) on 2. First come, first
// served: b's message holds the port 10-20 and lands at 70, b ends at 90; c's 20-30, c ends at
// 81: 90. Fair: the two share processor 0's sending port from 10, each at half rate, and both
// leave it at 30: b ends at 30 + 50 + 20 = 100. ARBITRARY's approximate model (A3) charges the
// busiest port's total before the level, whatever the sharing: 10 + 20 + 50 + 20 = 100.
const char* const kFanOut =
    "PROGRAM NAME IS 'fan-out';\n"
    "EXECUTION PATTERN IS d;\n"
    "WORK PHASE d IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(20) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 2;\n"
    "  ARC a -> b VOLUME 100;\n"
    "  ARC a -> c VOLUME 100;\n"
    "END;\n";

TEST(PortSharing, M13_TwoMessagesFromOnePortShareItAndLeaveTogether) {
  expect_means(kFanOut, kFirstCome, 3, {{Method::StateSpace, 90.0}, {Method::SeriesParallel, 100.0}});
  expect_means(kFanOut, kFair, 3, {{Method::StateSpace, 100.0}, {Method::SeriesParallel, 100.0}});
}

// a (10) on 0 sends 100 bytes to b (20) and 200 bytes to c (1), both on processor 1: one
// connection, whose messages go one after another under either rule: b's 10-20, lands at 70, b
// ends at 90; c's 20-40, lands at 90, c ends at 91. Shared as two flows they would both be slowed
// (b's leaving at 30, c's at 40: 101).
const char* const kOneConnection =
    "PROGRAM NAME IS 'one-connection';\n"
    "EXECUTION PATTERN IS d;\n"
    "WORK PHASE d IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(20) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 1;\n"
    "  ARC a -> b VOLUME 100;\n"
    "  ARC a -> c VOLUME 200;\n"
    "END;\n";

TEST(PortSharing, M13_OneConnectionsMessagesGoOneAfterAnother) {
  expect_means(kOneConnection, kFirstCome, 2, {{Method::StateSpace, 91.0}});
  expect_means(kOneConnection, kFair, 2, {{Method::StateSpace, 91.0}});
}

// A binomial BROADCAST of 100 bytes after a task of 10, p = 4 (Q3: round 0: 0 -> 1; round 1:
// 0 -> 2 and 1 -> 3; a sender goes on at once). The root's two messages hold its port together.
// First come, first served: 0 -> 1 10-20, lands at 70; 0 -> 2 20-30; 1 -> 3 70-80, lands at 130.
// Fair: 0 -> 1 and 0 -> 2 share the port 10-30, 1 has its message at 80, 1 -> 3 80-90, lands at
// 140. The approximate model's collective (Q4) simulates the same rounds from a common start.
const char* const kBroadcast =
    "PROGRAM NAME IS 'broadcast';\n"
    "EXECUTION PATTERN IS w -> BROADCAST(100);\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
    "  PROBLEM SIZE IS VECTOR a(P);\n"
    "END;\n";

TEST(PortSharing, M13_ABroadcastsRootSharesItsPortAmongItsRounds) {
  expect_means(kBroadcast, kFirstCome, 4, {{Method::StateSpace, 130.0}, {Method::SeriesParallel, 130.0}});
  expect_means(kBroadcast, kFair, 4, {{Method::StateSpace, 140.0}, {Method::SeriesParallel, 140.0}});
}

// PORTS IS 2 with fair sharing: the two ports' capacity shared, no message faster than one
// port alone. a (10) on 0 sends 100 bytes to b, c and d (1 each) on 1, 2, 3: three messages at
// 2/3 of a port each leave at 10 + 15 = 25 and land at 75: 76. First come, first served with two
// ports: two at 10-20, the third 20-30: 81.
const char* const kThreeOut =
    "PROGRAM NAME IS 'three-out';\n"
    "EXECUTION PATTERN IS d;\n"
    "WORK PHASE d IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 2;\n"
    "  TASK d RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 3;\n"
    "  ARC a -> b VOLUME 100;\n"
    "  ARC a -> c VOLUME 100;\n"
    "  ARC a -> d VOLUME 100;\n"
    "END;\n";

TEST(PortSharing, M13_KPortsAreOnePoolSharedFairly) {
  expect_means(kThreeOut, std::string(kFirstCome) + "PORTS IS 2;\n", 4, {{Method::StateSpace, 81.0}});
  expect_means(kThreeOut, std::string(kFair) + "PORTS IS 2;\n", 4, {{Method::StateSpace, 76.0}});
}

}  // namespace
