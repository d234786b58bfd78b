// Bandwidth sharing (docs/semantics.md M10; docs/machine.md, "Topology and bandwidth sharing"):
// the machine's TOPOLOGY decides S, the number of messages of a step sharing a wire (Foster,
// "Designing and Building Parallel Programs", section 3.7), and the message costs read it. The
// figures are worked out by hand from the rules, in both models.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "models/dump.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::expect_means;
using test_support::machine_of_text;
using test_support::read_file;

// Six tasks of x = 10: a, b, c, d in level 0 on processors 0..3 (A1), e on processor 1 after a
// and f on processor 3 after c, each arc a message of 100 bytes. The messages into level 1 are
// 0 -> 1 and 2 -> 3: two messages at once among four processors.
const char* const kTwoMessages =
    "PROGRAM NAME IS 'two-messages';\n"
    "EXECUTION PATTERN IS pairs;\n"
    "WORK PHASE pairs IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10);\n"
    "  TASK b RUNTIME IS DETERMINISTIC(10);\n"
    "  TASK c RUNTIME IS DETERMINISTIC(10);\n"
    "  TASK d RUNTIME IS DETERMINISTIC(10);\n"
    "  TASK e RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
    "  TASK f RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 3;\n"
    "  ARC a -> e VOLUME 100;\n"
    "  ARC c -> f VOLUME 100;\n"
    "END;\n";

std::string machine_with(const std::string& topology) {
  return "MACHINE NAME IS 'wire';\n"
         "VARIABLE tw = 0.5;\n"
         "TOPOLOGY IS " +
         topology +
         ";\n"
         "COMMUNICATION TIME IS tw*S*L;\n";
}

// The must-show case: on a bus the two messages share the wire, S = min(m, max(1, floor(q/2)))
// = min(2, 4/2) = 2 (m = 2 messages, q = 4 endpoints), so each takes t_w·2·L = 100 instead of
// t_w·L = 50 on a fully connected machine (S = 1). Exact (A2, M4): e waits for a (0-10) and the
// transfer, 10 + t, then runs 10: 20 + t; f the same. Approximate (A3): level 0 (10), the
// transfer into level 1 (t), level 1 (10): 20 + t. So 70 fully connected, 120 on the bus: the
// message time doubles.
TEST(Topology, M10_BandwidthSharingOnABusDoublesTheTimeOfTwoSimultaneousMessages) {
  const double x = 10, tw = 0.5, bytes = 100;
  const double alone = tw * 1 * bytes, shared = tw * 2 * bytes;
  EXPECT_EQ(shared, 2 * alone);
  for (const char* crossbar : {"FULLY CONNECTED", "CROSSBAR", "FAT TREE"}) {
    expect_means(kTwoMessages, machine_with(crossbar), 4,
                 {{Method::StateSpace, 2 * x + alone}, {Method::SeriesParallel, 2 * x + alone}});
  }
  expect_means(kTwoMessages, machine_with("BUS"), 4,
               {{Method::StateSpace, 2 * x + shared}, {Method::SeriesParallel, 2 * x + shared}});
  // The routes 0 -> 1 and 2 -> 3 share no link on a ring or a mesh: S = 1 there.
  for (const char* routed : {"RING", "MESH 2D", "TORUS 2D", "HYPERCUBE"}) {
    expect_means(kTwoMessages, machine_with(routed), 4,
                 {{Method::StateSpace, 2 * x + alone}, {Method::SeriesParallel, 2 * x + alone}});
  }
}

// Foster 3.7: the 1-D stencil on an Ethernet bus, where "half the processors need to send at
// once (max; other half are receiving) => S = P/2". examples/studies/stencil_1d.pdl (n = 256
// columns of X = t_c N N_z = 2560 us, L = 2 N N_z 4 = 20480 bytes, 4 instances joined by
// NEIGHBOR) on examples/machines/ethernet-bus.machine, o(L) = (t_s + t_w L S)/2, t = 0. The
// exchange of P processors in blocks is 2(P - 1) messages among P endpoints: S = P/2 (N3, the
// joint's messages are the same, C4). With the per-instance cost of MachineLibrary's stencil
// derivation (tests/analysis/machine_library_test.cpp), c X + 4 o + t per instance, c = n/P:
//   T_P = 4 (c X + 2 (t_s + t_w L P/2)),
// the chapter's per-message cost t_s + t_w L P/2, twice per instance on each processor.
TEST(Topology, M10_FostersBusStencilPaysHalfTheProcessorsPerByte) {
  const std::string program = read_file("examples/studies/stencil_1d.pdl");
  const double n = 256, nz = 10, tc = 1, ts = 1500, tw = 1.25, steps = 4;
  const double column = tc * n * nz, bytes = 2 * n * nz * 4;
  const std::string bus = read_file("examples/machines/ethernet-bus.machine");
  for (int p : {4, 16, 64}) {
    const double per_message = ts + tw * bytes * p / 2.0;
    const double closed = steps * (n / p * column + 2 * per_message);
    expect_means(program, bus, p, {{Method::SeriesParallel, closed}, {Method::StateSpace, closed}});
  }
  // The same machine without the bus (S = 1 always): Foster's Ethernet row.
  std::string crossbar = bus;
  ASSERT_NE(crossbar.find("TOPOLOGY IS BUS;"), std::string::npos);
  crossbar.replace(crossbar.find("TOPOLOGY IS BUS;"), 16, "TOPOLOGY IS FULLY CONNECTED;");
  for (int p : {4, 16}) {
    const double closed = steps * (n / p * column + 2 * (ts + tw * bytes));
    expect_means(program, crossbar, p, {{Method::SeriesParallel, closed}, {Method::StateSpace, closed}});
  }
}

// INDEPENDENT's results (M8): every processor with tasks sends one message out at once. Four
// tasks of 10 on 4 processors, 100 bytes each: on a bus m = 4 messages among q = 5 endpoints
// (the outside is one), S = min(4, floor(5/2)) = 2; each processor runs its task and a blocking
// send of t_w·S·L = 100: 110 in both models (I1, I2). Fully connected: 60.
TEST(Topology, M10_IndependentResultsShareTheBus) {
  const char* const program =
      "PROGRAM NAME IS 'results';\n"
      "EXECUTION PATTERN IS work;\n"
      "WORK PHASE work IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS VECTOR tasks(4);\n"
      "  COMMUNICATION VOLUME IS 100;\n"
      "END;\n";
  expect_means(program, machine_with("BUS"), 4, {{Method::StateSpace, 110.0}, {Method::SeriesParallel, 110.0}});
  expect_means(program, machine_with("FULLY CONNECTED"), 4,
               {{Method::StateSpace, 60.0}, {Method::SeriesParallel, 60.0}});
  // A message out loads no link of a ring: S = 1.
  expect_means(program, machine_with("RING"), 4, {{Method::StateSpace, 60.0}, {Method::SeriesParallel, 60.0}});
}

// A 2-D NEIGHBOR instance's edge messages are one step (N6, N7): a 4 x 4 grid on 2 x 2
// processors, blocks of 2 x 2 points of 10, every block sending its 2-point edge (V = 10 bytes a
// point, L = 20) to its two neighbours: 8 messages among 4 processors, S = min(8, 4/2) = 2 on a
// bus, t = t_w·S·L = 20 (10 fully connected, and on a 2 x 2 mesh, whose 8 routes use 8 different
// links). Two instances joined by NEIGHBOR: exact, each block 40, the joint's receives wait for
// the transfer (t), the second blocks 40, the final exchange's transfer t: 80 + 2t; approximate,
// 2 (4·10 + E) with E = t. Bus 120, fully connected 100.
TEST(Topology, M10_TwoDimensionalEdgesShareTheBus) {
  const char* const program =
      "PROGRAM NAME IS 'grid';\n"
      "EXECUTION PATTERN IS (step){2};\n"
      "WORK PHASE step IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  DECOMPOSITION IS 2D;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(10);\n"
      "  PROBLEM SIZE IS GRID points(4, 4);\n"
      "  COMMUNICATION VOLUME IS 10;\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  step, step : NEIGHBOR;\n"
      "END;\n";
  expect_means(program, machine_with("BUS"), 4, {{Method::StateSpace, 120.0}, {Method::SeriesParallel, 120.0}});
  for (const char* free : {"FULLY CONNECTED", "MESH 2D"}) {
    expect_means(program, machine_with(free), 4, {{Method::StateSpace, 100.0}, {Method::SeriesParallel, 100.0}});
  }
}

// A 0-byte arc is a plain arc (M3), no message: it shares no link (M10). On a ring of 4, a -> e
// (30 bytes) and a -> g (0 bytes) both go from processor 0 to processor 1; only the first is a
// message, so S = 1 and t = t_w·S·L = 15. Exact: e starts after a and the transfer (10 + 15),
// then g on the same processor: 25 + 10 + 10 = 45. Approximate (A3): level 0 (10), the transfer
// (15), level 1 (e and g on processor 1, 20): 45. Counting the 0-byte arc made S = 2: 60.
TEST(Topology, M10_AZeroByteArcSharesNoLink) {
  const char* const program =
      "PROGRAM NAME IS 'zero-byte-arc';\n"
      "EXECUTION PATTERN IS level;\n"
      "WORK PHASE level IS:\n"
      "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "  TASK a RUNTIME IS DETERMINISTIC(10);\n"
      "  TASK b RUNTIME IS DETERMINISTIC(10);\n"
      "  TASK c RUNTIME IS DETERMINISTIC(10);\n"
      "  TASK d RUNTIME IS DETERMINISTIC(10);\n"
      "  TASK e RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
      "  TASK g RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
      "  ARC a -> e VOLUME 30;\n"
      "  ARC a -> g VOLUME 0;\n"
      "END;\n";
  const double x = 10, tw = 0.5, bytes = 30;
  const double closed = x + tw * 1 * bytes + 2 * x;
  for (const char* topology : {"RING", "BUS", "FULLY CONNECTED"}) {
    expect_means(program, machine_with(topology), 4, {{Method::StateSpace, closed}, {Method::SeriesParallel, closed}});
  }
}

// Rule U1 with bandwidth sharing: both models price a step's messages at the same S, and a
// neighbour joint whose S exceeds the exchange's charges the difference (C5), so the approximate
// mean stays at or above the exact one on every topology. Deterministic tasks: the state-space
// mean is the exact model's longest path. The programs: the 1-D and 2-D stencils, a
// NEIGHBOR-TORUS phase into an INDEPENDENT CYCLIC one over a TORUS joint, and NEIGHBOR phases of
// different counts.
TEST(Topology, U1_TheApproximationStaysAboveTheExactMeanOnEveryTopology) {
  const std::string mixed =
      "PROGRAM NAME IS 'mixed';\n"
      "EXECUTION PATTERN IS (ring -> spread -> narrow){2};\n"
      "WORK PHASE ring IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR-TORUS;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(3);\n"
      "  PROBLEM SIZE IS VECTOR c(12);\n"
      "  COMMUNICATION VOLUME IS 40;\n"
      "END;\n"
      "WORK PHASE spread IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
      "  SCHEDULING IS CYCLIC;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(2);\n"
      "  PROBLEM SIZE IS VECTOR t(12);\n"
      "  COMMUNICATION VOLUME IS 8;\n"
      "END;\n"
      "WORK PHASE narrow IS:\n"
      "  PARALLELIZATION SCHEME IS NEIGHBOR;\n"
      "  SUBTASK RUNTIME IS DETERMINISTIC(5);\n"
      "  PROBLEM SIZE IS VECTOR d(7);\n"
      "  COMMUNICATION VOLUME IS 16;\n"
      "END;\n"
      "CONCATENATION IS:\n"
      "  ring, spread : TORUS;\n"
      "  spread, narrow : NEIGHBOR;\n"
      "  narrow, ring : TORUS;\n"
      "END;\n";
  struct Program {
    std::string text;
    std::map<std::string, double> values;
  };
  const Program programs[] = {{read_file("examples/studies/stencil_1d.pdl"), {{"n", 12}, {"steps", 3}}},
                              {read_file("examples/studies/stencil_2d.pdl"), {{"n", 6}, {"steps", 2}}},
                              {mixed, {}}};
  for (const char* topology :
       {"FULLY CONNECTED", "BUS", "RING", "MESH 2D", "TORUS 2D", "MESH 3D", "TORUS 3D", "HYPERCUBE"}) {
    const std::string machine = std::string("MACHINE NAME IS 'shared';\nTOPOLOGY IS ") + topology +
                                ";\nCOMMUNICATION TIME IS 1 + 0.5*S*L;\nMESSAGE OVERHEAD IS 0.25 + 0.01*S*L;\n";
    for (const Program& program : programs) {
      const auto study = analysis::run_study(
          {test_support::case_of(program.text, machine, program.values)},
          test_support::request_for({2, 3, 4, 5, 6, 8, 12}, {Method::SeriesParallel, Method::StateSpace}));
      ASSERT_TRUE(study.ok()) << topology;
      for (int p : {2, 3, 4, 5, 6, 8, 12}) {
        const solvers::Result& approximate = study.value->at(0, p, Method::SeriesParallel).result;
        const solvers::Result& exact = study.value->at(0, p, Method::StateSpace).result;
        ASSERT_TRUE(approximate.solved() && exact.solved()) << topology << " p = " << p;
        EXPECT_GE(approximate.mean, exact.mean - 1e-9 * exact.mean) << topology << " p = " << p << "\n"
                                                                    << program.text.substr(0, 40);
      }
    }
  }
}

// TOPOLOGY IS ... reads case-insensitively, CROSSBAR is FULLY CONNECTED, and --dump writes the
// topology back so that the dump reads back to the same machine.
TEST(Topology, TheStatementReadsAndDumpsBack) {
  EXPECT_EQ(machine_of_text("MACHINE NAME IS 'm';\n").topology, models::Topology::FullyConnected);
  EXPECT_EQ(machine_of_text("MACHINE NAME IS 'm'; topology is Mesh 3d;").topology, models::Topology::Mesh3D);
  EXPECT_EQ(machine_of_text("MACHINE NAME IS 'm'; TOPOLOGY IS CROSSBAR;").topology, models::Topology::FullyConnected);
  const struct {
    const char* text;
    models::Topology topology;
  } all[] = {{"FULLY CONNECTED", models::Topology::FullyConnected},
             {"BUS", models::Topology::Bus},
             {"RING", models::Topology::Ring},
             {"MESH 2D", models::Topology::Mesh2D},
             {"TORUS 2D", models::Topology::Torus2D},
             {"MESH 3D", models::Topology::Mesh3D},
             {"TORUS 3D", models::Topology::Torus3D},
             {"HYPERCUBE", models::Topology::Hypercube},
             {"FAT TREE", models::Topology::FatTree}};
  for (const auto& one : all) {
    const models::Machine machine = machine_of_text(machine_with(one.text));
    EXPECT_EQ(machine.topology, one.topology) << one.text;
    const std::string dumped = models::dump(machine);
    EXPECT_NE(dumped.find(std::string("TOPOLOGY IS ") + one.text + ";"), std::string::npos) << dumped;
    EXPECT_EQ(machine_of_text(dumped).topology, one.topology) << dumped;
  }
}

}  // namespace
