// Rules of docs/semantics.md pinned by programs whose figures are worked out by hand from the
// rule (deterministic tasks: every method's mean is the longest path), and the textbook's
// closed form. Each test names the rule it pins.
#include <gtest/gtest.h>

#include <string>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "scaling/exact_model.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::read_file;

using test_support::case_of;
using test_support::expect_means;
using test_support::request_for;

// Exact to rounding: the figures below are sums of a few decimal fractions.
constexpr double kExact = 1e-12;

double mean_of(const analysis::StudyResult& study, int p, solvers::Method method) {
  const solvers::Result& result = study.at(0, p, method).result;
  EXPECT_TRUE(result.solved()) << "p = " << p;
  return result.mean;
}

// A machine whose message costs 1.5 of transfer (0.5 + 0.01 L for 100 bytes) and 0.25 of
// overhead on each side.
const char* const kMessageMachine =
    "MACHINE NAME IS 'm';\n"
    "COMMUNICATION TIME IS 0.5 + 0.01*L;\n"
    "MESSAGE OVERHEAD IS 0.25;\n";

// Issue 11, messages as in the textbooks, rules M1-M3 and N1. Before, a NEIGHBOR instance sent
// one message per processor and a message was a pure delay: Foster's 1-D finite-difference
// stencil (N = 256 planes, Nz = 10, t_c = 1 us, t_s = 100 us, t_w = 0.4 us per word) had
// efficiency 0.544 at P = 256 where the textbook's model gives 0.373. Now each processor sends
// its boundary to each neighbour, and MESSAGE OVERHEAD is processor time: with the textbook
// machine (half of t_s + t_w L on the sender, half on the receiver, no latency) both models
// give the textbook's E = t_c N^2 Nz / (t_c N^2 Nz + 2 P t_s + 4 P t_w N Nz); with the same
// cost as pure latency (latency.machine) the two messages travel together, E = 0.544.
TEST(Semantics, M1_TextbookStencilEfficiencyFromTheOverhead) {
  const std::string program = read_file("examples/studies/stencil_1d.pdl");
  const double n = 256, nz = 10, tc = 1, ts = 100, tw_word = 0.4, steps = 4;
  const auto textbook = [&](double p) {
    return tc * n * n * nz / (tc * n * n * nz + 2 * p * ts + 4 * p * tw_word * n * nz);
  };
  const analysis::Request request =
      request_for({1, 128, 256}, {solvers::Method::SeriesParallel, solvers::Method::StateSpace});
  const auto on_textbook =
      analysis::run_study({case_of(program, read_file("examples/machines/textbook.machine"))}, request);
  ASSERT_TRUE(on_textbook.ok());
  for (int p : {128, 256}) {
    for (solvers::Method method : request.methods) {
      const double t1 = mean_of(*on_textbook.value, 1, method);
      EXPECT_NEAR(t1, steps * tc * n * n * nz, 1e-6);
      EXPECT_NEAR(t1 / (p * mean_of(*on_textbook.value, p, method)), textbook(p), 1e-12) << p;
    }
  }
  EXPECT_NEAR(textbook(256), 0.3734, 1e-4);
  const auto on_latency =
      analysis::run_study({case_of(program, read_file("examples/machines/latency.machine"))}, request);
  ASSERT_TRUE(on_latency.ok());
  const double message = ts + tw_word * 2 * n * nz;  // one boundary of 2 N Nz words
  for (solvers::Method method : request.methods) {
    EXPECT_NEAR(mean_of(*on_latency.value, 256, method), steps * (tc * n * nz + message), 1e-6);
  }
  EXPECT_NEAR(tc * n * nz / (tc * n * nz + message), 0.5438, 1e-4);
}

// The machine library's table of Foster's message costs (examples/machines/*.machine, from the
// chapter's section 3.3.1): on each machine the 1-D stencil's efficiency is the chapter's
// closed form E = t_c N^2 Nz / (t_c N^2 Nz + 2 P t_s + 4 P t_w N Nz), t_w per 4-byte word, in
// the approximate and the exact model. The figures are computed here from the table's numbers,
// not read from the files.
TEST(Semantics, M2_FostersMachineTableGivesTheChaptersEfficiency) {
  const std::string program = read_file("examples/studies/stencil_1d.pdl");
  const double n = 256, nz = 10, tc = 1;
  struct Row {
    const char* file;
    double ts, tw_word;
  };
  const Row table[] = {{"ibm-sp2", 40, 0.11},   {"intel-delta", 77, 0.54}, {"intel-paragon", 121, 0.07},
                       {"meiko-cs2", 87, 0.08}, {"ncube2", 154, 2.4},      {"cm5", 82, 0.44},
                       {"ethernet", 1500, 5.0}, {"fddi", 1150, 1.1}};
  const analysis::Request request =
      request_for({1, 16, 64}, {solvers::Method::SeriesParallel, solvers::Method::StateSpace});
  for (const Row& row : table) {
    const auto study = analysis::run_study(
        {case_of(program, read_file(std::string("examples/machines/") + row.file + ".machine"))}, request);
    ASSERT_TRUE(study.ok()) << row.file;
    for (int p : {16, 64}) {
      const double foster = tc * n * n * nz / (tc * n * n * nz + 2 * p * row.ts + 4 * p * row.tw_word * n * nz);
      for (solvers::Method method : request.methods) {
        const double t1 = mean_of(*study.value, 1, method);
        EXPECT_NEAR(t1 / (p * mean_of(*study.value, p, method)), foster, 1e-12) << row.file << " p = " << p;
      }
    }
  }
}

// Issue 11, the NEIGHBOR exchange, rules N2-N3 (docs: "every NEIGHBOR instance exchanges its
// boundary"). Before, the exact model sent no boundary after a SERIAL concatenation (nor after
// the last instance) while the approximate model charged it: examples/schemes/neighbor.pdl on
// the cluster at p = 2 gave approx 2165.0 against the exact mean 1709.8 (Monte Carlo), 27%
// apart. Hand-worked: 4 columns of 1 on 2 processors, 100 bytes, then SERIAL 4 checks of 0.5.
// Exact: processor 1 sends its first column right after computing it (1 + 0.25), processor 0
// its last (2 + 0.25); each receive waits for the transfer: processor 0 receives at
// 1.25 + 1.5 = 2.75 until 3, processor 1 at 2.25 + 1.5 = 3.75 until 4; then two checks each:
// 4 + 1 = 5. Approximate: each processor 2 columns, two sends, the transfer, two receives
// (2 + 0.5 + 1.5 + 0.5 = 4.5), a neighbour synchronisation as a free barrier, the checks: 5.5.
TEST(Semantics, N2_TheBoundaryIsExchangedBeforeSerialWork) {
  const std::string program =
      "PROGRAM NAME IS 'exchange';\n"
      "EXECUTION PATTERN IS relax -> check;\n"
      "WORK PHASE relax IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
      "  PROBLEM SIZE IS VECTOR a(4);\n"
      "  COMMUNICATION VOLUME IS 100;\n"
      "END;\n"
      "WORK PHASE check IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(0.5);\n"
      "  PROBLEM SIZE IS VECTOR a(4);\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  relax, check : SERIAL;\n"
      "END;\n";
  const auto study = analysis::run_study(
      {case_of(program, kMessageMachine)},
      request_for({2}, {solvers::Method::SeriesParallel, solvers::Method::StateSpace, solvers::Method::Bounds}));
  ASSERT_TRUE(study.ok());
  EXPECT_NEAR(mean_of(*study.value, 2, solvers::Method::StateSpace), 5.0, kExact);
  EXPECT_NEAR(mean_of(*study.value, 2, solvers::Method::SeriesParallel), 5.5, kExact);
  const solvers::Result& bounds = study.value->at(0, 2, solvers::Method::Bounds).result;
  EXPECT_NEAR(bounds.lower, 5.0, 1e-9);
  EXPECT_NEAR(bounds.upper, 5.0, 1e-9);
}

// Rule M2: a message's overhead occupies the sender right after the sending task and the
// receiver right before the receiving task; the transfer only delays. ARBITRARY a -> b across
// processors and a -> c on a's processor, 100 bytes each, tasks of 1: processor 0 runs a
// (0-1), the send (1-1.25), c (1.25-2.25); the transfer ends at 2.75, processor 1 receives
// until 3 and runs b until 4. The approximate model charges before level 1 the most any
// processor sends (0.25), the transfer (1.5) and the most any receives (0.25): 1 + 2 + 1 = 4.
TEST(Semantics, M2_OverheadOccupiesTheSenderAndTheReceiver) {
  const std::string program =
      "PROGRAM NAME IS 'dag';\n"
      "EXECUTION PATTERN IS g;\n"
      "WORK PHASE g IS:\n"
      "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "  TASK a RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 0;\n"
      "  TASK b RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 1;\n"
      "  TASK c RUNTIME IS DETERMINISTIC(1) ON PROCESSOR 0;\n"
      "  ARC a -> b VOLUME 100;\n"
      "  ARC a -> c VOLUME 100;\n"
      "END;\n";
  expect_means(program, kMessageMachine, 2,
               {{solvers::Method::SeriesParallel, 4.0}, {solvers::Method::StateSpace, 4.0}}, {}, kExact);
}

// Rule F2: FORK-JOIN's drain on processor 0 receives the other processors' results one after
// another, after its own tasks. One job of 3 tasks of 1 on 3 processors, 100 bytes per task:
// processors 1 and 2 send at 1 (until 1.25), the transfers end at 2.75, processor 0 receives
// 2.75-3 and 3-3.25, then the drain of 0.5: 3.75. The approximate model: the slowest
// processor's task, send and transfer (2.75), then both receive overheads (0.5), the drain:
// 3.75.
TEST(Semantics, F2_TheDrainReceivesOneResultAfterAnother) {
  const std::string program =
      "PROGRAM NAME IS 'farm';\n"
      "EXECUTION PATTERN IS f;\n"
      "WORK PHASE f IS:\n"
      "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
      "  JOBS IS 1;\n"
      "  TASKS PER JOB IS 3;\n"
      "  INTERARRIVAL TIME IS DETERMINISTIC(0);\n"
      "  JOIN RUNTIME IS DETERMINISTIC(0.5);\n"
      "  COMMUNICATION VOLUME IS 100;\n"
      "END;\n";
  expect_means(program, kMessageMachine, 3,
               {{solvers::Method::SeriesParallel, 3.75}, {solvers::Method::StateSpace, 3.75}}, {}, kExact);
}

// Rule G8: a phase whose size is 0 for some p keeps its place and its concatenations in both
// models. a, a DYNAMIC pool of max(P - 2, 0) tasks, b (2 tasks of 10 each, BLOCK); a, d
// BARRIER (100 on this machine), d, b SERIAL, a, b SERIAL. At p = 2 the pool is empty: a (10),
// the barrier (100), b (10) = 120 in both models. Before, the approximate model left the empty
// pool out and joined a to b by SERIAL: 20, below the exact model.
TEST(Semantics, G8_APhaseOfNoTasksKeepsItsConcatenations) {
  const std::string program =
      "PROGRAM NAME IS 'g8';\n"
      "EXECUTION PATTERN IS a -> d -> b;\n"
      "WORK PHASE a IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR x(2);\n"
      "END;\n"
      "WORK PHASE d IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR y(max(P - 2, 0));\n"
      "  SCHEDULING IS DYNAMIC;\n"
      "END;\n"
      "WORK PHASE b IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR z(2);\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  a, d : BARRIER;\n"
      "  d, b : SERIAL;\n"
      "  a, b : SERIAL;\n"
      "END;\n";
  expect_means(program, "MACHINE NAME IS 'b';\nBARRIER TIME IS 100;\n", 2,
               {{solvers::Method::SeriesParallel, 120.0}, {solvers::Method::StateSpace, 120.0}}, {}, kExact);
}

// Rule C4: the neighbour dependences between two unit instances wrap around when either
// instance is a NEIGHBOR-TORUS. A NEIGHBOR-TORUS a of 6 columns followed under NEIGHBOR by a
// NEIGHBOR b of 6 on 3 processors, 8 bytes, a transfer of 10: each processor sends its two
// boundaries, 6 messages (before, the wrap-around pair was never sent: 4). The final exchange
// of b, which is no torus, adds its 4 inner-boundary messages.
TEST(Semantics, C4_ATorusInstanceSendsItsWrapAroundBoundaryToTheNext) {
  const std::string program =
      "PROGRAM NAME IS 'ring';\n"
      "EXECUTION PATTERN IS a -> b;\n"
      "WORK PHASE a IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR-TORUS;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
      "  PROBLEM SIZE IS VECTOR x(6);\n"
      "  COMMUNICATION VOLUME IS 8;\n"
      "END;\n"
      "WORK PHASE b IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
      "  PROBLEM SIZE IS VECTOR y(6);\n"
      "  COMMUNICATION VOLUME IS 8;\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  a, b : NEIGHBOR;\n"
      "END;\n";
  const analysis::Case one = case_of(program, "MACHINE NAME IS 't';\nCOMMUNICATION TIME IS 10;\n");
  const scaling::ExactModel model = scaling::exact_model(*one.program, *one.machine, one.environment, 3, {});
  ASSERT_EQ(model.scenarios.size(), 1u);
  const graph::TaskGraph& g = model.scenarios.front().graph;
  int messages = 0;
  for (graph::NodeId v = 0; v < g.node_count(); ++v) {
    if (g.node(v).kind == graph::NodeKind::Communication && g.node(v).processor < 0) ++messages;
  }
  EXPECT_EQ(messages, 6 + 4);
}

// Rule F3, a job of no tasks (a count that is 0 for some p: the checker refuses a literal 0):
// the drain right after the job's start. Two jobs of max(P - 2, 0) tasks, a
// drain of 1 each, no interarrival time, on 2 processors: 1 + 1 = 2 in both models.
TEST(Semantics, F3_AJobOfNoTasksIsItsDrain) {
  const std::string program =
      "PROGRAM NAME IS 'drains';\n"
      "EXECUTION PATTERN IS f;\n"
      "WORK PHASE f IS:\n"
      "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(5);\n"
      "  JOBS IS 2;\n"
      "  TASKS PER JOB IS max(P - 2, 0);\n"
      "  INTERARRIVAL TIME IS DETERMINISTIC(0);\n"
      "  JOIN RUNTIME IS DETERMINISTIC(1);\n"
      "  COMMUNICATION VOLUME IS 100;\n"
      "END;\n";
  expect_means(program, kMessageMachine, 2,
               {{solvers::Method::SeriesParallel, 2.0}, {solvers::Method::StateSpace, 2.0}}, {}, kExact);
}

// Issue 11, an approximate model worth its name for communicating programs. Before, wherever
// messages were priced the approximate model was far above the exact one: on the cluster at
// p = 2, examples/schemes/neighbor.pdl 2165.0 against 1709.8 (Monte Carlo of the exact model),
// neighbor_torus.pdl 361.3 against 302.2. Now, with the same exchange in both models, the
// approximate mean lies above the exact one (within Monte Carlo's error) and within 10% of it
// on these examples. Not here, and flagged by the report: MACROPIPELINE (the first job and the
// pace of the slowest block: 20-24% above; before, wavefront barriers, 5.5x) and the paper's
// 10-column example at p = 2 (29%: its exact model overlaps the boundary messages with the
// interior columns).
TEST(Semantics, ApproximationWithinTenPercentOnTheClusterExamples) {
  const std::string cluster = read_file("examples/machines/cluster.machine");
  analysis::Request request = request_for({2, 4, 8}, {solvers::Method::SeriesParallel, solvers::Method::MonteCarlo});
  request.solver_options.monte_carlo.relative_precision = 2e-3;
  for (const char* example :
       {"examples/schemes/neighbor.pdl", "examples/schemes/neighbor_torus.pdl", "examples/schemes/fork_join.pdl",
        "examples/schemes/arbitrary.pdl", "examples/schemes/paired.pdl", "examples/schemes/independent.pdl"}) {
    const auto study = analysis::run_study({case_of(read_file(example), cluster)}, request);
    ASSERT_TRUE(study.ok()) << example;
    for (int p : request.processors) {
      const solvers::Result& mc = study.value->at(0, p, solvers::Method::MonteCarlo).result;
      const solvers::Result& approx = study.value->at(0, p, solvers::Method::SeriesParallel).result;
      ASSERT_TRUE(mc.solved() && approx.solved()) << example << " p = " << p;
      const double five_se = 5.0 / 1.959964 * (mc.upper - mc.mean);
      EXPECT_GE(approx.upper, mc.mean - five_se) << example << " p = " << p;
      EXPECT_LE(approx.lower, 1.10 * mc.mean) << example << " p = " << p;
    }
  }
}

}  // namespace
