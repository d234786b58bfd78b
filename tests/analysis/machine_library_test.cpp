// The machine library's current systems (examples/machines/{infiniband-edr, shared-memory-node,
// cloud-ec2}.machine, docs/machine.md "Current systems") against the 1-D stencil's closed form
// derived from docs/semantics.md, and LogP's overhead as processor time in the exact model
// (rule M2) against a task graph built by hand (issue 14).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "graph/task_graph.hpp"
#include "scaling/exact_model.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using solvers::Method;
using test_support::case_of;
using test_support::expect_means;
using test_support::request_for;

using test_support::read_file;

// ---- The current systems on Foster's 1-D stencil -----------------------------------------------

// examples/studies/stencil_1d.pdl: n = 256 columns of X = t_c N Nz = 2560 us, a boundary of
// L = 2 N Nz 4 = 20480 bytes, S = 4 instances joined by NEIGHBOR. With n/P = c columns per
// processor (P divides n), o = o(L) and t = t(L):
//
// Approximate model (N5, C5): every instance charges each processor c X and msg(L; 2, 2) =
// 4o + t (m = 2 for P >= 3); the NEIGHBOR joint adds nothing (e = 2 - 2 = 0). T_P = S (c X +
// 4o + t).
//
// Exact model (N1, N3, C4, M4-M7), an interior processor k, deterministic runtimes. For c >= 2
// its order per instance is R_L X_0 S_L X_1 ... X_{c-2} R_R X_{c-1} S_R: the receive from k-1
// (C4 links column lo_k to lo_k - 1 first, M7), the first column, the send of it to k-1 (spliced
// after it, M6), the inner columns, the receive from k+1 before the last column, the last
// column and its send to k+1. With a the start of X_0, every interior processor in step: S_R
// ends at a + cX + 3o; the next instance's R_L waits for k-1's S_R, which ends then too, plus t:
// it runs a + cX + 3o + t .. a + cX + 4o + t, so an instance takes cX + 4o + t (R_R's message,
// sent right after X_0 of the instance before, is long there). The first instance has no
// receives (cX + 2o until S_R ends); the end (N3, o > 0) appends the receive from k-1 (after
// the transfer, + t + o) and then the one from k+1 (+ o): the first and the last instance
// together 2 (cX + 4o + t). For c = 1 the order is X S_L S_R R_L R_R; R_L waits for k-1's
// second send: X + 2o + t, then both receives: X + 4o + t again. The end processors do less
// and never delay an interior one. T_P = S (c X + 4o + t) in both models, T_1 = S n X, so
//   E = n X / (n X + P (4 o(L) + t(L))),
// Foster's form when o = (t_s + t_w L)/2, t = 0 (docs/semantics.md, section W).
TEST(MachineLibrary, CurrentSystemsGiveTheStencilsClosedFormInBothModels) {
  const std::string program = read_file("examples/studies/stencil_1d.pdl");
  const double n = 256, nz = 10, tc = 1;
  const double bytes = 2 * n * nz * 4;  // L
  struct System {
    const char* file;
    double overhead;  // o(L)
    double transfer;  // t(L)
  };
  // The constants as docs/machine.md's table states them, microseconds and bytes per
  // microsecond: InfiniBand o = 0.2, t = 1.0 - 2 o + L / 12500; the shared-memory node
  // o = 0.15 + L / 20000, t = 0.4 - 2 * 0.15; the cloud o = 5 + L / 10000, t = 50 - 2 * 5 + L / 1250.
  const System systems[] = {{"infiniband-edr", 0.2, 1.0 - 2 * 0.2 + bytes / 12500},
                            {"shared-memory-node", 0.15 + bytes / 20000, 0.4 - 2 * 0.15},
                            {"cloud-ec2", 5 + bytes / 10000, 50 - 2 * 5 + bytes / 1250}};
  const analysis::Request request = request_for({1, 16, 64, 256}, {Method::SeriesParallel, Method::StateSpace});
  // Foster's t_c = 1 us per point, and 10 ns (a current core's order, docs/machine.md), where
  // the messages weigh a hundred times more.
  for (const System& system : systems) {
    for (double point : {tc, tc / 100}) {
      const double column = point * n * nz;  // X
      const auto study = analysis::run_study(
          {case_of(program, read_file(std::string("examples/machines/") + system.file + ".machine"), {{"tc", point}})},
          request);
      ASSERT_TRUE(study.ok()) << system.file;
      for (int p : {16, 64, 256}) {
        const double closed = n * column / (n * column + p * (4 * system.overhead + system.transfer));
        for (Method method : request.methods) {
          const solvers::Result& one = study.value->at(0, 1, method).result;
          const solvers::Result& many = study.value->at(0, p, method).result;
          ASSERT_TRUE(one.solved() && many.solved()) << system.file << " p = " << p;
          EXPECT_NEAR(one.mean, 4 * n * column, 1e-6) << system.file;
          EXPECT_NEAR(one.mean / (p * many.mean), closed, 1e-12)
              << system.file << " t_c = " << point << " p = " << p << " " << solvers::to_string(method);
        }
      }
    }
  }
}

// ---- LogP's overhead occupies the processor in the exact model ---------------------------------

// a (10) on processor 0 sends 8 bytes to b (10) on processor 1; c (rc) on processor 0 follows a
// there (a plain arc); y (ry) on processor 1 runs before b (it is b's processor's level-0 task).
// c is declared before b, so the send is spliced between a and c (M6).
const char* const kOverheadProgram =
    "PROGRAM NAME IS 'overhead';\n"
    "EXECUTION PATTERN IS g;\n"
    "VARIABLE rc = 1;\n"
    "VARIABLE ry = 1;\n"
    "WORK PHASE g IS:\n"
    "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
    "  TASK a RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 0;\n"
    "  TASK y RUNTIME IS DETERMINISTIC(ry) ON PROCESSOR 1;\n"
    "  TASK c RUNTIME IS DETERMINISTIC(rc) ON PROCESSOR 0;\n"
    "  TASK b RUNTIME IS DETERMINISTIC(10) ON PROCESSOR 1;\n"
    "  ARC a -> c;\n"
    "  ARC a -> b VOLUME 8;\n"
    "END;\n";

constexpr double kO = 2, kT = 5;  // the machine's overhead and transfer time
// o = 2 on each end and t = 5 in flight.
const char* const kOverheadMachine =
    "MACHINE NAME IS 'o';\n"
    "COMMUNICATION TIME IS 5;\n"
    "MESSAGE OVERHEAD IS 2;\n";
// The same message cost, 2 + 5 + 2 = 9, all of it in flight.
const char* const kLatencyMachine =
    "MACHINE NAME IS 'l';\n"
    "COMMUNICATION TIME IS 9;\n";

// A node as the comparison sees it: kind, processor, runtime, in flight or not. Each node of
// the graphs below has its own.
using Signature = std::tuple<graph::NodeKind, int, double, bool>;

Signature signature_of(const graph::TaskGraph& g, graph::NodeId v) {
  return {g.node(v).kind, g.node(v).processor, distributions::mean(g.node(v).runtime), g.node(v).in_flight};
}

// Every node's finish time (the longest path to it, its runtime included), by signature,
// computed here rather than by a solver.
std::map<Signature, double> finish_times(const graph::TaskGraph& g) {
  std::vector<double> finish(g.node_count(), 0.0);
  std::map<Signature, double> by_signature;
  for (graph::NodeId v : graph::topological_order(g)) {
    double start = 0;
    for (graph::NodeId u : g.predecessors(v)) start = std::max(start, finish[u]);
    finish[v] = start + distributions::mean(g.node(v).runtime);
    EXPECT_TRUE(by_signature.emplace(signature_of(g, v), finish[v]).second) << g.node(v).label;
  }
  return by_signature;
}

// Which node precedes which (the transitive closure of the arcs), by signature: two graphs
// with the same closure impose the same order whatever implied arcs either leaves out.
std::set<std::pair<Signature, Signature>> precedence(const graph::TaskGraph& g) {
  std::set<std::pair<Signature, Signature>> pairs;
  std::vector<std::set<graph::NodeId>> before(g.node_count());
  for (graph::NodeId v : graph::topological_order(g)) {
    for (graph::NodeId u : g.predecessors(v)) {
      before[v].insert(u);
      before[v].insert(before[u].begin(), before[u].end());
    }
    for (graph::NodeId u : before[v]) pairs.emplace(signature_of(g, u), signature_of(g, v));
  }
  return pairs;
}

// The exact model of kOverheadProgram by hand (A2, M4, M6, M7, B2): processor 0 runs a, the
// send S (o), c; processor 1 runs y, the receive R (o), b; the transfer T (t, no processor)
// goes from S to R; the phase's closing sync(0) joins c and b.
graph::TaskGraph hand_built(double rc, double ry) {
  graph::TaskGraph g;
  const auto add = [&g](graph::NodeKind kind, int processor, double runtime) {
    graph::TaskNode node;
    node.kind = kind;
    node.processor = processor;
    node.runtime = distributions::deterministic(runtime);
    node.in_flight = kind == graph::NodeKind::Communication && processor < 0;
    return g.add_node(node);
  };
  using graph::NodeKind;
  const graph::NodeId a = add(NodeKind::Task, 0, 10), send = add(NodeKind::Communication, 0, kO),
                      c = add(NodeKind::Task, 0, rc), y = add(NodeKind::Task, 1, ry),
                      transfer = add(NodeKind::Communication, -1, kT), receive = add(NodeKind::Communication, 1, kO),
                      b = add(NodeKind::Task, 1, 10), join = add(NodeKind::Join, -1, 0);
  for (const auto& [from, to] : std::vector<std::pair<graph::NodeId, graph::NodeId>>{{a, send},
                                                                                     {send, c},
                                                                                     {send, transfer},
                                                                                     {transfer, receive},
                                                                                     {y, receive},
                                                                                     {receive, b},
                                                                                     {c, join},
                                                                                     {b, join}}) {
    g.add_arc(from, to);
  }
  return g;
}

// Issue 14: "a LogP overhead occupies the processor in the exact model (a processor's own
// tasks are delayed by it, checked by a hand-built graph)". Two runtimes of c and y:
//   sender: rc = 30, ry = 1. By hand: a 0-10, S 10-12, c 12-42; T 12-17; y 0-1, R 17-19,
//     b 19-29: 42. With the same 9 in flight (no overhead) c runs 10-40 and b 19-29: 40.
//   receiver: rc = 1, ry = 30. a 0-10, S 10-12, c 12-13; T 12-17; y 0-30, R 30-32, b 32-42:
//     42. All in flight: the message is there at 19, b runs 30-40: 40.
// In both the processor's own task (c after the send, b after y and the receive) is delayed by
// o against the machine that spends the same time in flight, which delays only the receiver
// and only until the message arrives.
TEST(MachineLibrary, M2_AnOverheadOccupiesTheProcessorAsTheHandBuiltGraphSays) {
  struct Case {
    double rc, ry, with_overhead, in_flight;
  };
  for (const Case& one : {Case{30, 1, 42, 40}, Case{1, 30, 42, 40}}) {
    const std::map<std::string, double> values{{"rc", one.rc}, {"ry", one.ry}};
    const graph::TaskGraph expected = hand_built(one.rc, one.ry);
    const std::map<Signature, double> expected_finish = finish_times(expected);
    double makespan = 0;
    for (const auto& [node, finish] : expected_finish) makespan = std::max(makespan, finish);
    EXPECT_DOUBLE_EQ(makespan, one.with_overhead) << "rc = " << one.rc;

    const analysis::Case built = case_of(kOverheadProgram, kOverheadMachine, values);
    const scaling::ExactModel model = scaling::exact_model(*built.program, *built.machine, built.environment, 2);
    ASSERT_EQ(model.scenarios.size(), 1u);
    const graph::TaskGraph& g = model.scenarios.front().graph;
    EXPECT_EQ(g.node_count(), expected.node_count()) << "rc = " << one.rc;
    EXPECT_EQ(finish_times(g), expected_finish) << "rc = " << one.rc;
    EXPECT_EQ(precedence(g), precedence(expected)) << "rc = " << one.rc;

    // The solvers of the exact model (deterministic tasks: both give the longest path).
    expect_means(kOverheadProgram, kOverheadMachine, 2,
                 {{Method::StateSpace, one.with_overhead}, {Method::MonteCarlo, one.with_overhead}}, values);
    expect_means(kOverheadProgram, kLatencyMachine, 2,
                 {{Method::StateSpace, one.in_flight}, {Method::MonteCarlo, one.in_flight}}, values);
    EXPECT_LT(one.in_flight, one.with_overhead);
  }
}

}  // namespace
