// The 2-D NEIGHBOR decomposition (DECOMPOSITION IS 2D, docs/semantics.md N6-N8) against figures
// worked out by hand from the rules and against the textbook's closed form for Foster's 2-D
// finite-difference decomposition (deterministic tasks: every method's mean is the longest path).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::read_file;

using test_support::case_of;
using test_support::expect_means;
using test_support::request_for;

// A 2-D NEIGHBOR phase `relax` over GRID g(rows, columns), 10 bytes per edge point, run as
// `pattern`; `joined` adds the NEIGHBOR concatenation of relax with itself.
std::string grid_program(const std::string& pattern, const std::string& runtime, int rows, int columns, bool joined) {
  return "PROGRAM NAME IS 'grid';\n"
         "EXECUTION PATTERN IS " +
         pattern +
         ";\n"
         "WORK PHASE relax IS:\n"
         "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
         "  DECOMPOSITION IS 2D;\n"
         "  SUBTASK RUNTIME IS " +
         runtime +
         ";\n"
         "  PROBLEM SIZE IS GRID g(" +
         std::to_string(rows) + ", " + std::to_string(columns) +
         ");\n"
         "  COMMUNICATION VOLUME IS 10;\n"
         "END;\n" +
         (joined ? "CONCATENATION IS: relax, relax : NEIGHBOR; END;\n" : "");
}

double mean_of(const analysis::StudyResult& study, int p, solvers::Method method) {
  const solvers::Result& result = study.at(0, p, method).result;
  EXPECT_TRUE(result.solved()) << "p = " << p;
  return result.mean;
}

// Foster's 2-D decomposition (examples/studies/stencil_2d.pdl with N = 48, so that sqrt(P)
// divides N for every P below): per step a processor computes its (N / sqrt(P))^2 columns of
// Nz points and exchanges 2 (N / sqrt(P)) Nz words with each of 4 neighbours, so
//   T = steps (t_c N^2 Nz / P + 4 t_s + 8 t_w N Nz / sqrt(P)),
//   E = t_c N^2 Nz / (t_c N^2 Nz + 4 P t_s + 8 sqrt(P) t_w N Nz),
// t_w per 4-byte word. The prediction is the slowest processor's, an interior one with four
// neighbours, so the formula holds where sqrt(P) >= 3 (P = 9, 16, 64, 256); the figures come
// from the chapter's table (the same numbers as M2_FostersMachineTableGivesTheChaptersEfficiency),
// not from the machine files.
TEST(Semantics, N7_FostersTwoDimensionalStencilGivesTheChaptersTime) {
  const std::string program = read_file("examples/studies/stencil_2d.pdl");
  const double n = 48, nz = 10, tc = 1, steps = 4;
  struct Row {
    const char* file;
    double ts, tw_word;
  };
  const Row table[] = {{"textbook", 100, 0.4}, {"ibm-sp2", 40, 0.11}, {"ncube2", 154, 2.4}};
  const std::vector<int> processors{1, 9, 16, 64, 256};
  const analysis::Request request =
      request_for(processors, {solvers::Method::SeriesParallel, solvers::Method::StateSpace});
  for (const Row& row : table) {
    const auto study = analysis::run_study(
        {case_of(program, read_file(std::string("examples/machines/") + row.file + ".machine"), {{"n", n}})}, request);
    ASSERT_TRUE(study.ok()) << row.file;
    for (int p : processors) {
      if (p == 1) continue;
      const double root = std::sqrt(static_cast<double>(p));
      const double foster = steps * (tc * n * n * nz / p + 4 * row.ts + 8 * row.tw_word * n * nz / root);
      const double efficiency = tc * n * n * nz / (tc * n * n * nz + 4 * p * row.ts + 8 * root * row.tw_word * n * nz);
      for (solvers::Method method : request.methods) {
        const double t1 = mean_of(*study.value, 1, method);
        EXPECT_NEAR(t1, steps * tc * n * n * nz, 1e-6);
        EXPECT_NEAR(mean_of(*study.value, p, method), foster, 1e-6 * foster) << row.file << " p = " << p;
        EXPECT_NEAR(t1 / (p * mean_of(*study.value, p, method)), efficiency, 1e-12) << row.file << " p = " << p;
      }
    }
  }
}

// The example as shipped (N = 256, the 1-D example's grid) at P = 16 in the approximate model,
// against the chapter's E at the textbook machine's t_s = 100, t_w = 0.4; at P = 16 that is
// 655360 / (655360 + 6400 + 32768) = 0.94360.
TEST(Semantics, N7_TheShippedTwoDimensionalExampleGivesTheChaptersEfficiency) {
  const std::string program = read_file("examples/studies/stencil_2d.pdl");
  const double n = 256, nz = 10, tc = 1, ts = 100, tw = 0.4;
  const auto study = analysis::run_study({case_of(program, read_file("examples/machines/textbook.machine"))},
                                         request_for({1, 16, 64}, {solvers::Method::SeriesParallel}));
  ASSERT_TRUE(study.ok());
  for (int p : {16, 64}) {
    const double root = std::sqrt(static_cast<double>(p));
    const double efficiency = tc * n * n * nz / (tc * n * n * nz + 4 * p * ts + 8 * root * tw * n * nz);
    EXPECT_NEAR(mean_of(*study.value, 1, solvers::Method::SeriesParallel) /
                    (p * mean_of(*study.value, p, solvers::Method::SeriesParallel)),
                efficiency, 1e-12);
  }
  EXPECT_NEAR(tc * n * n * nz / (tc * n * n * nz + 4 * 16 * ts + 8 * 4 * tw * n * nz), 0.94360, 1e-5);
}

// With no interior processor the formula does not hold: on 2 x 2 processors every processor has
// two neighbours, so a step costs the block and 2 sends and 2 receives, 2 (t_s + t_w L), not 4.
TEST(Semantics, N7_TwoByTwoProcessorsHaveTwoNeighboursEach) {
  const std::string program = read_file("examples/studies/stencil_2d.pdl");
  const double n = 48, nz = 10, tc = 1, ts = 100, tw_word = 0.4, steps = 4;
  const double block = tc * (n / 2) * (n / 2) * nz;
  const double message = ts + tw_word * 2 * (n / 2) * nz;  // one edge: 2 (N / 2) Nz words
  expect_means(program, read_file("examples/machines/textbook.machine"), 4,
               {{solvers::Method::SeriesParallel, steps * (block + 2 * message)},
                {solvers::Method::StateSpace, steps * (block + 2 * message)}},
               {{"n", n}});
}

// Uneven blocks, worked by hand. GRID g(5, 3) on p = 4: a 2 x 2 processor grid, grid rows 3 + 2,
// grid columns 2 + 1, so blocks of 6, 3, 4 and 2 points (processors 0..3, row-major). Tasks of
// 1, 10 bytes per edge point, MESSAGE OVERHEAD L/10, no transfer time: an edge of e points
// costs e on each end. Messages (sender: receivers in order, edge points): 0: 1 (3), 2 (2);
// 1: 0 (3), 3 (1); 2: 0 (2), 3 (2); 3: 1 (1), 2 (2).
// Exact, step 1: processor 0 computes to 6 and sends to 11; 1 computes to 3, sends to 7;
// 2 to 4, sends to 8; 3 to 2, sends to 5. Receives in sender order: 0 from 1 at 11-14, from 2
// 14-16; 1 from 0 waits until 0's send ends at 9, 9-12, from 3 12-13; 2 from 0 waits until
// 11, 11-13, from 3 13-15; 3 from 1 waits until 7, 7-8, from 2 8-10. Step 2 starts at
// 16, 13, 15, 10: processor 0 computes to 22, sends to 27 and receives to 32; the others end
// earlier (1: 25 + 3 + 1 = 29, 2: max(23, 27) + 2 + 2 = 31, 3: max(15, 20) + 1 then
// max(21, 23) + 2 = 25). Makespan 32.
// Approximate: every processor pays the most sends (processor 0: 3 + 2) and the most receives
// (5): per step max(6, 3, 4, 2) + 10 = 16, two steps 32. One processor: 2 x 15 = 30.
TEST(Semantics, N6_UnevenBlocksExchangeTheirEdges) {
  const std::string program = grid_program("relax{2}", "DETERMINISTIC(1)", 5, 3, true);
  const std::string machine =
      "MACHINE NAME IS 'm';\n"
      "COMMUNICATION TIME IS 0;\n"
      "MESSAGE OVERHEAD IS L/10;\n";
  expect_means(program, machine, 4,
               {{solvers::Method::SeriesParallel, 32.0},
                {solvers::Method::StateSpace, 32.0},
                {solvers::Method::MonteCarlo, 32.0}});
  expect_means(program, machine, 1, {{solvers::Method::SeriesParallel, 30.0}, {solvers::Method::StateSpace, 30.0}});
}

// Without a NEIGHBOR joint a 2-D instance's processors do not wait for each other's blocks: with
// SYNC between the instances (no transfer time) the exchange is still paid (sends after the last
// point, receives before the synchronisation, N2) and the barrier costs nothing here. GRID
// g(2, 2) on p = 2: a 1 x 2 processor grid, blocks of 2 points; each processor sends its 2-point
// edge (o = 2) and receives the other's (o = 2): a step is 2 + 2 + 2 = 6 in both models.
TEST(Semantics, N6_AnInstanceExchangesItsEdgesBeforeASynchronisation) {
  const std::string program = grid_program("(relax -> SYNC){3}", "DETERMINISTIC(1)", 2, 2, false);
  const std::string machine =
      "MACHINE NAME IS 'm';\n"
      "COMMUNICATION TIME IS 0;\n"
      "MESSAGE OVERHEAD IS L/10;\n";
  expect_means(program, machine, 2, {{solvers::Method::SeriesParallel, 18.0}, {solvers::Method::StateSpace, 18.0}});
}

// U1 for the 2-D exchange: with random tasks the approximate mean is at least the exact mean
// (bounded below by the bounds' lower end and Monte Carlo's interval), at processor grids with
// interior, border and corner blocks and uneven ones. Erlang tasks, a message of 0.5 + 0.01 L
// in flight and 0.25 of overhead at each end.
TEST(Semantics, N7_TheApproximateTwoDimensionalModelBoundsTheExactMean) {
  const std::string program = grid_program("relax{3}", "ERLANG(4, 0.25)", 7, 6, true);
  const std::string machine =
      "MACHINE NAME IS 'm';\n"
      "COMMUNICATION TIME IS 0.5 + 0.01*L;\n"
      "MESSAGE OVERHEAD IS 0.25;\n";
  const std::vector<int> processors{2, 4, 6, 9};
  const auto study = analysis::run_study(
      {case_of(program, machine)},
      request_for(processors, {solvers::Method::SeriesParallel, solvers::Method::Bounds, solvers::Method::MonteCarlo}));
  ASSERT_TRUE(study.ok());
  for (int p : processors) {
    const solvers::Result& approx = study.value->at(0, p, solvers::Method::SeriesParallel).result;
    const solvers::Result& bounds = study.value->at(0, p, solvers::Method::Bounds).result;
    const solvers::Result& mc = study.value->at(0, p, solvers::Method::MonteCarlo).result;
    ASSERT_TRUE(approx.solved() && bounds.solved() && mc.solved()) << p;
    EXPECT_GE(approx.upper, bounds.lower) << p;
    EXPECT_GE(approx.upper, mc.lower) << p;
  }
}

// N7: a block's messages leave after its last point, and a receiver waits for them. GRID
// g(1, 5) on p = 2 (1 x 2 processors): blocks of 3 and 2 points (tasks of 1), one 1-point edge
// each way (10 bytes: o = 1 at each end), a transfer of 10. Step 1: processor 0 computes to 3,
// sends to 4, its message arrives at 14 and processor 1 receives it until 15; processor 1
// computes to 2, sends to 3, its message arrives at 13 and processor 0 receives until 14.
// Step 2 (NEIGHBOR): processor 0 from 14 to 17, processor 1 from 15 to 17; both send until 18,
// the messages arrive at 28 and both receive until 29 (the last exchange is paid, N3). Exact 29.
// Approximate: per step the most work (3), a send, the transfer and a receive, 15; two 30.
TEST(Semantics, N7_BlocksSendTheirEdgesAfterTheirLastPoint) {
  const std::string program = grid_program("relax{2}", "DETERMINISTIC(1)", 1, 5, true);
  const std::string machine =
      "MACHINE NAME IS 'm';\n"
      "COMMUNICATION TIME IS 10;\n"
      "MESSAGE OVERHEAD IS L/10;\n";
  expect_means(program, machine, 2,
               {{solvers::Method::SeriesParallel, 30.0},
                {solvers::Method::StateSpace, 29.0},
                {solvers::Method::MonteCarlo, 29.0}});
}

}  // namespace
