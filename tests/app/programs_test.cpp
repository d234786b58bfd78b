// Several programs side by side (pdl-scale a.pdl b.pdl, docs/cli.md "Programs side by side"):
// the program column and field, the crossover between two programs, variables one program
// lacks, and the options refused with several programs.
//
// The two programs of examples/variants/ have deterministic runtimes only, so on the ideal machine
// (free messages and barriers) every method gives the closed form:
//   precompute.pdl: T(p) = setup + 10 * ceil(units / p), setup = 25, units = 2:
//                   45, 35, 35, 35, ... (p >= 2: the same model as p = 2)
//   recompute.pdl: T(p) = 10 * ceil(units / p), units = 8: 80, 40, 30, 20, 20, 20, 20, 10
// precompute is faster at p = 1 (45 < 80) and p = 2 (35 < 40), recompute from p = 3 on
// (30 < 35): the crossover is at p = 3.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "tests/app/analysis_support.hpp"

namespace {

using namespace analysis_support;

constexpr const char* kPrecompute = "examples/variants/precompute.pdl";
constexpr const char* kRecompute = "examples/variants/recompute.pdl";

app::Options two_programs(std::string processors) {
  app::Options options;
  options.file = kPrecompute;
  options.other_files = {kRecompute};
  options.processors = std::move(processors);
  return options;
}

double ceil_div(int n, int p) { return std::ceil(static_cast<double>(n) / p); }

TEST(Programs, EveryProgramIsAnalysedAndItsFiguresAreTheClosedForm) {
  app::Options options = two_programs("1,2,3,4,8");
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["inputs"]["programs"].size(), 2u);
  EXPECT_EQ(report["inputs"]["programs"][0]["label"], "precompute.pdl");
  EXPECT_EQ(report["inputs"]["programs"][0]["name"], "precompute");
  EXPECT_EQ(report["inputs"]["programs"][1]["file"], kRecompute);
  EXPECT_EQ(report["inputs"]["programs"][1]["variables"]["units"], 8.0);
  EXPECT_FALSE(report["inputs"].contains("program"));
  std::map<std::string, std::map<int, double>> predicted;
  for (const auto& one : report["predictions"]) predicted[one["program"]][one["p"].get<int>()] = one["estimate"];
  for (int p : {1, 2, 3, 4, 8}) {
    EXPECT_NEAR(predicted["precompute.pdl"][p], 25.0 + 10.0 * ceil_div(2, p), 1e-9) << p;
    EXPECT_NEAR(predicted["recompute.pdl"][p], 10.0 * ceil_div(8, p), 1e-9) << p;
  }
  for (const auto& row : report["results"]) EXPECT_TRUE(row.contains("program")) << row;
  ASSERT_EQ(report["crossovers"].size(), 1u);
  const auto& crossing = report["crossovers"][0];
  EXPECT_EQ(crossing["faster_first"]["program"], "precompute.pdl");
  EXPECT_EQ(crossing["faster_from"]["program"], "recompute.pdl");
  EXPECT_EQ(crossing["faster_first"]["machine"], "ideal");
  EXPECT_EQ(crossing["p"], 3);
}

TEST(Programs, TheTableHasAProgramColumnAndTheSummarySaysWhereOneOvertakesTheOther) {
  const Outcome run = analyse(two_programs("1,2,3,4"));
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("programs on machine ideal:\n"
                         "  precompute.pdl: precompute (examples/variants/precompute.pdl), setup=25, units=2\n"
                         "  recompute.pdl: recompute (examples/variants/recompute.pdl), units=8\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nprogram            p  prediction [µs]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nrecompute.pdl      3           30.000"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  precompute.pdl is faster below p = 3, recompute.pdl from p = 3 on\n"), std::string::npos)
      << run.out;
}

TEST(Programs, CsvHasTheProgramColumnFirst) {
  app::Options options = two_programs("1,2");
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_EQ(run.out.rfind("program,machine,p,method,estimate_us,", 0), 0u) << run.out;  // the header is line 1
  EXPECT_NE(run.out.find("\nrecompute.pdl,ideal,2,prediction,40,"), std::string::npos) << run.out;
}

TEST(Programs, ASetOfAVariableOneProgramLacksIsANoteForThatOne) {
  // setup = 35: precompute is 55, 45, 45, ...; recompute 80, 40: the crossover moves to p = 2.
  app::Options options = two_programs("1,2,3");
  options.sets = {"setup=35"};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.err.find("pdl-scale: note: --set setup: recompute.pdl declares no variable 'setup' and ignores "
                         "it\n"),
            std::string::npos)
      << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["crossovers"].size(), 1u);
  EXPECT_EQ(report["crossovers"][0]["p"], 2);
  EXPECT_EQ(report["predictions"][0]["estimate"], 55.0);
}

TEST(Programs, ASweepOfAVariableBothDeclareAppliesToBoth) {
  // units = 4: precompute 25 + 10 * ceil(4/p): 65, 45, 45, 35; recompute 40, 20, 20, 10:
  // recompute is faster everywhere, no crossover. units = 2: 45, 35, 35, 35 against 20, 10,
  // 10, 10: no crossover either.
  app::Options options = two_programs("1,2,3,4");
  options.sweeps = {"units=2,4"};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_TRUE(run.err.empty()) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  std::map<std::string, double> at4;
  for (const auto& one : report["predictions"]) {
    if (one["p"] == 4) at4[one["program"].get<std::string>() + " " + one["sweep"]["units"].dump()] = one["estimate"];
  }
  EXPECT_DOUBLE_EQ(at4["precompute.pdl 4.0"], 35.0);
  EXPECT_DOUBLE_EQ(at4["recompute.pdl 4.0"], 10.0);
  EXPECT_DOUBLE_EQ(at4["recompute.pdl 2.0"], 10.0);
  EXPECT_TRUE(report["crossovers"].empty()) << report["crossovers"];
}

TEST(Programs, AVariableNoProgramDeclaresIsAnErrorListingEveryProgramsVariables) {
  app::Options options = two_programs("1,2");
  options.sets = {"unit=4"};
  Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("pdl-scale: error: --set unit: no program declares a variable 'unit'; did you mean "
                         "'units'? (precompute.pdl declares setup, units; recompute.pdl declares units)\n"),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(run.out.empty());
  options.sets.clear();
  options.sweeps = {"nosuch=1,2"};
  run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("--sweep nosuch: no program declares a variable 'nosuch'"), std::string::npos) << run.err;
}

TEST(Programs, AFailureOfOneProgramNamesIt) {
  // no_default.pdl's columns has no value: the error says which program it concerns.
  app::Options options = two_programs("1,2");
  options.other_files = {"tests/app/data/no_default.pdl"};
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("pdl-scale: error: no_default.pdl: variable 'columns' has no default value"),
            std::string::npos)
      << run.err;
}

TEST(Programs, EqualFileNamesAreMadeUnique) {
  app::Options options = two_programs("1");
  options.other_files = {"./examples/variants/precompute.pdl", kPrecompute};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["inputs"]["programs"].size(), 3u);
  // Equal file names take their paths as given; equal paths then get #2.
  EXPECT_EQ(report["inputs"]["programs"][0]["label"], kPrecompute);
  EXPECT_EQ(report["inputs"]["programs"][1]["label"], "./examples/variants/precompute.pdl");
  EXPECT_EQ(report["inputs"]["programs"][2]["label"], std::string(kPrecompute) + "#2");
}

TEST(Programs, OptionsForOneProgramAreRefusedNamingTheOption) {
  const auto refused = [](app::Options options, const std::string& option) {
    options.file = kPrecompute;
    options.other_files = {kRecompute};
    std::ostringstream out, err;
    const int status = analysis_support::run_options(options, out, err);
    EXPECT_EQ(status, app::kExitInput) << option;
    EXPECT_EQ(err.str().rfind("pdl-scale: error: " + option + ": ", 0), 0u) << err.str();
    EXPECT_NE(err.str().find("one program, and 2 are given (examples/variants/precompute.pdl, "
                             "examples/variants/recompute.pdl); give one FILE"),
              std::string::npos)
        << err.str();
    EXPECT_TRUE(out.str().empty());
  };
  app::Options loss;
  loss.loss = true;
  refused(loss, "--loss");
  app::Options iso;
  iso.isoefficiency = 0.5;
  iso.iso_variable = "units";
  refused(iso, "--isoefficiency");
  app::Options isospeed;
  isospeed.isospeed = "base";
  isospeed.iso_variable = "units";
  refused(isospeed, "--isospeed");
  app::Options dump;
  dump.dump = true;
  refused(dump, "--dump");
  app::Options graph;
  graph.graph = 2;
  refused(graph, "--graph");
}

TEST(Programs, CheckTakesEveryFileAndFailsWhenOneFails) {
  app::Options options;
  options.check = true;
  options.file = kPrecompute;
  options.other_files = {kRecompute};
  std::ostringstream out, err;
  EXPECT_EQ(analysis_support::run_options(options, out, err), app::kExitSuccess) << err.str();
  EXPECT_EQ(out.str(), std::string(kPrecompute) + ": ok\n" + kRecompute + ": ok\n");
  options.other_files = {"no/such.pdl", kRecompute};
  std::ostringstream out2, err2;
  EXPECT_EQ(analysis_support::run_options(options, out2, err2), app::kExitInput);
  EXPECT_EQ(out2.str(), std::string(kPrecompute) + ": ok\n" + kRecompute + ": ok\n");
  EXPECT_NE(err2.str().find("cannot open 'no/such.pdl'"), std::string::npos) << err2.str();
}

TEST(Programs, TheChartLegendAndTitleNameThePrograms) {
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("pdl-scale-programs-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(directory);
  app::Options options = two_programs("1,2,4");
  options.plot = (directory / "speedup.svg").string();
  const Outcome run = analyse(options);
  const std::string svg = read(*options.plot);
  std::filesystem::remove_all(directory);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  for (const char* label : {">precompute.pdl · approx<", ">precompute.pdl · bounds<", ">recompute.pdl · approx<",
                            ">recompute.pdl · bounds<", ">precompute.pdl and recompute.pdl on the ideal machine<"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  // The title shows no program's variables (each program has its own).
  EXPECT_EQ(svg.find("setup=25"), std::string::npos);
}

TEST(Programs, EveryProgramFileIsAnInputThatOutputMayNotOverwrite) {
  app::Options options = two_programs("1");
  options.output = kRecompute;
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("-o examples/variants/recompute.pdl would overwrite an input of this run (the program, "
                         "'examples/variants/recompute.pdl')"),
            std::string::npos)
      << run.err;
}

}  // namespace
