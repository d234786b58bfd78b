// The breakdown (--breakdown): the exact model's busy processor time by kind against sums worked
// out by hand, the split of a prediction, and Foster's 1-D stencil, whose computation,
// communication and idle time per processor have closed forms.
#include <gtest/gtest.h>

#include <string>

#include "analysis/breakdown.hpp"
#include "analysis/prediction.hpp"
#include "analysis/study.hpp"
#include "distributions/distribution.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

namespace d = distributions;
using graph::NodeKind;

using test_support::read_file;

graph::TaskNode node(NodeKind kind, d::Distribution runtime, int processor) {
  graph::TaskNode out;
  out.label = std::string{graph::to_string(kind)};
  out.kind = kind;
  out.runtime = std::move(runtime);
  out.processor = processor;
  return out;
}

// One node of every kind, on a processor and not, and one of each exception: a job's arrival
// (a task without a processor) and a message in flight.
graph::TaskGraph every_kind() {
  graph::TaskGraph g;
  g.add_node(node(NodeKind::Task, d::deterministic(2.0), 0));
  g.add_node(node(NodeKind::Task, d::exponential(0.5), 1));                   // mean 2
  g.add_node(node(NodeKind::Task, d::deterministic(5.0), -1));                // an arrival: no work
  graph::TaskNode pool = node(NodeKind::DynamicPool, d::erlang(2, 4.0), -1);  // mean 0.5
  pool.pool_tasks = 10;
  pool.pool_processors = 2;
  g.add_node(pool);  // 10 tasks: 5
  g.add_node(node(NodeKind::Communication, d::deterministic(3.0), 0));
  graph::TaskNode flight = node(NodeKind::Communication, d::deterministic(7.0), -1);
  flight.in_flight = true;
  g.add_node(flight);                                                    // keeps no processor busy
  g.add_node(node(NodeKind::Communication, d::deterministic(1.5), -1));  // a pool's results
  g.add_node(node(NodeKind::Barrier, d::deterministic(4.0), -1));
  g.add_node(node(NodeKind::Contention, d::deterministic(1.0), 1));
  g.add_node(node(NodeKind::Contention, d::deterministic(2.0), -1));
  g.add_node(node(NodeKind::Join, d::Distribution{}, -1));
  return g;
}

TEST(Breakdown, ProcessorTimeCountsWhatKeepsProcessorsBusy) {
  scaling::ExactModel model;
  model.scenarios.push_back({0.25, "first", every_kind()});
  graph::TaskGraph lighter;
  lighter.add_node(node(NodeKind::Task, d::deterministic(8.0), 0));
  model.scenarios.push_back({0.75, "second", std::move(lighter)});
  const analysis::ProcessorTime busy = analysis::processor_time(model);
  // 0.25 (2 + 2 + 10 * 0.5) + 0.75 * 8 = 2.25 + 6
  EXPECT_DOUBLE_EQ(busy.computation.estimate, 8.25);
  EXPECT_DOUBLE_EQ(busy.computation.lower, 8.25);
  EXPECT_DOUBLE_EQ(busy.computation.upper, 8.25);
  EXPECT_DOUBLE_EQ(busy.communication.estimate, 0.25 * (3.0 + 1.5));
  EXPECT_DOUBLE_EQ(busy.contention.estimate, 0.25 * 1.0);
  EXPECT_DOUBLE_EQ(busy.stall.estimate, 0.25 * (4.0 + 2.0));
}

TEST(Breakdown, SplitDividesByPAndLeavesTheRestIdle) {
  analysis::ProcessorTime busy;
  busy.computation = {12.0, 11.0, 13.0};  // a measured law's bracket
  busy.communication = {4.0, 4.0, 4.0};
  busy.contention = {2.0, 2.0, 2.0};
  busy.stall = {1.0, 1.0, 1.0};
  analysis::Prediction prediction;
  prediction.estimate = 20.0;
  prediction.lower = 19.0;
  prediction.upper = 22.0;
  const analysis::Breakdown split = analysis::split(busy, 4, prediction);
  EXPECT_DOUBLE_EQ(*split.computation.estimate, 3.0);
  EXPECT_DOUBLE_EQ(split.computation.lower, 2.75);
  EXPECT_DOUBLE_EQ(split.computation.upper, 3.25);
  EXPECT_DOUBLE_EQ(*split.communication.estimate, 1.0);
  EXPECT_DOUBLE_EQ(*split.synchronisation.estimate, 1.5);  // 1 + 2 / 4
  EXPECT_DOUBLE_EQ(*split.idle.estimate, 20.0 - 5.5);
  EXPECT_DOUBLE_EQ(split.idle.lower, 19.0 - 5.75);
  EXPECT_DOUBLE_EQ(split.idle.upper, 22.0 - 5.25);
  prediction.estimate.reset();  // wide bounds: an interval only
  EXPECT_FALSE(analysis::split(busy, 4, prediction).idle.estimate);
  EXPECT_THROW(analysis::split(busy, 0, prediction), std::invalid_argument);
}

// Foster's 1-D stencil (examples/studies/stencil_1d.pdl) on the textbook machine, where a
// message of L words costs t_s + t_w L of processor time, half at each end. Without wraparound
// the P - 1 neighbouring pairs exchange 2 messages a step: T_comm = steps 2 (P - 1) m. The
// interior processors send and receive 2, so T = steps (t_c N^2 Nz / P + 2 m), and the two end
// processors, which exchange once, wait: idle = T - T_comp / P - T_comm / P = steps 2 m / P.
TEST(Breakdown, FostersStencilHasItsClosedForms) {
  const double n = 256, nz = 10, tc = 1, ts = 100, tw_word = 0.4, steps = 4;
  const double message = ts + tw_word * 2 * n * nz;
  analysis::Request request = test_support::request_for({1, 4, 16, 64}, {solvers::Method::StateSpace});
  request.breakdown = true;
  const auto study = analysis::run_study({test_support::case_of(read_file("examples/studies/stencil_1d.pdl"),
                                                                read_file("examples/machines/textbook.machine"))},
                                         request);
  ASSERT_TRUE(study.ok());
  for (int p : {1, 4, 16, 64}) {
    const auto prediction = analysis::predict(*study.value, 0, p);
    const auto& busy = study.value->processor_time(0, p);
    ASSERT_TRUE(prediction && busy) << p;
    EXPECT_EQ(prediction->method, solvers::Method::StateSpace);
    const analysis::Breakdown split = analysis::split(*busy, p, *prediction);
    EXPECT_NEAR(*split.computation.estimate, steps * tc * n * n * nz / p, 1e-6) << p;
    EXPECT_NEAR(*split.communication.estimate, steps * 2 * (p - 1) * message / p, 1e-6) << p;
    EXPECT_EQ(*split.synchronisation.estimate, 0.0) << p;
    EXPECT_NEAR(*split.idle.estimate, p == 1 ? 0.0 : steps * 2 * message / p, 1e-6) << p;
  }
}

TEST(Breakdown, NoProcessorTimeWithoutTheRequest) {
  const auto study = analysis::run_study({test_support::case_of(read_file("examples/studies/stencil_1d.pdl"),
                                                                read_file("examples/machines/textbook.machine"))},
                                         test_support::request_for({1, 2}, {solvers::Method::SeriesParallel}));
  ASSERT_TRUE(study.ok());
  EXPECT_FALSE(study.value->processor_time(0, 2));
}

}  // namespace
