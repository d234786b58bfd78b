// The charts' shared parts (plot.hpp): styles, log2 axes and titles, against what docs/cli.md
// ("The chart") says of them; the charts as drawn are in study_test.cpp and render_charts.py.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "report/plot.hpp"

namespace {

std::tuple<std::string, std::string, report::Marker> key(const report::LineStyle& style) {
  return {std::string(style.colour), std::string(style.dash), style.marker};
}

TEST(LineStyle, FortyEightDistinctStylesThenTheyRepeat) {
  std::set<std::tuple<std::string, std::string, report::Marker>> seen;
  std::set<std::string> colours, dashes;
  for (std::size_t i = 0; i < 48; ++i) {
    seen.insert(key(report::line_style(i)));
    colours.insert(std::string(report::line_style(i).colour));
    dashes.insert(std::string(report::line_style(i).dash));
  }
  EXPECT_EQ(seen.size(), 48u);
  EXPECT_EQ(colours.size(), 8u);
  EXPECT_EQ(dashes.size(), 6u);
  EXPECT_EQ(key(report::line_style(48)), key(report::line_style(0)));
  EXPECT_EQ(key(report::line_style(50)), key(report::line_style(2)));
  // Style i: colour i mod 8, (dash, marker) (i div 8) mod 6; the first is solid with circles.
  EXPECT_EQ(report::line_style(0).colour, "#0072B2");
  EXPECT_EQ(report::line_style(0).dash, "");
  EXPECT_EQ(report::line_style(0).marker, report::Marker::Circle);
  EXPECT_EQ(report::line_style(9).colour, report::line_style(1).colour);
  EXPECT_EQ(report::line_style(9).marker, report::Marker::Square);
  EXPECT_EQ(report::line_style(17).marker, report::Marker::Triangle);
}

TEST(LineStyle, AColourPerGroupAndADashPerKindWhileTheyFit) {
  // One case: method k has colour k and dash and marker k.
  EXPECT_EQ(report::style_index(0, 1, 2, 3), 18u);
  EXPECT_EQ(report::line_style(18).colour, "#009E73");
  EXPECT_EQ(report::line_style(18).marker, report::Marker::Triangle);
  // 2 machines x 3 methods: machine n has colour n, method k dash and marker k.
  EXPECT_EQ(report::style_index(1, 2, 2, 3), 17u);
  EXPECT_EQ(report::style_index(7, 8, 5, 6), 47u);
  // 10 groups (more than 8 colours) x 2 methods: numbered in order, 2n + k.
  EXPECT_EQ(report::style_index(0, 10, 1, 2), 1u);
  EXPECT_EQ(report::style_index(9, 10, 1, 2), 19u);
  // Either way, every line of up to 48 gets its own style.
  for (std::size_t groups = 1; groups <= 24; ++groups) {
    for (std::size_t kinds = 1; kinds * groups <= 48 && kinds <= 4; ++kinds) {
      std::set<std::tuple<std::string, std::string, report::Marker>> seen;
      for (std::size_t n = 0; n < groups; ++n) {
        for (std::size_t k = 0; k < kinds; ++k)
          seen.insert(key(report::line_style(report::style_index(n, groups, k, kinds))));
      }
      EXPECT_EQ(seen.size(), groups * kinds) << groups << " x " << kinds;
    }
  }
}

TEST(LineStyle, MarkersAreOneElementEach) {
  EXPECT_EQ(report::marker_svg(report::Marker::Circle, 10, 20, "#000000"),
            "<circle class=\"marker circle\" cx=\"10.00\" cy=\"20.00\" r=\"3.5\" fill=\"#000000\"/>");
  EXPECT_EQ(report::marker_svg(report::Marker::Square, 10, 20, "#000000"),
            "<rect class=\"marker square\" x=\"6.80\" y=\"16.80\" width=\"6.4\" height=\"6.4\" fill=\"#000000\"/>");
  EXPECT_EQ(report::stroke_attributes(report::line_style(8), 2),
            " stroke=\"#0072B2\" stroke-width=\"2\" stroke-dasharray=\"8,4\"");
  EXPECT_EQ(report::stroke_attributes(report::line_style(1), 1.5), " stroke=\"#D55E00\" stroke-width=\"1.5\"");
}

TEST(LogAxis, AutomaticForThreeOrMorePowersOfTwo) {
  EXPECT_TRUE(report::is_log2_automatic({1, 2, 4}));
  EXPECT_TRUE(report::is_log2_automatic({2, 4, 8, 8, 1024}));
  EXPECT_FALSE(report::is_log2_automatic({1, 2}));
  EXPECT_FALSE(report::is_log2_automatic({4, 4, 4, 8}));
  EXPECT_FALSE(report::is_log2_automatic({1, 2, 4, 6}));
  EXPECT_FALSE(report::is_log2_automatic({0.5, 1, 2}));
  EXPECT_FALSE(report::is_log2_automatic({}));
}

TEST(LogAxis, TicksArePowersOfTwo) {
  EXPECT_EQ(report::log2_ticks(1, 64, 10), (std::vector<double>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(report::log2_ticks(1, 12, 10), (std::vector<double>{1, 2, 4, 8}));
  EXPECT_EQ(report::log2_ticks(0.3, 5, 10), (std::vector<double>{0.5, 1, 2, 4}));
  // 2^0 .. 2^16 is 17 ticks: every second power.
  EXPECT_EQ(report::log2_ticks(1, 65536, 10), (std::vector<double>{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536}));
  EXPECT_EQ(report::tick_label(65536), "65536");
  EXPECT_EQ(report::tick_label(0.5), "0.5");
  const report::Axis axis{1, 64, true, {}};
  EXPECT_DOUBLE_EQ(axis.fraction(8), 0.5);
  EXPECT_DOUBLE_EQ(axis.fraction(1), 0.0);
  EXPECT_DOUBLE_EQ(axis.fraction(64), 1.0);
  EXPECT_LT(axis.fraction(0), -1.0);  // far below: clipped
}

report::ReportInputs neighbor_inputs() {
  report::ReportInputs inputs;
  inputs.program_file = "examples/paper/neighbor.pdl";
  inputs.machines = {{"cluster", "cluster.machine", {}, {}}, {"smp", "smp.machine", {}, {}}};
  inputs.sweeps = {{"columns", {160, 10, 20, 40, 80}}};
  inputs.variables = {{"iterations", 2}};
  return inputs;
}

TEST(ChartTitle, ProgramMachinesAndSize) {
  report::ReportInputs inputs = neighbor_inputs();
  EXPECT_EQ(report::chart_title(inputs, 100),
            "neighbor.pdl on cluster and smp, columns = 10..160 (5 values), iterations = 2");
  inputs.sweeps = {{"columns", {40, 10, 20}}};
  EXPECT_EQ(report::chart_title(inputs, 100), "neighbor.pdl on cluster and smp, columns = 10, 20, 40, iterations = 2");
  inputs.machines.push_back({"ksr1", "ksr1.machine", {}, {}});
  inputs.sweeps.clear();
  inputs.variables = {{"columns", 10}, {"iterations", 2}};
  inputs.per_processor_variables = {{"columns", "10*P"}};
  inputs.weak_scaling = true;
  EXPECT_EQ(report::chart_title(inputs, 100), "neighbor.pdl on cluster, smp and ksr1, columns = 10*P, iterations = 2");
  inputs.machines = {{"ideal", "", {}, {}}};  // the built-in machine
  EXPECT_EQ(report::chart_title(inputs, 100), "neighbor.pdl on the ideal machine, columns = 10*P, iterations = 2");
}

TEST(ChartTitle, ShortenedStepByStep) {
  report::ReportInputs inputs = neighbor_inputs();
  inputs.sweeps = {{"columns", {1000, 2000, 4000, 8000}}};
  inputs.variables = {{"iterations", 2}, {"rows", 8}};
  const std::string full =
      "neighbor.pdl on cluster and smp, columns = 1000, 2000, 4000, 8000, iterations = 2, rows = 8";
  EXPECT_EQ(report::chart_title(inputs, 100), full);  // 91 characters
  // The sweep as its range when that is shorter (here by 1 character), then the variables
  // neither swept nor of P counted, then the machines, then a cut.
  EXPECT_EQ(report::chart_title(inputs, 90),
            "neighbor.pdl on cluster and smp, columns = 1000..8000 (4 values), iterations = 2, rows = 8");
  EXPECT_EQ(report::chart_title(inputs, 80),
            "neighbor.pdl on cluster and smp, columns = 1000..8000 (4 values), +2 variables");
  EXPECT_EQ(report::chart_title(inputs, 75),
            "neighbor.pdl on 2 machines, columns = 1000..8000 (4 values), +2 variables");
  const std::string cut = report::chart_title(inputs, 40);
  EXPECT_EQ(cut, "neighbor.pdl on 2 machines, columns = 1…");
  EXPECT_EQ(report::display_length(cut), 40u);
}

}  // namespace
