// The hostile suite for calibration, validation and set-files (issue 31): seeded runs files,
// set-files and commands (calibration_cases.hpp) through the command's entry points, in
// process, under --memory 64M. Every run must end with exit status 0 and finite figures (JSON:
// every number finite, every interval ordered; table: no nan or inf) and every output written,
// or with exit status 2, an "error:" message and no output left behind; never status 1. Every
// input file is byte for byte what it was. Each mode is one ctest test (its own process), whose
// peak resident memory is held to the budget; a hang fails by the ctest timeout.
//   PDL_SCALE_CALIBRATION_CASES=N  cases per test (default 60); PDL_SCALE_CALIBRATION_SEED=S
#include "tests/hostile/calibration_cases.hpp"
#include "tests/hostile/in_process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

int cases_per_test() {
  const char* text = std::getenv("PDL_SCALE_CALIBRATION_CASES");
  return text != nullptr ? std::max(1, std::atoi(text)) : 60;
}

std::uint64_t seed() {
  const char* text = std::getenv("PDL_SCALE_CALIBRATION_SEED");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 31;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The first non-finite number or unordered interval in `value`, or empty. A missing figure is
// null (docs/calibration.md, "JSON"), and so would be a NaN: the table cases catch those.
std::string json_problem(const nlohmann::json& value, const std::string& key) {
  if (value.is_number_float() && !std::isfinite(value.get<double>())) return "not finite at '" + key + "'";
  if (value.is_array()) {
    if ((key == "interval" || key == "task") && value.size() == 2 && value[0].is_number() && value[1].is_number() &&
        !(value[0].get<double>() <= value[1].get<double>())) {
      return "interval not ordered at '" + key + "': " + value.dump();
    }
    for (const nlohmann::json& item : value) {
      if (std::string problem = json_problem(item, key); !problem.empty()) return problem;
    }
  }
  if (value.is_object()) {
    for (const auto& [name, item] : value.items()) {
      if (std::string problem = json_problem(item, name); !problem.empty()) return problem;
    }
  }
  return "";
}

std::string table_problem(const std::string& text) {
  static const std::regex non_finite(R"((^|[\s,(\[:+-])(nan|-?inf)(%|[\s,)\]]|$))", std::regex::icase);
  std::smatch match;
  return std::regex_search(text, match, non_finite) ? "non-finite figure: '" + match.str() + "'" : "";
}

struct Files {
  fs::path dir, program, machine, runs, sets, output;
  std::vector<std::string> args;
};

// The case's files in their own directory, and its command line.
Files write_case(const hostile::CalibrationCase& one) {
  Files files;
  files.dir = fs::temp_directory_path() / ("pdl-scale-calibration-" + std::to_string(::getpid())) / one.name;
  fs::create_directories(files.dir);
  files.program = files.dir / "tasks.pdl";
  files.machine = files.dir / "barrier.machine";
  files.runs = files.dir / "runs.csv";
  files.sets = files.dir / "fit.sets";
  fs::copy_file("examples/calibration/tasks.pdl", files.program);
  fs::copy_file("examples/calibration/barrier.machine", files.machine);
  std::ofstream(files.runs, std::ios::binary) << one.runs;
  using hostile::CalibrationMode;
  if (one.mode == CalibrationMode::CheckRuns) {
    files.args = {files.runs.string(), "--check"};
    return files;
  }
  files.args = {files.program.string(),
                "--machine",
                files.machine.string(),
                "--memory",
                "64M",
                "--time-limit",
                "5s",
                "--threads",
                "1"};
  if (!one.set_file.empty()) {
    std::ofstream(files.sets, std::ios::binary) << one.set_file;
    files.args.insert(files.args.end(), {"--set-file", files.sets.string()});
  }
  const bool calibrates = one.mode != CalibrationMode::Validate;
  const bool validates = one.mode != CalibrationMode::Calibrate;
  if (calibrates) files.args.insert(files.args.end(), {"--calibrate", files.runs.string(), "--fit", one.fit});
  if (validates) files.args.insert(files.args.end(), {"--validate", files.runs.string()});
  if (one.mode == CalibrationMode::Intervals) files.args.insert(files.args.end(), {"--p", "1,2,64"});
  if (one.draws > 0) files.args.insert(files.args.end(), {"--draws", std::to_string(one.draws)});
  if (one.json) files.args.insert(files.args.end(), {"--format", "json"});
  using hostile::Output;
  const std::map<Output, std::pair<std::string, fs::path>> outputs = {
      {Output::NewFile, {"-o", files.dir / "report.out"}},
      {Output::OntoRuns, {"-o", files.runs}},
      {Output::WriteFit, {"--write-fit", files.dir / "fitted.sets"}},
      {Output::WriteFitOntoSetFile, {"--write-fit", files.sets}},
      {Output::ValidationPlot, {"--validation-plot", files.dir / "validation.svg"}}};
  if (const auto output = outputs.find(one.output); output != outputs.end()) {
    files.output = output->second.second;
    files.args.insert(files.args.end(), {output->second.first, files.output.string()});
  }
  return files;
}

struct Tally {
  int analysed = 0;
  int refused = 0;
};

void expect_handled(const hostile::CalibrationCase& one, Tally& tally) {
  const Files files = write_case(one);
  std::map<fs::path, std::string> inputs;
  for (const fs::path& path : {files.program, files.machine, files.runs, files.sets}) {
    if (fs::exists(path)) inputs[path] = read(path);
  }
  const bool output_existed = !files.output.empty() && fs::exists(files.output);
  const hostile::Run run = hostile::run_command(files.args);
  std::string shown = "case " + one.name + ":";
  for (const std::string& arg : files.args) shown += " " + arg;
  shown += "\n--- runs.csv\n" + one.runs.substr(0, 2000) + "--- fit.sets\n" + one.set_file + "--- stderr\n" +
           run.err.substr(0, 4000);
  (run.status == app::kExitSuccess ? tally.analysed : tally.refused) += 1;
  if (const char* log = std::getenv("PDL_SCALE_HOSTILE_LOG")) {
    std::ofstream(log, std::ios::app) << shown << "\n--- status " << run.status << "\n";
  }
  for (const auto& [path, text] : inputs) EXPECT_EQ(read(path), text) << shown << "\nchanged: " << path;
  if (run.status == app::kExitSuccess) {
    const std::string report =
        files.output.empty() || one.output != hostile::Output::NewFile ? run.out : read(files.output);
    std::string problem;
    if (one.json && one.mode != hostile::CalibrationMode::CheckRuns) {
      const nlohmann::json parsed = nlohmann::json::parse(report, nullptr, false);
      problem = parsed.is_discarded() ? "not JSON" : json_problem(parsed, "");
    } else {
      problem = table_problem(report);
    }
    EXPECT_EQ(problem, "") << shown << "\n--- report\n" << report.substr(0, 4000);
    if (!files.output.empty()) {
      EXPECT_TRUE(fs::exists(files.output)) << shown;
    }
  } else {
    EXPECT_EQ(run.status, app::kExitInput) << shown;
    static const std::regex message(R"((^|\n)(pdl-scale: error: |[^\n]+:[0-9]+:[0-9]+: error: ))");
    EXPECT_TRUE(std::regex_search(run.err, message)) << shown;
    if (!files.output.empty() && !output_existed) {
      EXPECT_FALSE(fs::exists(files.output)) << shown;
    }
  }
  fs::remove_all(files.dir);
}

// --memory 64M, plus what the budget does not cover: the test binary and its libraries, the
// parsed inputs (docs/cli.md), as in hostile_test.cpp.
constexpr double kBudgetMib = 64.0;
constexpr double kOutsideBudgetMib = 48.0;

class Mode : public testing::TestWithParam<hostile::CalibrationMode> {};

TEST_P(Mode, HostileRunsAndSetFilesGiveFiniteFiguresOrAMessage) {
  const auto mode = GetParam();
  hostile::CalibrationGenerator generate(seed() * 7919 + static_cast<std::uint64_t>(mode));
  Tally tally;
  const int cases = cases_per_test();
  for (int k = 0; k < cases; ++k) {
    hostile::CalibrationCase one =
        generate.next("mode" + std::to_string(static_cast<int>(mode)) + "-" + std::to_string(k));
    one.mode = mode;
    expect_handled(one, tally);
  }
  const double peak = hostile::peak_resident_mib();
  std::printf("%d analysed (exit 0), %d refused (exit 2); peak resident memory %.1f MiB\n", tally.analysed,
              tally.refused, peak);
  EXPECT_LE(peak, kBudgetMib + kOutsideBudgetMib) << "past --memory 64M";
  // A suite whose every case is refused would test little.
  if (cases >= 40) {
    EXPECT_GE(tally.analysed, cases / 20);
  }
}

std::string mode_name(const testing::TestParamInfo<hostile::CalibrationMode>& info) {
  static const char* const names[] = {"CheckRuns", "Calibrate", "Validate", "CalibrateAndValidate", "Intervals"};
  return names[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Calibration, Mode,
                         testing::Values(hostile::CalibrationMode::CheckRuns, hostile::CalibrationMode::Calibrate,
                                         hostile::CalibrationMode::Validate,
                                         hostile::CalibrationMode::CalibrateAndValidate,
                                         hostile::CalibrationMode::Intervals),
                         mode_name);

}  // namespace
