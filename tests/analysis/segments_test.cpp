// Protocol segments of the message law (SEGMENT FROM b IS: ... END;, docs/semantics.md M14) on
// small programs whose figures are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "models/machine_constants.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;

// A ping-pong: ping on processor 0 sends `size` bytes to pong on 1, which sends them back: two
// messages, 2·t(size) in all (tasks of no time, no overhead).
const char* const kPingPong =
    "PROGRAM NAME IS 'pingpong';\n"
    "VARIABLE size = 1;\n"
    "EXECUTION PATTERN IS exchange;\n"
    "WORK PHASE exchange IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK ping RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 0;\n"
    "  TASK pong RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 1;\n"
    "  TASK back RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 0;\n"
    "  ARC ping -> pong -> back VOLUME size;\n"
    "END;\n";

// t = 2 + 0.001 L below 1,000 bytes, 5 + 0.0005 L from 1,000 (b1, a constant), 20 + 0.0002 L
// from 10,000.
const char* const kThreeSegments =
    "MACHINE NAME IS 'segments';\n"
    "VARIABLE b1 = 1000;\n"
    "COMMUNICATION TIME IS 2 + 0.001*L;\n"
    "SEGMENT FROM b1 IS:\n"
    "  COMMUNICATION TIME IS 5 + 0.0005*L;\n"
    "END;\n"
    "SEGMENT FROM 10000 IS: COMMUNICATION TIME IS 20 + 0.0002*L; END;\n";

TEST(Segments, M14_ASegmentGivesTheLawFromItsFirstByte) {
  const auto round_trip = [](double size, double expected) {
    expect_means(kPingPong, kThreeSegments, 2, {{Method::StateSpace, expected}, {Method::SeriesParallel, expected}},
                 {{"size", size}});
  };
  round_trip(999, 2 * (2 + 0.999));
  round_trip(1000, 2 * (5 + 0.5));
  round_trip(9999, 2 * (5 + 4.9995));
  round_trip(10000, 2 * (20 + 2));
  round_trip(100000, 2 * (20 + 20));
}

// --set b1=500 (models::with_constants) moves the breakpoint: 999 bytes are then in the second
// segment.
TEST(Segments, M14_ABreakpointIsAConstantThatSetMoves) {
  const models::Machine machine = test_support::machine_of_text(kThreeSegments);
  const models::MachineWithConstants moved = models::with_constants(machine, {{"b1", 500}});
  ASSERT_TRUE(moved.machine) << moved.error;
  const models::Program program = test_support::program_of_text(kPingPong, *moved.machine);
  const models::Binding binding = models::bind(program, *moved.machine, {{"size", 999}});
  ASSERT_TRUE(binding.ok());
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(program);
  one.machine = std::make_shared<const models::Machine>(*moved.machine);
  one.environment = binding.environment;
  const auto study = analysis::run_study({one}, test_support::request_for({2}, {Method::StateSpace}));
  ASSERT_TRUE(study.ok());
  EXPECT_NEAR(study.value->at(0, 2, Method::StateSpace).result.mean, 2 * (5 + 0.4995), 1e-9);
}

// A segment keeps what it does not say: o = 1 below and above 1,000 bytes, t changes.
TEST(Segments, M14_ASegmentKeepsTheStatementsItDoesNotGive) {
  const std::string machine =
      "MACHINE NAME IS 'keeps';\n"
      "COMMUNICATION TIME IS 2;\n"
      "MESSAGE OVERHEAD IS 1;\n"
      "SEGMENT FROM 1000 IS: COMMUNICATION TIME IS 7; END;\n";
  // Each message: o on its sender, t, o on its receiver.
  expect_means(kPingPong, machine, 2, {{Method::StateSpace, 2 * (1 + 2 + 1)}}, {{"size", 10}});
  expect_means(kPingPong, machine, 2, {{Method::StateSpace, 2 * (1 + 7 + 1)}}, {{"size", 1000}});
}

// A segment's PROTOCOL decides whether a message is rendezvous (M11), in place of the EAGER
// LIMIT. a (10) on 0 sends to c (1) on 1, after b (12) on 1; t = 5. Eager: the message lands at
// 15, c runs 15-16. Rendezvous: its transfer waits for c's receive, posted after b, at 12, and
// lands at 17: c ends at 18.
const char* const kLateReceiver =
    "PROGRAM NAME IS 'late-receiver';\n"
    "VARIABLE size = 1;\n"
    "EXECUTION PATTERN IS d;\n"
    "WORK PHASE d IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(12) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 1;\n"
    "  ARC a -> c VOLUME size;\n"
    "END;\n";

TEST(Segments, M14_ASegmentsProtocolDecidesRendezvousInsteadOfTheEagerLimit) {
  const std::string rendezvous_above =
      "MACHINE NAME IS 'rendezvous-above';\n"
      "COMMUNICATION TIME IS 5;\n"
      "SEGMENT FROM 50 IS: PROTOCOL IS RENDEZVOUS; END;\n";
  expect_means(kLateReceiver, rendezvous_above, 2, {{Method::StateSpace, 16.0}}, {{"size", 10}});
  expect_means(kLateReceiver, rendezvous_above, 2, {{Method::StateSpace, 18.0}}, {{"size", 100}});
  const std::string eager_above =
      "MACHINE NAME IS 'eager-above';\n"
      "COMMUNICATION TIME IS 5;\n"
      "EAGER LIMIT IS 0;\n"
      "SEGMENT FROM 50 IS: PROTOCOL IS EAGER; END;\n";
  expect_means(kLateReceiver, eager_above, 2, {{Method::StateSpace, 18.0}}, {{"size", 10}});
  expect_means(kLateReceiver, eager_above, 2, {{Method::StateSpace, 16.0}}, {{"size", 100}});
}

}  // namespace
