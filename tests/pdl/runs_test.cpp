// Runs files (docs/calibration.md, "Runs files"): what a good file gives, and a located message
// for every kind of bad one.
#include <gtest/gtest.h>

#include <string>

#include "pdl/runs.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::machine_of_text;
using test_support::program_of_text;

pdl::RunsResult parse(const std::string& text, pdl::RunsNames names = {}) { return pdl::parse_runs(text, "runs.csv", names); }

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
  EXPECT_EQ(first_error("p,n\n1,2\n"), "runs.csv:1:1: error: the header has no column 'time' (the measured runtime of each run)");
  EXPECT_EQ(first_error("n,time\n1,2\n"), "runs.csv:1:1: error: the header has no column 'p' (the processor count of each run)");
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
