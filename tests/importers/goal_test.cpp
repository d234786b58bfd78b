// The GOAL reader (docs/import.md): LogGOPSim's example schedules imported and solved on
// examples/machines/loggopsim.machine against the figures LogGOPSim gives (its README: 22,000 ns
// for dissemination_16.goal with its default parameters) and figures worked by hand from
// LogGOPSim's rules; small schedules whose programs are worked out by hand; and every refusal
// located at its place in the schedule.
#include <gtest/gtest.h>

#include <string>

#include "importers/goal.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

importers::ImportResult import_text(const std::string& text, const importers::ImportLimits& limits = {}) {
  return importers::read_goal({"test.goal", text, 0}, limits);
}

std::string imported_program(const std::string& text) {
  const importers::ImportResult result = import_text(text);
  EXPECT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  return result.imported ? result.imported->program : std::string();
}

// The one error of a refused schedule, formatted ("test.goal:LINE:COL: error: ...").
std::string refusal(const std::string& text, const importers::ImportLimits& limits = {}) {
  const importers::ImportResult result = import_text(text, limits);
  EXPECT_FALSE(result.imported.has_value());
  EXPECT_TRUE(pdl::has_errors(result.diagnostics));
  return pdl::format(result.diagnostics);
}

const std::string kIdeal = "MACHINE NAME IS 'ideal';\n";

double solved(const std::string& program, const std::string& machine, int p) {
  const auto study = analysis::run_study({test_support::case_of(program, machine)},
                                         test_support::request_for({p}, {solvers::Method::StateSpace}));
  EXPECT_TRUE(study.ok());
  const solvers::Result& result = study.value->at(0, p, solvers::Method::StateSpace).result;
  EXPECT_TRUE(result.solved());
  return result.mean;
}

// LogGOPSim's defaults: o = 1.5 us, L = 2.5 us, g = 1 us, G = 6 ns/B. A message of 1 byte alone
// ends o + L + o = 5.5 us after its send starts. Dissemination on 2^k ranks: k rounds, each a
// send and then (required) the next send after the receive, 5.5 us a round: 22 us on 16 ranks,
// 27.5 on 32. The binary tree of 16: rank 0 sends at 0, 1.5, 3, 4.5 (its cpu, o, is longer than
// g); the deepest chain 0 -> 1 -> 3 -> 7 -> 15 ends 5.5 + 3 * 5.5 = 22 us, and 0 -> 2 -> 6 -> 14
// at 1.5 + 5.5 + ... = 18.
TEST(GoalValidation, LogGOPSimExamplesTakeLogGOPSimsTimes) {
  const std::string machine = test_support::read_file("examples/machines/loggopsim.machine");
  const struct {
    const char* file;
    int ranks;
    double microseconds;
  } cases[] = {{"validation/goal/dissemination_16.goal", 16, 22.0},
               {"validation/goal/binary_tree_16.goal", 16, 22.0},
               {"validation/goal/dissemination_32.goal", 32, 27.5}};
  for (const auto& c : cases) {
    const std::string program = imported_program(test_support::read_file(c.file));
    EXPECT_NEAR(solved(program, machine, c.ranks), c.microseconds, 1e-9) << c.file;
  }
}

// Calc times in nanoseconds become microseconds. With a processor per rank on the ideal machine
// (messages free): processor 0 runs its tasks level by level (semantics.md A1, A2), both calcs
// (level 0: 2 + 0.25 us) before the send (level 1), so rank 1's receive ends at 2.25 and its calc
// at 3.75 us. (LogGOPSim could run the send before the 0.25 us calc: the order of a rank's ready
// operations is one of the differences docs/import.md lists.)
TEST(GoalMapping, CalcsSendsReceivesAndRequiresBecomeTasksAndArcs) {
  const std::string text =
      "num_ranks 2\n"
      "rank 0 {\n"
      "  l1: calc 2000\n"
      "  l2: send 64b to 1 tag 7\n"
      "  l2 requires l1\n"
      "  l3: calc 250\n"
      "}\n"
      "rank 1 {\n"
      "  r: recv 64b from 0 tag 7\n"
      "  c: calc 1500\n"
      "  c requires r\n"
      "}\n";
  const std::string program = imported_program(text);
  EXPECT_NE(program.find("PARALLELIZATION SCHEME IS ARBITRARY;"), std::string::npos) << program;
  EXPECT_NE(program.find("TASK c0_1 RUNTIME IS DETERMINISTIC(2) ON PROCESSOR 0;"), std::string::npos) << program;
  EXPECT_NE(program.find("TASK c0_3 RUNTIME IS DETERMINISTIC(0.25) ON PROCESSOR 0;"), std::string::npos);
  EXPECT_NE(program.find("TASK s0_2 RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 0;"), std::string::npos);
  EXPECT_NE(program.find("TASK r1_1 RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 1;"), std::string::npos);
  EXPECT_NE(program.find("ARC s0_2 -> r1_1 VOLUME 64;"), std::string::npos) << program;
  EXPECT_NE(program.find("ARC c0_1 -> s0_2;"), std::string::npos);
  EXPECT_NE(program.find("ARC r1_1 -> c1_2;"), std::string::npos);
  EXPECT_NEAR(solved(program, kIdeal, 2), 3.75, 1e-12);
  // On the LogGOPSim machine the message costs o + L + o = 5.5 us (64 bytes: its port time
  // g + 63 G = 1.378 us lies inside L) plus 63 G in the port: 2.25 + 5.5 + 63 * 0.006 + 1.5.
  const std::string machine = test_support::read_file("examples/machines/loggopsim.machine");
  EXPECT_NEAR(solved(program, machine, 2), 2.25 + 5.5 + 63 * 0.006 + 1.5, 1e-9);
}

// irequires of a receive: the dependent may start once the receive is posted, not once its
// message is in. Rank 1's calc (1 us) starts at 0 beside its receive, which waits for rank 0's
// 3 us calc: 3 us on the ideal machine; with requires it would be 4.
TEST(GoalMapping, IrequiresOfAReceiveWaitsForItsStartOnly) {
  const std::string schedule =
      "num_ranks 2\n"
      "rank 0 {\n l1: calc 3000\n l2: send 8b to 1 tag 0\n l2 requires l1\n}\n"
      "rank 1 {\n r: recv 8b from 0 tag 0\n c: calc 1000\n c KIND r\n}\n";
  const auto with = [&](const std::string& kind) {
    std::string text = schedule;
    text.replace(text.find("KIND"), 4, kind);
    return imported_program(text);
  };
  const std::string on_start = with("irequires");
  EXPECT_NE(on_start.find("TASK p1_1 RUNTIME IS DETERMINISTIC(0) ON PROCESSOR 1;"), std::string::npos) << on_start;
  EXPECT_NEAR(solved(on_start, kIdeal, 2), 3.0, 1e-12);
  EXPECT_NEAR(solved(with("requires"), kIdeal, 2), 4.0, 1e-12);
}

// MPI's matching: the k-th send from a rank to another with a tag meets the k-th receive there.
TEST(GoalMapping, MessagesMatchInOrderPerSourceDestinationAndTag) {
  const std::string program = imported_program(
      "num_ranks 2\n"
      "rank 0 {\n send 10b to 1 tag 1\n send 20b to 1 tag 2\n send 30b to 1 tag 1\n}\n"
      "rank 1 {\n recv 20b from 0 tag 2\n recv 10b from 0 tag 1\n recv 30b from 0 tag 1\n}\n");
  EXPECT_NE(program.find("ARC s0_1 -> r1_2 VOLUME 10;"), std::string::npos) << program;
  EXPECT_NE(program.find("ARC s0_2 -> r1_1 VOLUME 20;"), std::string::npos);
  EXPECT_NE(program.find("ARC s0_3 -> r1_3 VOLUME 30;"), std::string::npos);
}

TEST(GoalErrors, AnUnmatchedSendIsRefusedAtTheSend) {
  const std::string text = "num_ranks 2\nrank 0 {\n  send 8b to 1 tag 3\n}\nrank 1 {\n  calc 5\n}\n";
  const std::string message = refusal(text);
  EXPECT_NE(message.find("test.goal:3:3: error: this send to rank 1 with tag 3 has no receive to match it"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("^"), std::string::npos);
}

TEST(GoalErrors, ACycleIsRefusedAndNamed) {
  const std::string message = refusal(
      "num_ranks 2\n"
      "rank 0 {\n a: recv 1b from 1 tag 0\n b: send 1b to 1 tag 0\n b requires a\n}\n"
      "rank 1 {\n a: recv 1b from 0 tag 0\n b: send 1b to 0 tag 0\n b requires a\n}\n");
  EXPECT_NE(message.find("test.goal:3:2: error: these operations wait for each other in a cycle"), std::string::npos)
      << message;
  EXPECT_NE(message.find("rank 0 a (recv from 1)"), std::string::npos) << message;
}

TEST(GoalErrors, NumbersAndRanksOutOfRangeAreRefusedWhereTheyAre) {
  EXPECT_NE(refusal("num_ranks 2\nrank 0 {\n  send -8b to 1\n}\n").find("test.goal:3:8: error:"), std::string::npos);
  EXPECT_NE(refusal("num_ranks 2\nrank 0 {\n  calc 1.5\n}\n").find("test.goal:3:8: error:"), std::string::npos);
  EXPECT_NE(refusal("num_ranks 2\nrank 0 {\n  send 8b to 5 tag 0\n}\n")
                .find("test.goal:3:14: error: rank 5 is outside num_ranks 2"),
            std::string::npos);
  EXPECT_NE(refusal("num_ranks 2\nrank 1 {\n  recv 8b from -1 tag 0\n}\n").find("test.goal:3:16: error:"),
            std::string::npos);
  EXPECT_NE(refusal("num_ranks 2\nrank 0 {\n  calc 5\n").find("error: the file ends inside the block of rank 0"),
            std::string::npos);
  EXPECT_NE(refusal("rank 0 {\n  calc 5\n}\n").find("test.goal:1:1: error:"), std::string::npos);
}

// A program larger than the PDL reader takes is refused at the operation where it becomes so,
// long before the end of the schedule: here a million calcs against a 64 KiB bound.
TEST(GoalLimits, AProgramTooLargeIsRefusedAtTheOperationThatCrossesTheBound) {
  std::string text = "num_ranks 1\nrank 0 {\n";
  for (int i = 0; i < 1'000'000; ++i) text += "calc 1\n";
  text += "}\n";
  const std::string message = refusal(text, {.max_program_bytes = 64 * 1024, .memory_budget_bytes = 0});
  const auto at = message.find("test.goal:");
  ASSERT_NE(at, std::string::npos) << message;
  const long line = std::stol(message.substr(at + 10));
  EXPECT_GT(line, 1000);
  EXPECT_LT(line, 3000) << message;  // about 64 KiB / 50 bytes a TASK line
  EXPECT_NE(message.find("passes 64.0 KiB here"), std::string::npos) << message;
}

TEST(GoalLimits, AMemoryBudgetIsRefusedWhereItIsCrossed) {
  std::string text = "num_ranks 1\nrank 0 {\n";
  for (int i = 0; i < 100'000; ++i) text += "calc 1\n";
  text += "}\n";
  const std::string message = refusal(text, {.max_program_bytes = 0, .memory_budget_bytes = 2 << 20});
  EXPECT_NE(message.find("more than the memory budget of 2.0 MiB"), std::string::npos) << message;
}

TEST(GoalLimits, ACutInputIsRefusedAtTheEndOfThePartHeld) {
  const std::string whole = "num_ranks 1\nrank 0 {\n  calc 5\n  calc 6\n}\n";
  const std::string held = whole.substr(0, 25);
  const importers::ImportResult result =
      importers::read_goal({"test.goal", held, whole.size()}, {.max_program_bytes = 0, .memory_budget_bytes = 50});
  ASSERT_FALSE(result.imported.has_value());
  EXPECT_NE(pdl::format(result.diagnostics).find("the import holds only its first"), std::string::npos)
      << pdl::format(result.diagnostics);
}

}  // namespace
