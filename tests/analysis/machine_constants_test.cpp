// Machine constants as variables (issue 14): --set, --sweep and --isoefficiency act on the
// constants of a machine file. The figures are Foster's closed forms for the 1-D stencil
// (examples/studies/stencil_1d.pdl on examples/machines/ibm-sp2.machine), computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "analysis/isoefficiency.hpp"
#include "analysis/study.hpp"
#include "models/machine_constants.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::machine_of_text;
using test_support::read_file;

analysis::MachineInput input_of(const std::string& program_text, const models::Machine& machine) {
  analysis::MachineInput input;
  input.program = std::make_shared<const models::Program>(test_support::program_of_text(program_text, machine));
  input.machine = machine;
  input.machine_file = "m.machine";
  return input;
}

// The stencil's figures: N = 256 planes, Nz = 10, t_c = 1 us, a boundary of 2 N Nz floats.
constexpr double kN = 256, kNz = 10, kTc = 1, kSteps = 4;
constexpr double kBoundaryBytes = 2 * kN * kNz * 4;
// Foster's E with t_w per byte: every step a processor sends and receives two boundaries, and
// the machine charges (t_s + t_w L) / 2 for each.
double foster_efficiency(double p, double ts, double tw) {
  const double work = kTc * kN * kN * kNz;
  return work / (work + 2 * p * (ts + tw * kBoundaryBytes));
}

TEST(MachineConstants, AValueReevaluatesTheConstantsAfterItRtfactorAndSizes) {
  const models::Machine machine = machine_of_text(
      "MACHINE NAME IS 'm';\nVARIABLE a = 2;\nVARIABLE b = 3*a;\nRTFACTOR IS a;\nSIZEOF QUAD IS 4*a;\n"
      "COMMUNICATION TIME IS b + a*L;\n");
  EXPECT_EQ(machine.constants.at("b"), 6);
  const auto five = models::with_constants(machine, {{"a", 5}});
  ASSERT_TRUE(five.machine) << five.error;
  EXPECT_EQ(five.machine->constants.at("a"), 5);
  EXPECT_EQ(five.machine->constants.at("b"), 15);
  EXPECT_EQ(five.machine->rt_factor, 5);
  EXPECT_EQ(five.machine->sizes.at("QUAD"), 20);
  EXPECT_EQ(five.machine->sizes.at("DOUBLE"), 8);  // a standard size the file does not give
  // A later constant alone: the earlier one keeps its value.
  const auto b = models::with_constants(machine, {{"b", 7}});
  ASSERT_TRUE(b.machine) << b.error;
  EXPECT_EQ(b.machine->constants.at("a"), 2);
  EXPECT_EQ(b.machine->constants.at("b"), 7);
  EXPECT_EQ(b.machine->rt_factor, 2);
  // A second value (a swept one after --set) keeps the first: b stays 7 while a changes.
  const auto both = models::with_constants(*b.machine, {{"a", 5}});
  ASSERT_TRUE(both.machine) << both.error;
  EXPECT_EQ(both.machine->constants.at("a"), 5);
  EXPECT_EQ(both.machine->constants.at("b"), 7);
  EXPECT_EQ(both.machine->rt_factor, 5);
  // The cost reads the constants from the environment the binding builds.
  const models::Binding binding = models::bind(models::Program{}, *five.machine, {});
  ASSERT_TRUE(binding.ok());
  models::Environment at = binding.environment;
  at.values["L"] = 10;
  EXPECT_EQ(models::evaluate(five.machine->communication_time, at).value, 15 + 5 * 10);
}

TEST(MachineConstants, ValuesTheMachineCannotTakeAreRefusedWithTheReason) {
  const models::Machine machine = machine_of_text(
      "MACHINE NAME IS 'm';\nVARIABLE a = 2;\nVARIABLE c = log(a);\nRTFACTOR IS a;\nSIZEOF QUAD IS a - 1;\n");
  EXPECT_EQ(models::with_constants(machine, {{"x", 1}}).error, "machine 'm' has no constant 'x'");
  EXPECT_EQ(models::with_constants(machine, {{"a", std::nan("")}}).error,
            "constant 'a' must be a finite number, got nan");
  const std::string negative = models::with_constants(machine, {{"a", -1}}).error;
  EXPECT_NE(negative.find("constant 'c' of machine 'm' cannot be evaluated"), std::string::npos) << negative;
  const std::string tiny = models::with_constants(machine, {{"a", 1e-120}, {"c", 0}}).error;
  EXPECT_EQ(tiny, "RTFACTOR of machine 'm' must lie in [1e-100, 1e+100], got 1e-120");
  const std::string size = models::with_constants(machine, {{"a", 1}}).error;
  EXPECT_EQ(size, "SIZEOF QUAD of machine 'm' must be > 0 and at most 1e+100 bytes, got 0");
}

// A sweep over t_s gives each case the machine with that t_s: the efficiency is Foster's for
// that t_s in the approximate and the exact model.
TEST(MachineConstants, ASweptConstantGivesEachCaseItsMachine) {
  const auto input = input_of(read_file("examples/studies/stencil_1d.pdl"),
                              machine_of_text(read_file("examples/machines/ibm-sp2.machine")));
  const std::vector<double> ts_values{5, 40, 400};
  const auto cases = analysis::make_cases({input}, {{"ts", ts_values}}, false);
  ASSERT_TRUE(cases.ok());
  ASSERT_EQ(cases.value->size(), 3u);
  const auto request =
      test_support::request_for({1, 16, 64}, {solvers::Method::SeriesParallel, solvers::Method::StateSpace});
  const auto study = analysis::run_study(*cases.value, request);
  ASSERT_TRUE(study.ok());
  for (std::size_t k = 0; k < ts_values.size(); ++k) {
    EXPECT_EQ((*cases.value)[k].machine->constants.at("ts"), ts_values[k]);
    EXPECT_EQ((*cases.value)[k].environment.values.at("ts"), ts_values[k]);
    for (int p : {16, 64}) {
      for (solvers::Method method : request.methods) {
        const double t1 = study.value->at(k, 1, method).result.mean;
        const double tp = study.value->at(k, p, method).result.mean;
        EXPECT_NEAR(t1 / (p * tp), foster_efficiency(p, ts_values[k], 0.0275), 1e-12) << "ts " << ts_values[k];
        EXPECT_NEAR(tp, kSteps * (kTc * kN * kN * kNz / p + 2 * (ts_values[k] + 0.0275 * kBoundaryBytes)), 1e-6);
      }
    }
  }
}

// RTFACTOR written in terms of a constant follows it: the runtime on one processor scales.
TEST(MachineConstants, ASweptConstantReachesTheRtfactor) {
  const models::Machine machine =
      machine_of_text("MACHINE NAME IS 'slow';\nVARIABLE clock = 2;\nRTFACTOR IS 4/clock;\n");
  const auto input = input_of(read_file("examples/studies/stencil_1d.pdl"), machine);
  const auto cases = analysis::make_cases({input}, {{"clock", {1, 4}}}, false);
  ASSERT_TRUE(cases.ok());
  const auto study =
      analysis::run_study(*cases.value, test_support::request_for({1}, {solvers::Method::SeriesParallel}));
  ASSERT_TRUE(study.ok());
  EXPECT_NEAR(study.value->at(0, 1, solvers::Method::SeriesParallel).result.mean, 4 * kSteps * kTc * kN * kN * kNz,
              1e-6);
  EXPECT_NEAR(study.value->at(1, 1, solvers::Method::SeriesParallel).result.mean, 1 * kSteps * kTc * kN * kN * kNz,
              1e-6);
  // A value the machine cannot take is a failure naming it.
  const auto refused = analysis::make_cases({input}, {{"clock", {0}}}, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.failure->kind, analysis::Failure::Kind::InvalidValue);
  EXPECT_NE(refused.failure->message.find("with clock = 0: RTFACTOR of machine 'slow' cannot be evaluated"),
            std::string::npos)
      << refused.failure->message;
}

// "How fast must the network be for efficiency 0.8": the largest t_w with E >= 0.8 solves
// 2 P (t_s + t_w L) = (1/E - 1) t_c N^2 Nz.
TEST(MachineConstants, IsoefficiencyFindsTheLargestCostThatHoldsTheTarget) {
  const auto input = input_of(read_file("examples/studies/stencil_1d.pdl"),
                              machine_of_text(read_file("examples/machines/ibm-sp2.machine")));
  analysis::IsoefficiencyOptions iso;
  iso.target = 0.8;
  iso.variable = "tw";
  const std::vector<int> processors{16, 64, 256};
  const auto points = analysis::run_isoefficiency({input}, processors, iso, 0);
  ASSERT_TRUE(points.ok());
  for (const analysis::IsoefficiencyPoint& point : *points.value) {
    const double p = point.p;
    const double tw = ((1 / iso.target - 1) * kTc * kN * kN * kNz / (2 * p) - 40) / kBoundaryBytes;
    EXPECT_TRUE(point.machine_constant);
    EXPECT_EQ(point.holds, analysis::IsoefficiencyPoint::Holds::AtMost);
    EXPECT_DOUBLE_EQ(point.range_low, 0.0275 / 1000);
    EXPECT_DOUBLE_EQ(point.range_high, 0.0275 * 1000);
    ASSERT_TRUE(point.size) << p;
    EXPECT_LE(*point.size, tw * (1 + 1e-12)) << p;  // it holds: at or below the bound
    EXPECT_GE(*point.size, tw * (1 - 2e-6)) << p;   // within the relative precision
    EXPECT_GE(point.efficiency, iso.target);
    EXPECT_NEAR(point.efficiency, foster_efficiency(p, 40, *point.size), 1e-12);
    EXPECT_LE(point.evaluations, 40);
  }
  // At p = 256 the closed form gives 0.013671875 us per byte (0.0547 us per word).
  EXPECT_NEAR(*(*points.value)[2].size, 0.013671875, 0.013671875 * 2e-6);
}

// A constant the efficiency grows with (a bandwidth) is bounded from below; a range where every
// value holds, or none, says so.
TEST(MachineConstants, IsoefficiencyOverABandwidthAndTheRangesEnds) {
  const models::Machine machine = machine_of_text(
      "MACHINE NAME IS 'bw';\nVARIABLE ts = 40;\nVARIABLE bandwidth = 10; // bytes per us\n"
      "COMMUNICATION TIME IS 0;\nMESSAGE OVERHEAD IS (ts + L/bandwidth)/2;\n");
  const auto input = input_of(read_file("examples/studies/stencil_1d.pdl"), machine);
  analysis::IsoefficiencyOptions iso;
  iso.target = 0.8;
  iso.variable = "bandwidth";
  const auto points = analysis::run_isoefficiency({input}, {64}, iso, 0);
  ASSERT_TRUE(points.ok());
  const analysis::IsoefficiencyPoint& point = points.value->front();
  const double bandwidth = kBoundaryBytes / ((1 / iso.target - 1) * kTc * kN * kN * kNz / (2 * 64) - 40);
  EXPECT_EQ(point.holds, analysis::IsoefficiencyPoint::Holds::AtLeast);
  ASSERT_TRUE(point.size);
  EXPECT_GE(*point.size, bandwidth * (1 - 1e-12));
  EXPECT_LE(*point.size, bandwidth * (1 + 2e-6));

  iso.constant_min = 1000;
  iso.constant_max = 2000;
  const auto whole = analysis::run_isoefficiency({input}, {64}, iso, 0);
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(whole.value->front().whole_range);
  EXPECT_EQ(*whole.value->front().size, 1000);  // every value holds: the end on the side that holds

  iso.constant_min = 1;
  iso.constant_max = 2;
  const auto none = analysis::run_isoefficiency({input}, {64}, iso, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none.value->front().size);
  EXPECT_NEAR(none.value->front().efficiency, 1 / (1 + 2 * 64 * (40 + kBoundaryBytes / 2) / (kTc * kN * kN * kNz)),
              1e-12);
}

}  // namespace
