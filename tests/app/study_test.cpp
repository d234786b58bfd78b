// The studies beyond one speedup curve: several machines side by side, problem-size sweeps,
// the loss analysis, isoefficiency, the Extra-P export and the SVG chart.
#include "app/commands.hpp"
#include "app/options.hpp"
#include "tests/app/analysis_support.hpp"
#include "report/plot.hpp"
#include "analysis/loss.hpp"
#include "analysis/study.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace {

using namespace analysis_support;

constexpr const char* kCluster = "examples/machines/cluster.machine";
constexpr const char* kSmp = "examples/machines/smp.machine";

std::vector<double> values_of(const std::string& text) {
  const auto parsed = app::parse_sweep(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << (parsed.failure ? parsed.failure->text : "");
  return parsed.ok() ? parsed.value->values : std::vector<double>{};
}

// The refusal's message, without the "pdl-scale: error: " before it and the end of line.
std::string sweep_error(const std::string& text) {
  const auto parsed = app::parse_sweep(text);
  EXPECT_FALSE(parsed.ok()) << text;
  if (parsed.ok()) return {};
  const std::string& refusal = parsed.failure->text;
  const std::string prefix = "pdl-scale: error: ";
  EXPECT_TRUE(refusal.starts_with(prefix) && refusal.ends_with('\n')) << refusal;
  return refusal.substr(prefix.size(), refusal.size() - prefix.size() - 1);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// ---- --sweep syntax ----------------------------------------------------------------------

TEST(SweepSyntax, ListsRangesStepsAndFactors) {
  EXPECT_EQ(values_of("columns=10,20,30"), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(values_of("columns=1..4"), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(values_of("columns=10..100:30"), (std::vector<double>{10, 40, 70, 100}));
  EXPECT_EQ(values_of("columns=10,20,40..160*2"), (std::vector<double>{10, 20, 40, 80, 160}));
  EXPECT_EQ(values_of("columns=2..20*3"), (std::vector<double>{2, 6, 18}));
  // The end of a fractional range is reached despite rounding; repeats are dropped.
  EXPECT_EQ(values_of("x=0.1..0.3:0.1").size(), 3u);
  EXPECT_EQ(values_of("columns=10,10,5..10:5"), (std::vector<double>{10, 5}));
  EXPECT_EQ(values_of("columns=7..7"), (std::vector<double>{7}));
}

TEST(SweepSyntax, MalformedListsAreRefusedWithTheItem) {
  EXPECT_NE(sweep_error("columns").find("expected NAME=LIST"), std::string::npos);
  EXPECT_NE(sweep_error("=1,2").find("expected NAME=LIST"), std::string::npos);
  EXPECT_NE(sweep_error("columns=").find("expected NAME=LIST"), std::string::npos);
  EXPECT_NE(sweep_error("columns=ten").find("'ten' is not a finite number"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1,,2").find("'' is empty"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1,").find("'' is empty"), std::string::npos);
  EXPECT_NE(sweep_error("columns=10..").find("'10..' is not a range"), std::string::npos);
  EXPECT_NE(sweep_error("columns=5..1").find("runs backwards"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1..5:0").find("needs a step > 0"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1..5:-1").find("needs a step > 0"), std::string::npos);
  EXPECT_NE(sweep_error("columns=0..8*2").find("a factor > 1 and a start > 0"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1..8*1").find("a factor > 1"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1..1e9").find("more than 10000 values"), std::string::npos);
  EXPECT_NE(sweep_error("columns=1..5:x").find("not a range"), std::string::npos);
  EXPECT_NE(sweep_error("columns=inf").find("not a finite number"), std::string::npos);
}

TEST(SweepSyntax, SeveralVariablesMakeTheirCrossProduct) {
  const std::vector<analysis::SweepVariable> variables{{"a", {1, 2}}, {"b", {10, 20, 30}}};
  const auto combinations = analysis::sweep_combinations(variables);
  ASSERT_EQ(combinations.size(), 6u);
  EXPECT_EQ(combinations[0], (std::vector<std::pair<std::string, double>>{{"a", 1}, {"b", 10}}));
  EXPECT_EQ(combinations[5], (std::vector<std::pair<std::string, double>>{{"a", 2}, {"b", 30}}));
  EXPECT_EQ(analysis::sweep_combinations({}).size(), 1u);
}

// ---- machines side by side ---------------------------------------------------------------

TEST(Machines, TwoMachinesGiveTwoDifferentCurvesInOneReport) {
  app::Options options = neighbor("1,2,4,8");
  options.machine_files = {kCluster, kSmp};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["schema"], "pdl-scale/4");
  ASSERT_EQ(report["inputs"]["machines"].size(), 2u);
  EXPECT_EQ(report["inputs"]["machines"][0]["name"], "cluster");
  EXPECT_EQ(report["inputs"]["machines"][1]["file"], kSmp);
  const auto& rows = report["results"];
  ASSERT_EQ(rows.size(), 8u);
  std::map<std::string, std::map<int, double>> speedup;
  for (const auto& row : rows) speedup[row["machine"]][row["p"].get<int>()] = row["speedup"].get<double>();
  // The cluster's messages (50 µs start-up against 12 µs tasks) and contention cap it far below
  // the shared-memory node, whose copies cost 0.05 µs + 0.1 ns per byte.
  EXPECT_LT(speedup["cluster"][8], 2.0);
  EXPECT_GT(speedup["smp"][8], 4.0);
  EXPECT_LT(speedup["cluster"][2], 1.0);  // two processors are slower than one on the cluster
}

TEST(Machines, TableHasAMachineColumnAndOneLinePerMachineAndP) {
  app::Options options = neighbor("2,4");
  options.machine_files = {kCluster, kSmp};
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("on machines cluster, smp, columns=10, iterations=2\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nmachine     p  prediction [µs]"), std::string::npos) << run.out;
  // The prediction is the prediction's own Monte Carlo (mc*); approx (246.911 on the cluster at
  // p = 2) is 30% above it.
  EXPECT_NE(run.out.find("\ncluster     2  189.532 ± 0.176   mc*    1.266       0.633  246.911 ± 0.038"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\nsmp         4   52.966 ± 0.052   mc*    3.021       0.755   54.087 ± 0.021"),
            std::string::npos)
      << run.out;
}

TEST(Machines, BadOrRepeatedMachinesExitTwo) {
  app::Options options = neighbor("2");
  options.machine_files = {kCluster, "tests/app/data/broken.machine"};
  Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("broken.machine:"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty());
  options.machine_files = {kCluster, kCluster};
  run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("a machine named 'cluster' is already given"), std::string::npos) << run.err;
  options.machine_files = {kCluster, "no/such.machine"};
  run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("cannot open 'no/such.machine'"), std::string::npos) << run.err;
}

// ---- problem-size sweeps -----------------------------------------------------------------

TEST(ProblemSize, SweepGivesARowPerValueAndP) {
  app::Options options = neighbor("2,4");
  options.sweeps = {"columns=10,20..40:20"};
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  std::istringstream lines(run.out);
  std::string line;
  do {
    std::getline(lines, line);
  } while (line.rfind("#", 0) == 0);  // the version, command, seed and unit
  EXPECT_EQ(line,
            "machine,columns,p,method,estimate_us,lower_us,upper_us,interval_kind,speedup,efficiency,speedup_lower,"
            "speedup_upper,from");
  std::vector<std::string> rows;
  while (std::getline(lines, line)) {
    if (line.find(",approx,") != std::string::npos) rows.push_back(line.substr(0, line.find(",approx")));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"ideal,10,2", "ideal,10,4", "ideal,20,2", "ideal,20,4", "ideal,40,2",
                                            "ideal,40,4"}));
}

TEST(ProblemSize, SweptValuesMatchTheSameValueSet) {
  app::Options swept = neighbor("4");
  swept.sweeps = {"columns=20"};
  swept.format = report::Format::Json;
  app::Options set = neighbor("4");
  set.sets = {"columns=20"};
  set.format = report::Format::Json;
  const Outcome a = analyse(swept), b = analyse(set);
  ASSERT_EQ(a.status, app::kExitSuccess) << a.err;
  ASSERT_EQ(b.status, app::kExitSuccess) << b.err;
  const auto x = nlohmann::json::parse(a.out)["results"][0];
  const auto y = nlohmann::json::parse(b.out)["results"][0];
  EXPECT_EQ(x["estimate"], y["estimate"]);
  EXPECT_EQ(x["sweep"]["columns"], 20.0);
  EXPECT_TRUE(y["sweep"].empty());
}

TEST(ProblemSize, TwoSweptVariablesAndTwoMachinesMakeEveryCombination) {
  app::Options options = neighbor("2");
  options.sweeps = {"columns=10,20", "iterations=1..3"};
  options.machine_files = {kSmp, kCluster};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto rows = nlohmann::json::parse(run.out)["results"];
  ASSERT_EQ(rows.size(), 12u);
  std::set<std::tuple<std::string, double, double>> seen;
  for (const auto& row : rows) {
    seen.emplace(row["machine"], row["sweep"]["columns"], row["sweep"]["iterations"]);
  }
  EXPECT_EQ(seen.size(), 12u);
}

TEST(ProblemSize, BadSweepsExitTwoNamingTheProblem) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"colums=10,20"},
       "--sweep colums: the program declares no variable 'colums'; did you mean 'columns'? (it declares columns, "
       "iterations)"},
      {{"columns=10..5"}, "runs backwards"},
      {{"columns=10,,20"}, "is empty"},
      {{"columns=1", "columns=2"}, "--sweep columns: the variable is swept twice"},
  };
  for (const auto& [sweeps, message] : cases) {
    app::Options options = neighbor("2");
    options.sweeps = sweeps;
    const Outcome run = analyse(options);
    EXPECT_EQ(run.status, app::kExitInput) << sweeps.front();
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
  app::Options both = neighbor("2");
  both.sweeps = {"columns=10,20"};
  both.sets = {"columns=5"};
  const Outcome run = analyse(both);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("also bound by --set"), std::string::npos) << run.err;
}

TEST(ProblemSize, AVariableWithoutDefaultMayBeSweptOrSearched) {
  app::Options options = neighbor("2");
  options.file = "tests/app/data/no_default.pdl";
  Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("columns"), std::string::npos) << run.err;
  options.sweeps = {"columns=10,20"};
  run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("iterations=2; columns swept over 10 20"), std::string::npos) << run.out;
  options.sweeps.clear();
  options.isoefficiency = 0.8;
  options.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
  options.iso_variable = "columns";
  options.processors = "4";
  run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("\n   4       12       0.822   58.401"), std::string::npos) << run.out;
}

TEST(ProblemSize, ALongSweepIsSummedUpInTheHeading) {
  app::Options options = neighbor("2");
  options.sweeps = {"columns=10..40"};
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("; columns swept over 10 11 12 13 14 15 … (31 values) 35 36 37 38 39 40\n"), std::string::npos)
      << run.out.substr(0, 200);
  // One table line per value (columns, then p = 2).
  std::istringstream in(run.out);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line)) lines += std::regex_search(line, std::regex("^ *[0-9]+ +2  ")) ? 1 : 0;
  EXPECT_EQ(lines, 31u) << run.out;
}

TEST(ProblemSize, OtherCommandsTakeOneMachine) {
  app::Options options = neighbor("2");
  options.machine_files = {kSmp, kCluster};
  std::ostringstream out, err;
  options.dump = true;
  EXPECT_EQ(analysis_support::run_options(options, out, err), app::kExitInput);
  EXPECT_NE(err.str().find("--machine: give one machine file here (several only for the analysis)"), std::string::npos)
      << err.str();
  options.dump = false;
  options.graph = 2;
  EXPECT_EQ(analysis_support::run_options(options, out, err), app::kExitInput);
  EXPECT_TRUE(out.str().empty());
}

TEST(ProblemSize, AnInvalidSweptValueExitsTwo) {
  app::Options options = neighbor("2");
  options.sweeps = {"columns=10,-3"};
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_FALSE(run.err.empty());
  EXPECT_TRUE(run.out.empty());
}

TEST(ProblemSize, ResultsDoNotDependOnTheThreadCount) {
  app::Options one = neighbor("1,2,3,4");
  one.methods = "approx,bounds,mc";
  one.samples = 2000;
  one.sweeps = {"columns=6,10"};
  one.machine_files = {kSmp, kCluster};
  one.loss = true;
  one.format = report::Format::Csv;
  one.request.threads = 1;
  app::Options two = one;
  two.request.threads = 2;
  const Outcome a = analyse(one), b = analyse(two);
  ASSERT_EQ(a.status, app::kExitSuccess) << a.err;
  EXPECT_EQ(a.out, b.out);
}

// ---- loss analysis -----------------------------------------------------------------------

TEST(Loss, EachPhaseAloneHasItsSpeedupAndShare) {
  app::Options options;
  options.file = "examples/studies/jacobi.pdl";
  options.processors = "1,2,32";
  options.methods = "approx";
  options.loss = true;
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  EXPECT_TRUE(report["inputs"]["options"]["loss"].get<bool>());
  ASSERT_EQ(report["results"].size(), 3u);
  const auto& loss = report["loss"];
  ASSERT_EQ(loss.size(), 15u);  // setup, relax, norm, output and the barriers alone at 3 p
  std::map<int, double> shares;
  std::map<std::pair<std::string, int>, double> speedup;
  for (const auto& row : loss) {
    const double share = row["share"].get<double>();
    if (row["phase"] == "SYNC") {
      EXPECT_EQ(share, 0.0) << row;  // barriers are free on the ideal machine
      EXPECT_TRUE(row["speedup"].is_null()) << row;
      continue;
    }
    EXPECT_GT(share, 0.0) << row;
    EXPECT_LE(share, 1.0) << row;
    shares[row["p"].get<int>()] += share;
    speedup[{row["phase"], row["p"].get<int>()}] = row["speedup"].get<double>();
  }
  // On the ideal machine only the maxima over processors are not additive: the shares add up
  // to about the whole.
  for (const auto& [p, total] : shares) EXPECT_NEAR(total, 1.0, 0.02) << "p = " << p;
  // The sequential phases do not scale; the relaxation scales best (the paper's loss profile).
  const auto at32 = [&speedup](const std::string& phase) { return speedup[std::make_pair(phase, 32)]; };
  EXPECT_DOUBLE_EQ(at32("setup"), 1.0);
  EXPECT_DOUBLE_EQ(at32("output"), 1.0);
  EXPECT_GT(at32("relax"), 24.0);
  EXPECT_GT(at32("relax"), at32("norm"));
  EXPECT_EQ(loss[0]["phase"], "setup");
}

TEST(Loss, BarriersAloneShowWhatSynchronisationCosts) {
  app::Options options;
  options.file = "examples/studies/jacobi.pdl";
  options.processors = "8";
  options.methods = "approx";
  options.loss = true;
  options.machine_files = {kCluster};
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("machine,phase,share,p,method,"), std::string::npos) << run.out;
  // 11 barriers of 2 ts log2(8) = 300 µs: 3300 µs of the 6008 µs on 8 processors.
  const std::size_t at = run.out.find("\ncluster,SYNC,0.549");
  EXPECT_NE(at, std::string::npos) << run.out;
  EXPECT_NE(run.out.find(",8,approx,3300,", at), std::string::npos) << run.out;
}

TEST(Loss, AOnePhaseProgramIsItsOwnLossProfile) {
  app::Options options = neighbor("2,5");
  options.loss = true;
  options.machine_files = {kSmp};
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["loss"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(report["loss"][i]["phase"], "sweep");
    EXPECT_DOUBLE_EQ(report["loss"][i]["share"].get<double>(), 1.0);
    EXPECT_EQ(report["loss"][i]["estimate"], report["results"][i]["estimate"]);
  }
}

TEST(Loss, TableShowsAColumnPairPerPhase) {
  app::Options options;
  options.file = "examples/studies/jacobi.pdl";
  options.processors = "2";
  options.methods = "approx";
  options.loss = true;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("loss analysis (paper section 5), method approx"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("speedup setup  share setup  speedup relax  share relax  speedup norm  share norm  "
                         "speedup output  share output  speedup SYNC  share SYNC"),
            std::string::npos)
      << run.out;
}

TEST(Loss, WithOnlyPhaseFreesEveryOtherPhase) {
  models::Program program;
  models::WorkPhase kept;
  kept.name = "a";
  models::RuntimeSpec exponential;
  exponential.kind = models::DistKind::Exponential;
  exponential.params = {models::Expr::constant(3)};
  kept.runtime = exponential;
  kept.volume = models::Expr::constant(8);
  models::WorkPhase other = kept;
  other.name = "b";
  program.phases["a"] = kept;
  program.phases["b"] = other;
  models::SequentialPhase sequential;
  sequential.name = "s";
  sequential.runtime = exponential;
  program.phases["s"] = sequential;
  const models::Program only = analysis::with_only_phase(program, "a");
  EXPECT_EQ(std::get<models::WorkPhase>(only.phases.at("a")).runtime->kind, models::DistKind::Exponential);
  EXPECT_EQ(std::get<models::WorkPhase>(only.phases.at("b")).runtime, models::zero_runtime());
  EXPECT_TRUE(models::is_constant(std::get<models::WorkPhase>(only.phases.at("b")).volume));
  EXPECT_EQ(std::get<models::WorkPhase>(only.phases.at("b")).volume.number, 0.0);
  EXPECT_EQ(std::get<models::SequentialPhase>(only.phases.at("s")).runtime, models::zero_runtime());
}

// ---- isoefficiency -----------------------------------------------------------------------

TEST(Isoefficiency, SizesHoldTheEfficiencyAndOneLessDoesNot) {
  app::Options options = neighbor("1,2,4,8,16");
  options.machine_files = {kSmp};
  options.isoefficiency = 0.8;
  options.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
  options.iso_variable = "columns";
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  const auto& points = report["isoefficiency"]["points"];
  ASSERT_EQ(points.size(), 5u);
  // The example of docs/isoefficiency.md.
  const double expected[] = {1, 2, 12, 40, 126};
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i]["size"].get<double>(), expected[i]) << points[i];
    EXPECT_GE(points[i]["efficiency"].get<double>(), 0.8);
  }
  // One column less misses the target.
  for (std::size_t i = 1; i < points.size(); ++i) {
    app::Options check = neighbor(std::to_string(points[i]["p"].get<int>()));
    check.machine_files = {kSmp};
    check.sets = {"columns=" + std::to_string(static_cast<int>(expected[i]) - 1)};
    check.format = report::Format::Json;
    const Outcome below = analyse(check);
    ASSERT_EQ(below.status, app::kExitSuccess) << below.err;
    EXPECT_LT(nlohmann::json::parse(below.out)["results"][0]["efficiency"].get<double>(), 0.8) << i;
  }
}

TEST(Isoefficiency, ContentionMakesTheTargetUnreachable) {
  // On the cluster, contention 0.001 T (P - 1) caps the efficiency at 1 / (1 + 0.001 P (P - 1)):
  // 0.806 at P = 16, 0.50 at P = 32.
  app::Options options = neighbor("16,32");
  options.machine_files = {kCluster};
  options.isoefficiency = 0.8;
  options.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
  options.iso_variable = "columns";
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("\n  16    77360       0.800"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n  32        -       0.502"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("no columns up to 1e+09 (--iso-max) reaches the efficiency"), std::string::npos) << run.out;
}

TEST(Isoefficiency, BadRequestsExitTwo) {
  const std::tuple<std::optional<double>, std::string, std::string> cases[] = {
      {0.0, "columns", "--isoefficiency 0: the efficiency must be in (0, 1]"},
      {1.5, "columns", "--isoefficiency 1.5: the efficiency must be in (0, 1]"},
      {-0.2, "columns", "must be in (0, 1]"},
      {0.8, "", "--isoefficiency needs --iso-variable NAME"},
      {0.8, "width", "--iso-variable width: the program declares no variable 'width'"},
      {std::nullopt, "columns", "--iso-variable needs --isoefficiency E"},
  };
  for (const auto& [target, variable, message] : cases) {
    app::Options options = neighbor("2");
    options.isoefficiency = target;
    options.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
    options.iso_variable = variable;
    const Outcome run = analyse(options);
    EXPECT_EQ(run.status, app::kExitInput) << message;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  }
  app::Options with_set = neighbor("2");
  with_set.isoefficiency = 0.5;
  with_set.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
  with_set.iso_variable = "columns";
  with_set.sets = {"columns=4"};
  const Outcome set_run = analyse(with_set);
  EXPECT_EQ(set_run.status, app::kExitInput);
  EXPECT_NE(set_run.err.find("--iso-variable columns: the variable is also bound by --set"), std::string::npos)
      << set_run.err;
  app::Options with_plot = neighbor("2");
  with_plot.isoefficiency = 0.5;
  with_plot.methods.reset();  // --isoefficiency solves approx alone, and refuses --method
  with_plot.iso_variable = "columns";
  with_plot.plot = "never.svg";
  EXPECT_EQ(analyse(with_plot).status, app::kExitInput);
  EXPECT_FALSE(std::filesystem::exists("never.svg"));
}

// ---- Extra-P JSON Lines ------------------------------------------------------------------

TEST(ExtraP, EveryLineHasTheSameParamsACallpathAMetricAndAValue) {
  app::Options options = neighbor("1,2,4");
  options.methods = "approx,bounds";
  options.sweeps = {"columns=10,20"};
  options.machine_files = {kSmp, kCluster};
  options.format = report::Format::Jsonl;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  std::istringstream lines(run.out);
  std::string line;
  std::size_t n = 0;
  std::set<std::string> callpaths, metrics;
  while (std::getline(lines, line)) {
    ++n;
    const auto object = nlohmann::json::parse(line);
    ASSERT_TRUE(object.contains("params")) << line;
    std::vector<std::string> keys;
    for (const auto& [key, value] : object["params"].items()) {
      keys.push_back(key);
      EXPECT_TRUE(value.is_number()) << line;
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"columns", "p"})) << line;  // nlohmann::json sorts keys
    callpaths.insert(object["callpath"]);
    metrics.insert(object["metric"]);
    EXPECT_TRUE(object["value"].is_number()) << line;
  }
  // 2 machines x 2 sizes x 3 p x 3 metrics of approx; bounds have no estimate, so no time,
  // speedup or efficiency point (docs/cli.md)
  EXPECT_EQ(n, 36u);
  EXPECT_EQ(callpaths, (std::set<std::string>{"smp->neighbor-5.1", "cluster->neighbor-5.1"}));
  EXPECT_EQ(metrics, (std::set<std::string>{"time [us] (approx)", "speedup (approx)", "efficiency (approx)"}));
}

TEST(ExtraP, ParamsComeInTheOrderPThenTheSweptVariables) {
  app::Options options = neighbor("2");
  options.sweeps = {"iterations=3", "columns=10"};
  options.format = report::Format::Jsonl;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_EQ(
      run.out.rfind("{\"params\":{\"p\":2,\"iterations\":3.0,\"columns\":10.0},\"callpath\":\"ideal->neighbor-5.1\","
                    "\"metric\":\"time [us] (approx)\",\"value\":",
                    0),
      0u)
      << run.out;
}

// ---- the chart ---------------------------------------------------------------------------

TEST(Plot, NiceTicksAreRoundNumbers) {
  EXPECT_EQ(report::nice_ticks(1, 10, 8, true), (std::vector<double>{2, 4, 6, 8, 10}));
  EXPECT_EQ(report::nice_ticks(1, 64, 8, true), (std::vector<double>{10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(report::nice_ticks(0, 1.02, 5, false), (std::vector<double>{0, 0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(report::nice_ticks(0, 7, 6, false), (std::vector<double>{0, 2, 4, 6}));
  EXPECT_EQ(report::nice_ticks(1, 2, 8, true), (std::vector<double>{1, 2}));
}

class PlotFile : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("pdl-scale-plot-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::filesystem::path directory_;
};

TEST_F(PlotFile, OneLinePerMachineAndMethodWithBandsLegendAxesAndTicks) {
  app::Options options = neighbor("1,2,3,4,5,6,7,8");
  options.methods = "approx,bounds,mc";
  options.samples = 1000;
  options.machine_files = {kCluster, kSmp};
  options.plot = (directory_ / "speedup.svg").string();
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const std::string svg = read(*options.plot);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("viewBox=\"0 0 960 820\""), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // 2 machines x 3 methods, in 2 panels: a line for approx and mc, a band for each of the three
  // (approx's bracket, the bounds, mc's confidence interval), the bounds' with its two edges.
  EXPECT_EQ(count(svg, "<polyline class=\"series\""), 8u);
  EXPECT_EQ(count(svg, "<path class=\"band\""), 12u);
  EXPECT_EQ(count(svg, "<polyline class=\"band-edge\""), 8u);
  EXPECT_EQ(count(svg, "<polyline class=\"ideal\""), 2u);
  EXPECT_EQ(count(svg, "<g class=\"legend-entry\""), 7u);
  for (const char* entry : {">cluster · approx<", ">cluster · bounds<", ">cluster · mc<", ">smp · approx<",
                            ">smp · bounds<", ">smp · mc<", ">ideal (speedup p)<"}) {
    EXPECT_NE(svg.find(entry), std::string::npos) << entry;
  }
  EXPECT_NE(svg.find(">neighbor.pdl on cluster and smp, columns = 10, iterations = 2</text>"), std::string::npos);
  EXPECT_NE(svg.find(">predicted speedup and efficiency · methods approx, bounds, mc</text>"), std::string::npos);
  EXPECT_EQ(count(svg, ">processors p</text>"), 2u);
  EXPECT_EQ(count(svg, ">speedup T(1) / T(p)</text>"), 1u);
  EXPECT_EQ(count(svg, ">efficiency (speedup / p)</text>"), 1u);
  // Tick labels: round numbers on both axes of both panels.
  std::vector<std::string> ticks;
  const std::regex tick("<text class=\"tick-label\"[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it) {
    ticks.push_back((*it)[1]);
  }
  for (const char* expected : {"2", "4", "6", "8", "0", "0.25", "0.5", "0.75", "1"}) {
    EXPECT_NE(std::find(ticks.begin(), ticks.end(), expected), ticks.end()) << expected;
  }
  for (const std::string& label : ticks)
    EXPECT_TRUE(std::regex_match(label, std::regex("[0-9]+(\\.[0-9]+)?"))) << label;
  // Every coordinate is a finite number.
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  const std::regex points("points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), points); it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(std::regex_match((*it)[1].str(), std::regex("(-?[0-9]+\\.[0-9]{2},-?[0-9]+\\.[0-9]{2} ?)+")))
        << (*it)[1];
  }
  // Every opened element is closed (a rough well-formedness check; the ctest app.plot_is_xml
  // parses it with a real XML parser).
  EXPECT_EQ(count(svg, "<g"), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
}

TEST_F(PlotFile, ASweptSizeIsALinePerValue) {
  app::Options options = neighbor("1,2,4,8");
  options.sweeps = {"columns=10,20,40"};
  options.plot = (directory_ / "sizes.svg").string();
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const std::string svg = read(*options.plot);
  EXPECT_EQ(count(svg, "<polyline class=\"series\""), 6u);
  EXPECT_EQ(count(svg, "<path class=\"band\""), 6u);              // approx's brackets
  EXPECT_EQ(count(svg, ">processors p (log scale)</text>"), 2u);  // p = 1, 2, 4, 8
  for (const char* entry : {">columns=10<", ">columns=20<", ">columns=40<"}) {
    EXPECT_NE(svg.find(entry), std::string::npos) << entry;
  }
}

TEST_F(PlotFile, OneProcessorCountAndOneSweptVariablePlotAgainstTheSize) {
  app::Options options = neighbor("8");
  options.methods = "approx,bounds";
  options.sweeps = {"columns=80,10..40*2"};
  options.machine_files = {kSmp, kCluster};
  options.plot = (directory_ / "sizes.svg").string();
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const std::string svg = read(*options.plot);
  EXPECT_NE(svg.find(">predicted speedup and efficiency on 8 processors · methods approx, bounds</text>"),
            std::string::npos);
  EXPECT_NE(svg.find(">neighbor.pdl on smp and cluster, columns = 10, 20, 40, 80, iterations = 2</text>"),
            std::string::npos);
  EXPECT_EQ(count(svg, ">problem size: columns</text>"), 2u);
  EXPECT_EQ(count(svg, "<polyline class=\"series\""), 4u);  // 2 machines x approx x 2 panels (bounds: bands)
  EXPECT_NE(svg.find(">ideal (speedup 8)<"), std::string::npos);
  for (const char* entry : {">smp · approx<", ">smp · bounds<", ">cluster · approx<", ">cluster · bounds<"}) {
    EXPECT_NE(svg.find(entry), std::string::npos) << entry;
  }
  // The points run left to right although 80 was given first: x grows along every line.
  const std::regex points("<polyline class=\"series\" points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), points); it != std::sregex_iterator(); ++it) {
    std::istringstream coordinates((*it)[1].str());
    std::string pair;
    double last = -1;
    int n = 0;
    while (coordinates >> pair) {
      const double x = std::stod(pair.substr(0, pair.find(',')));
      EXPECT_GT(x, last) << (*it)[1];
      last = x;
      ++n;
    }
    EXPECT_EQ(n, 4);
  }
}

TEST_F(PlotFile, ManyLongLegendEntriesStayInsideTheChart) {
  app::Options options = neighbor("1,2,4");
  options.sweeps = {"columns=10,20,40", "iterations=1..4"};
  options.machine_files = {kSmp, kCluster};
  options.methods = "approx,bounds";
  options.plot = (directory_ / "many.svg").string();
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const std::string svg = read(*options.plot);
  EXPECT_EQ(count(svg, "<g class=\"legend-entry\""), 49u);  // 2 x 3 x 4 x 2 lines and the ideal
  EXPECT_NE(svg.find(">cluster, columns=40, iterations=4 · bounds<"), std::string::npos);
  const std::smatch box = [&svg] {
    std::smatch m;
    std::regex_search(svg, m, std::regex("viewBox=\"0 0 ([0-9]+) ([0-9]+)\""));
    return m;
  }();
  ASSERT_EQ(box.size(), 3u);
  const double width = std::stod(box[1]), height = std::stod(box[2]);
  EXPECT_GT(width, 960);  // widened for the 41-character labels
  const std::regex entry("<g class=\"legend-entry\"[^>]*>.*?<text x=\"([0-9]+)\" y=\"([0-9]+)\">([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), entry); it != std::sregex_iterator(); ++it) {
    EXPECT_LT(std::stod((*it)[2]), height - 10) << (*it)[3];
    EXPECT_LT(std::stod((*it)[1]) + 7.5 * static_cast<double>((*it)[3].length()), width + 40) << (*it)[3];
  }
}

TEST(Plot, AHoleInASeriesStaysAHole) {
  std::vector<analysis::Row> rows;
  for (int p = 1; p <= 3; ++p) {
    analysis::Row row;
    row.p = p;
    row.result.method = solvers::Method::SeriesParallel;
    if (p == 2) row.result.unsolved = solvers::Unsolved{};
    if (p != 2) row.speedup = p == 1 ? 1.0 : 2.5;
    rows.push_back(row);
  }
  const analysis::StudyResult study({{0, "ideal", "", {}, "", 0, ""}}, {1, 2, 3}, {solvers::Method::SeriesParallel},
                                    std::move(rows), {}, 0.0);
  report::ReportInputs inputs;
  inputs.program_name = "holes";
  inputs.machines = {{"ideal", "", {}, {}}};
  const std::string svg = report::render_plot(study, inputs, {});
  EXPECT_EQ(count(svg, "<polyline class=\"series\""), 0u);
  EXPECT_EQ(count(svg, "<path class=\"series\" d=\"M"), 2u);  // speedup and efficiency
  const std::size_t at = svg.find("<path class=\"series\" d=\"M");
  EXPECT_NE(svg.find(" M", at + 25), std::string::npos) << svg.substr(at, 120);
  EXPECT_EQ(svg.substr(at, 120).find(" L"), std::string::npos) << svg.substr(at, 120);
}

TEST_F(PlotFile, AnUnwritablePlotExitsTwoAndWritesNothing) {
  app::Options options = neighbor("1,2");
  options.plot = (directory_ / "no" / "such" / "dir" / "speedup.svg").string();
  options.output = (directory_ / "report.txt").string();
  const Outcome run = analyse(options);
  EXPECT_EQ(run.status, app::kExitInput);
  EXPECT_NE(run.err.find("pdl-scale: error: --plot: "), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(options.output.value()));
  EXPECT_TRUE(std::filesystem::is_empty(directory_));
}

}  // namespace
