// Runs files (docs/calibration.md, "Runs files"): what a good file gives, a located message
// for every kind of bad one, and the committed runs of examples/measure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "pdl/runs.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::machine_of_text;
using test_support::program_of_text;

pdl::RunsResult parse(const std::string& text, pdl::RunsNames names = {}) {
  return pdl::parse_runs(text, "runs.csv", names);
}

// The first diagnostic as the command prints its first line.
std::string first_error(const std::string& text, pdl::RunsNames names = {}) {
  const pdl::RunsResult result = parse(text, names);
  EXPECT_FALSE(result.runs.has_value());
  if (result.diagnostics.empty()) return "(none)";
  const std::string formatted = pdl::format(result.diagnostics.front());
  return formatted.substr(0, formatted.find('\n'));
}

TEST(Runs, AGoodFileGivesEveryRunInMicroseconds) {
  const auto result = parse(
      "# Sun and Zhu's runs (a comment)\n"
      "# unit: ms\n"
      "p, n, time, repetition\n"
      "2, 100, 1.5, 1\n"
      "\n"
      "2, 100, 1.7, 2   # a slower repetition\n"
      "4,200,+2.25e0,1\n");
  ASSERT_TRUE(result.runs.has_value()) << pdl::format(result.diagnostics);
  const models::Runs& runs = *result.runs;
  EXPECT_EQ(runs.variables, std::vector<std::string>{"n"});
  EXPECT_EQ(runs.variable_locations.at(0).line, 3);
  EXPECT_EQ(runs.variable_locations.at(0).column, 4);
  EXPECT_TRUE(runs.has_unit);
  EXPECT_TRUE(runs.has_repetition);
  ASSERT_EQ(runs.runs.size(), 3u);
  EXPECT_EQ(runs.runs[0].p, 2);
  EXPECT_DOUBLE_EQ(runs.runs[0].time, 1500.0);
  EXPECT_EQ(runs.runs[1].repetition, 2);
  EXPECT_EQ(runs.runs[1].location.line, 6);
  EXPECT_EQ(runs.runs[2].p, 4);
  EXPECT_DOUBLE_EQ(runs.runs[2].values.at(0), 200.0);
  EXPECT_DOUBLE_EQ(runs.runs[2].time, 2250.0);
}

TEST(Runs, WithoutAUnitTheTimesAreAsWritten) {
  const auto result = parse("time,p\n12.5,1\n");
  ASSERT_TRUE(result.runs.has_value());
  EXPECT_FALSE(result.runs->has_unit);
  EXPECT_FALSE(result.runs->has_repetition);
  EXPECT_DOUBLE_EQ(result.runs->runs.at(0).time, 12.5);
}

TEST(Runs, BadFilesAreLocated) {
  EXPECT_EQ(first_error(""), "runs.csv:1:1: error: no header: expected a line such as 'p,n,time' naming the columns");
  EXPECT_EQ(first_error("p,n\n1,2\n"),
            "runs.csv:1:1: error: the header has no column 'time' (the measured runtime of each run)");
  EXPECT_EQ(first_error("n,time\n1,2\n"),
            "runs.csv:1:1: error: the header has no column 'p' (the processor count of each run)");
  EXPECT_EQ(first_error("p,time\n"), "runs.csv:2:1: error: no runs: expected a row of values after the header");
  EXPECT_EQ(first_error("p,time,p\n1,2,3\n"), "runs.csv:1:8: error: the column 'p' appears twice");
  EXPECT_EQ(first_error("p,time,2n\n1,2,3\n"),
            "runs.csv:1:8: error: '2n' is not a column name: expected p, time, repetition or a variable's name");
  EXPECT_EQ(first_error("p,time\n1,2,3\n"), "runs.csv:2:5: error: a row has 3 fields, the header 2");
  EXPECT_EQ(first_error("p,time,n\n1,2\n"), "runs.csv:2:4: error: a row has 2 fields, the header 3");
  EXPECT_EQ(first_error("p,time\n1,-3\n"), "runs.csv:2:3: error: time must be > 0, got -3");
  EXPECT_EQ(first_error("p,time\n1,0\n"), "runs.csv:2:3: error: time must be > 0, got 0");
  EXPECT_EQ(first_error("p,time\n1,fast\n"), "runs.csv:2:3: error: time must be a finite number, got 'fast'");
  EXPECT_EQ(first_error("p,time\n1,1e999\n"), "runs.csv:2:3: error: time must be a finite number, got '1e999'");
  EXPECT_EQ(first_error("p,time\n2.5,1\n"), "runs.csv:2:1: error: p must be a whole number in [1, 1048576], got 2.5");
  EXPECT_EQ(first_error("p,time\n0,1\n"), "runs.csv:2:1: error: p must be a whole number in [1, 1048576], got 0");
  EXPECT_EQ(first_error("p,time,repetition\n1,1,0\n"),
            "runs.csv:2:5: error: repetition must be a whole number in [1, 1048576], got 0");
  EXPECT_EQ(first_error("p,time\n# unit: s\n1,1\n"), "runs.csv:2:1: error: '# unit:' must come before the header");
  EXPECT_EQ(first_error("# unit: hours\np,time\n1,1\n"),
            "runs.csv:1:1: error: unknown unit 'hours': expected ns, us (or \xC2\xB5s), ms or s");
  // Every bad row is reported, not only the first.
  EXPECT_EQ(parse("p,time\n0,1\n1,-1\n1,1\n").diagnostics.size(), 2u);
}

// The columns besides p, time and repetition name the program's variables or the machine's
// constants.
TEST(Runs, AColumnTheProgramAndMachineDoNotDeclareIsAnError) {
  const models::Machine machine = machine_of_text("MACHINE NAME IS 'm';\nVARIABLE ts = 40;\n");
  const models::Program program = program_of_text(
      "PROGRAM NAME IS 'x';\nEXECUTION PATTERN IS w;\nVARIABLE n = 10;\n"
      "WORK PHASE w IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
      "  PROBLEM SIZE IS VECTOR a(n);\nEND;\n",
      machine);
  const pdl::RunsNames names{&program, &machine};
  EXPECT_TRUE(parse("p,n,ts,time\n1,10,40,5\n", names).runs.has_value());
  EXPECT_EQ(first_error("p,size,time\n1,10,5\n", names),
            "runs.csv:1:3: error: the column 'size' is neither p, time, repetition, a variable of the program nor a "
            "constant of the machine (they declare n, ts)");
}

}  // namespace

namespace {

// Every prefix of a file, and the file with each character replaced by a comma, a digit, a
// letter or a minus, is read whole or refused with a diagnostic: never both, never neither.
TEST(Runs, EveryPrefixAndOneCharacterChangeIsReadOrRefused) {
  const std::string good = "# unit: us\np,n,time,repetition\n2,100,1.5,1\n4,200,2.5,2\n";
  std::vector<std::string> texts;
  for (std::size_t n = 0; n <= good.size(); ++n) texts.push_back(good.substr(0, n));
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (char c : {',', '7', 'x', '-', '#', ' '}) {
      std::string changed = good;
      changed[i] = c;
      texts.push_back(changed);
    }
  }
  for (const std::string& text : texts) {
    const pdl::RunsResult result = pdl::parse_runs(text, "runs.csv");
    EXPECT_NE(result.runs.has_value(), !result.diagnostics.empty()) << text;
    if (result.runs) {
      for (const models::Run& run : result.runs->runs) {
        EXPECT_GE(run.p, 1) << text;
        EXPECT_GT(run.time, 0.0) << text;
        EXPECT_EQ(run.values.size(), result.runs->variables.size()) << text;
      }
    }
  }
}

}  // namespace

namespace {

// The committed runs of the Jacobi kernel (docs/measured.md, "Runs at several sizes and thread
// counts"), their second run, and their split into calibration and validation runs: each file
// parses with the names of the program and machine they are calibrated with, and has the sweep
// the docs describe: 7 square sizes, p = 1 and 2, 10 repetitions, iterations = round(1.6e8 /
// points). The calibration runs are every size at 1 thread and the three smallest at 2
// threads; the validation runs the rest.
struct JacobiRuns {
  models::Program program;
  models::Machine machine;
};

JacobiRuns jacobi_model() {
  const models::Machine machine = machine_of_text(test_support::read_file("examples/measure/epyc-2core.machine"));
  return {program_of_text(test_support::read_file("examples/measure/jacobi_model.pdl"), machine), machine};
}

models::Runs committed_runs(const std::string& path, const JacobiRuns& model) {
  const pdl::RunsResult result =
      pdl::parse_runs(test_support::read_file(path), path, pdl::RunsNames{&model.program, &model.machine});
  if (!result.runs) {
    ADD_FAILURE() << pdl::format(result.diagnostics);
    return {};
  }
  return *result.runs;
}

// (p, rows, columns, iterations, repetition) of every run, and the time, for comparing files.
using RunKey = std::tuple<std::int64_t, double, double, double, std::int64_t>;
std::map<RunKey, double> runs_by_setting(const models::Runs& runs) {
  std::map<RunKey, double> out;
  for (const models::Run& run : runs.runs) {
    out[{run.p, run.values.at(0), run.values.at(1), run.values.at(3), run.repetition}] = run.time;
  }
  return out;
}

// The sweep and its second run, jacobi_runs_repeat.csv.
class CommittedJacobiSweep : public testing::TestWithParam<std::string> {};

TEST_P(CommittedJacobiSweep, IsTheDocumentedSweep) {
  const JacobiRuns model = jacobi_model();
  const models::Runs all = committed_runs(GetParam(), model);
  EXPECT_EQ(all.variables, (std::vector<std::string>{"rows", "columns", "blocks", "iterations"}));
  EXPECT_TRUE(all.has_unit);
  EXPECT_TRUE(all.has_repetition);
  ASSERT_EQ(all.runs.size(), 7u * 2u * 10u);
  const std::set<double> sizes{256, 362, 512, 724, 1024, 1448, 2048};
  std::map<std::pair<std::int64_t, double>, int> count;  // (p, size) -> runs
  for (const models::Run& run : all.runs) {
    const double rows = run.values.at(0), columns = run.values.at(1);
    EXPECT_EQ(rows, columns) << "line " << run.location.line;
    EXPECT_TRUE(sizes.count(rows)) << "line " << run.location.line;
    EXPECT_EQ(run.values.at(2), 16.0);
    EXPECT_EQ(run.values.at(3), std::max(1.0, std::round(1.6e8 / (rows * columns)))) << "line " << run.location.line;
    EXPECT_GE(run.repetition, 1);
    EXPECT_LE(run.repetition, 10);
    ++count[{run.p, rows}];
  }
  for (std::int64_t p : {1, 2}) {
    for (double size : sizes) EXPECT_EQ((count[{p, size}]), 10) << "p " << p << ", size " << size;
  }
  // Every run took 20 ms to 1 s, the range the sizes and iteration counts were chosen for.
  for (const models::Run& run : all.runs) {
    EXPECT_GT(run.time, 20e3) << "line " << run.location.line;
    EXPECT_LT(run.time, 1e6) << "line " << run.location.line;
  }
}

INSTANTIATE_TEST_SUITE_P(Runs, CommittedJacobiSweep,
                         testing::Values("examples/measure/jacobi_runs.csv",
                                         "examples/measure/jacobi_runs_repeat.csv"));

TEST(Runs, TheJacobiCalibrationAndValidationRunsSplitTheSweep) {
  const JacobiRuns model = jacobi_model();
  const auto all = runs_by_setting(committed_runs("examples/measure/jacobi_runs.csv", model));
  const models::Runs calibrate = committed_runs("examples/measure/jacobi_runs_calibrate.csv", model);
  const models::Runs validate = committed_runs("examples/measure/jacobi_runs_validate.csv", model);
  EXPECT_EQ(calibrate.variables, (std::vector<std::string>{"rows", "columns", "blocks", "iterations"}));
  EXPECT_EQ(validate.variables, calibrate.variables);
  EXPECT_EQ(calibrate.runs.size(), 7u * 10u + 3u * 10u);
  EXPECT_EQ(validate.runs.size(), 4u * 10u);
  for (const models::Run& run : calibrate.runs) {
    EXPECT_TRUE(run.p == 1 || run.values.at(0) <= 512) << "line " << run.location.line;
  }
  for (const models::Run& run : validate.runs) {
    EXPECT_EQ(run.p, 2) << "line " << run.location.line;
    EXPECT_GE(run.values.at(0), 724) << "line " << run.location.line;
  }
  // Together they are the whole sweep, every run once and with its time.
  auto together = runs_by_setting(calibrate);
  const auto validation = runs_by_setting(validate);
  together.insert(validation.begin(), validation.end());
  EXPECT_EQ(together.size(), calibrate.runs.size() + validate.runs.size());
  EXPECT_EQ(together, all);
}

}  // namespace
