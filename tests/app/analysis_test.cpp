// The analysis command (pdl-scale FILE --pmax N ...) run in-process: the reports, their
// inputs, and the handling of bad input.
#include "app/commands.hpp"
#include "app/options.hpp"
#include "tests/app/analysis_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

namespace {

using namespace analysis_support;

TEST(Analysis, JsonReportHasSchemaInputsAndOneRowPerProcessorCount) {
  app::Options options = neighbor("1,2,3,4,5,6,7,8,9,10");
  options.format = report::Format::Json;
  options.request.solver_options.series_parallel.grid.max_points =
      16384;  // a bracket narrow enough to decide the paper's cut digits
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["schema"], "pdl-scale/4");
  EXPECT_EQ(report["time_unit"], "us");
  EXPECT_EQ(report["inputs"]["program"]["name"], "neighbor-5.1");
  ASSERT_EQ(report["inputs"]["machines"].size(), 1u);
  EXPECT_EQ(report["inputs"]["machines"][0]["name"], "ideal");
  EXPECT_TRUE(report["inputs"]["machines"][0]["file"].is_null());
  EXPECT_EQ(report["inputs"]["variables"]["columns"], 10.0);
  EXPECT_EQ(report["inputs"]["variables"]["iterations"], 2.0);
  const auto& rows = report["results"];
  ASSERT_EQ(rows.size(), 10u);
  // The paper's Table 3, 2 iterations, printed cut to one decimal.
  const double table3[10] = {160, 87.1, 65.8, 53.8, 41.7, 40.5, 38.9, 36.7, 33, 25.7};
  for (int p = 1; p <= 10; ++p) {
    const auto& row = rows[static_cast<std::size_t>(p - 1)];
    EXPECT_EQ(row["p"], p);
    EXPECT_EQ(row["method"], "approx");
    EXPECT_GE(row["lower"].get<double>(), table3[p - 1] - 1e-9) << "p = " << p;
    EXPECT_LT(row["upper"].get<double>(), table3[p - 1] + 0.1) << "p = " << p;
    EXPECT_EQ(row["interval_kind"], "bracket");
    EXPECT_NEAR(row["speedup"].get<double>(), 160.0 / row["estimate"].get<double>(), 1e-12);
    EXPECT_NEAR(row["efficiency"].get<double>(), row["speedup"].get<double>() / p, 1e-12);
    EXPECT_LE(row["speedup_lower"].get<double>(), row["speedup"].get<double>());
    EXPECT_GE(row["speedup_upper"].get<double>(), row["speedup"].get<double>());
  }
}

// docs/cli.md, "The prediction" and "Notes": what the JSON carries of them.
TEST(Analysis, JsonCarriesThePredictionsIntervalKindTheSummaryPerThresholdAndTheNotes) {
  app::Options options = neighbor("1,2,6");
  options.methods = "auto";
  options.request.solver_options.state_space.max_states = 5000;
  options.efficiency = "0.9,0.6";
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  const auto& predictions = report["predictions"];
  ASSERT_EQ(predictions.size(), 3u);
  // p = 1 and 2: the exact mean (asked for); p = 6: over --max-states, so the prediction solved
  // Monte Carlo itself, its interval cut to the bounds.
  EXPECT_EQ(predictions[1]["method"], "exact");
  EXPECT_EQ(predictions[1]["own_solve"], false);
  EXPECT_EQ(predictions[1]["interval_kind"], "exact");
  EXPECT_EQ(predictions[2]["method"], "mc");
  EXPECT_EQ(predictions[2]["own_solve"], true);
  EXPECT_EQ(predictions[2]["interval_kind"], "confidence");
  const auto& bounds = report["results"][7];  // p = 6: approx, bounds, exact
  ASSERT_EQ(bounds["method"], "bounds");
  EXPECT_GE(predictions[2]["lower"].get<double>(), bounds["lower"].get<double>());
  EXPECT_LE(predictions[2]["upper"].get<double>(), bounds["upper"].get<double>());
  EXPECT_NEAR(predictions[2]["efficiency_lower"].get<double>(), 160.0 / 6 / predictions[2]["upper"].get<double>(),
              1e-12);
  // Exact efficiencies 1, 0.929; Monte Carlo's at p = 6 is 0.683.
  const auto& efficiency = report["summary"][0]["efficiency"];
  ASSERT_EQ(efficiency.size(), 2u);
  EXPECT_EQ(efficiency[0]["threshold"], 0.9);
  EXPECT_EQ(efficiency[0]["largest_p"], 2);
  EXPECT_EQ(efficiency[1]["threshold"], 0.6);
  EXPECT_EQ(efficiency[1]["largest_p"], 6);
  EXPECT_EQ(report["inputs"]["options"]["efficiency_thresholds"], nlohmann::json::array({0.9, 0.6}));
  const auto& notes = report["notes"];
  ASSERT_EQ(notes.size(), 1u) << notes.dump(2);
  EXPECT_EQ(notes[0]["kind"], "not_computed");
  EXPECT_EQ(notes[0]["machine"], "ideal");
  EXPECT_EQ(notes[0]["p"], nlohmann::json::array({6}));
  EXPECT_EQ(notes[0]["method"], "exact");
  EXPECT_EQ(notes[0]["text"].get<std::string>().rfind("exact not computed for p = 6: about 3.6e+07 states", 0), 0u);
}

TEST(Analysis, SpeedupsAreAgainstOneProcessorEvenWhenItIsNotListed) {
  app::Options options = neighbor("2,10");
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  std::istringstream lines(run.out);
  std::string header, line;
  do {
    std::getline(lines, header);
  } while (header.rfind("#", 0) == 0);  // the version, command, seed and unit
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line);
  EXPECT_EQ(header,
            "machine,p,method,estimate_us,lower_us,upper_us,interval_kind,speedup,efficiency,speedup_lower,"
            "speedup_upper,from");
  // A prediction row and the method's, for p = 2 and 10 only: p = 1 is solved, not reported.
  ASSERT_EQ(rows.size(), 4u) << run.out;
  // The prediction solves the exact mean itself (86.076 by the state space), below approx.
  EXPECT_EQ(rows[0].rfind("ideal,2,prediction,86.076", 0), 0u) << rows[0];
  EXPECT_NE(rows[0].find(",exact,"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[1].rfind("ideal,2,approx,87.1", 0), 0u) << rows[1];
  EXPECT_EQ(rows[3].rfind("ideal,10,approx,25.7", 0), 0u) << rows[3];
  // T(1) = 160: the speedup at p = 2 is 160 / 87.114.
  EXPECT_NE(rows[1].find(",bracket,1.836"), std::string::npos) << rows[1];
}

TEST(Analysis, ResultsDoNotDependOnTheThreadCount) {
  app::Options one = neighbor("1,2,3,4,5,6,7,8");
  one.format = report::Format::Csv;
  one.request.threads = 1;
  app::Options two = one;
  two.request.threads = 2;
  const Outcome a = analyse(one), b = analyse(two);
  ASSERT_EQ(a.status, app::kExitSuccess);
  EXPECT_EQ(a.out, b.out);
}

TEST(Analysis, TableShowsTheMachineAndVariables) {
  app::Options options = neighbor("1,4");
  options.machine_files = {"examples/machines/cluster.machine"};
  options.sets = {"columns=20"};
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("on machine cluster, columns=20, iterations=2"), std::string::npos) << run.out;
  // RTFactor 1.5 on one processor: 20 columns x 2 iterations x mean 8 x 1.5.
  // The prediction at p = 1 is that chain's sum, exact (solved for the prediction: exact*).
  EXPECT_NE(run.out.find("   1          480.000  exact*    1.000       1.000  480.000 ± 0.000"), std::string::npos)
      << run.out;
}

TEST(Analysis, OutputFileIsWrittenWholeOrNotAtAll) {
  const auto directory = std::filesystem::temp_directory_path() / "pdl-scale-analysis-test";
  std::filesystem::create_directories(directory);
  const std::string path = (directory / "result.json").string();
  {
    std::ofstream old(path);
    old << "previous contents\n";
  }
  app::Options options = neighbor("1,2");
  options.format = report::Format::Json;
  options.output = path;
  options.sets = {"iterations=2.5"};  // invalid: nothing may be written
  EXPECT_EQ(analyse(options).status, app::kExitInput);
  EXPECT_EQ(read(path), "previous contents\n");
  options.sets.clear();
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_TRUE(run.out.empty());
  EXPECT_EQ(nlohmann::json::parse(read(path))["results"].size(), 2u);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) ++files;
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
  std::filesystem::remove_all(directory);
}

// Monte Carlo of the exact model: a fixed seed gives the same figures whatever the thread
// count, and the estimate lies below the approximate model's mean (Kleinöder: the barrier
// model is an upper bound) within its confidence interval.
TEST(Analysis, MonteCarloIsReproducibleAndBelowTheApproximateModel) {
  app::Options options = neighbor("1,2,3,4,5,6,7,8,9,10");
  options.methods = "approx,mc";
  options.format = report::Format::Csv;
  options.samples = 20000;
  options.request.solver_options.monte_carlo.seed = 7;
  options.request.threads = 1;
  const Outcome one = analyse(options);
  options.request.threads = 2;
  const Outcome two = analyse(options);
  ASSERT_EQ(one.status, app::kExitSuccess) << one.err;
  EXPECT_EQ(one.out, two.out);
  options.format = report::Format::Json;
  const auto report = nlohmann::json::parse(analyse(options).out);
  const auto& rows = report["results"];
  ASSERT_EQ(rows.size(), 20u);
  for (std::size_t p = 0; p < 10; ++p) {
    const auto& approx = rows[2 * p];
    const auto& mc = rows[2 * p + 1];
    EXPECT_EQ(approx["method"], "approx");
    EXPECT_EQ(mc["method"], "mc");
    EXPECT_LE(mc["lower"].get<double>(), approx["upper"].get<double>()) << "p = " << p + 1;
  }
  // p = 1 runs the 20 tasks in sequence: 160 on average.
  EXPECT_LE(rows[1]["lower"].get<double>(), 160.0);
  EXPECT_GE(rows[1]["upper"].get<double>(), 160.0);
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(Graph, ExactModelIsDrawnWithOneClusterPerProcessor) {
  app::Options options = neighbor("");
  options.graph = 2;
  options.model = app::GraphModel::Exact;
  std::ostringstream out, err;
  ASSERT_EQ(analysis_support::run_options(options, out, err), app::kExitSuccess) << err.str();
  const std::string dot = out.str();
  EXPECT_EQ(dot.rfind("digraph \"neighbor-5.1 on 2 processors (exact model, machine ideal)\"", 0), 0u);
  EXPECT_EQ(occurrences(dot, "shape=box,"), 20u);  // 10 columns x 2 iterations
  EXPECT_EQ(occurrences(dot, "subgraph cluster_p"), 2u);
  EXPECT_EQ(dot.back(), '\n');
}

// 10 columns on 3 processors: one runs 4 columns, two run 3 (the latest of two identical
// processors), in each of the 2 iterations; drawn as a graph (docs/cli.md, "--graph P"), with
// the tasks' ERLANG(8, 1) in PDL (tests/app/dot_graph.py checks the shape on every example).
TEST(Graph, ApproximateModelIsDrawnAsItsSeriesParallelGraph) {
  app::Options options = neighbor("");
  options.graph = 3;
  std::ostringstream out, err;
  ASSERT_EQ(analysis_support::run_options(options, out, err), app::kExitSuccess) << err.str();
  const std::string dot = out.str();
  EXPECT_EQ(occurrences(dot, "label=\"× 4 in series\""), 2u) << dot;
  EXPECT_EQ(occurrences(dot, "label=\"× 3 in series\""), 2u) << dot;
  EXPECT_EQ(occurrences(dot, "label=\"× 2 in parallel\""), 2u) << dot;
  EXPECT_EQ(occurrences(dot, "label=\"fork\""), 2u) << dot;
  EXPECT_EQ(occurrences(dot, "label=\"join (the latest)\""), 2u) << dot;
  EXPECT_EQ(occurrences(dot, "sweep task\\nERLANG(8, 1): mean 8"), 4u) << dot;
}

TEST(Graph, BadRequestsExitTwo) {
  // An unknown --model is refused by the command line (app.model_unknown_exits_2).
  for (const auto& [p, message] : std::vector<std::tuple<int, std::string>>{{0, "--graph 0"}}) {
    app::Options options = neighbor("");
    options.graph = p;
    std::ostringstream out, err;
    EXPECT_EQ(analysis_support::run_options(options, out, err), app::kExitInput) << message;
    EXPECT_NE(err.str().find(message), std::string::npos) << err.str();
    EXPECT_TRUE(out.str().empty());
  }
}

// The default methods, and "auto": every figure on the right side of the others. The exact
// model's mean lies within its bounds, and below the approximate model (Kleinöder).
TEST(Analysis, AutoPutsTheExactMeanBetweenTheBoundsAndBelowTheApproximation) {
  app::Options options = neighbor("1,2,3,4,5,6");
  options.methods = "auto";
  options.request.solver_options.state_space.max_states = 10'000'000;  // p = 6 (3.6e7 states) is skipped with a note
  options.format = report::Format::Json;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  const auto rows = nlohmann::json::parse(run.out)["results"];
  ASSERT_EQ(rows.size(), 18u);
  for (std::size_t p = 1; p <= 6; ++p) {
    const auto& approx = rows[3 * (p - 1)];
    const auto& bounds = rows[3 * (p - 1) + 1];
    const auto& exact = rows[3 * (p - 1) + 2];
    ASSERT_EQ(approx["method"], "approx");
    ASSERT_EQ(bounds["method"], "bounds");
    ASSERT_EQ(exact["method"], "exact");
    EXPECT_LE(bounds["upper"].get<double>(), approx["upper"].get<double>() + 1e-9) << "p = " << p;
    if (p == 6) {
      EXPECT_TRUE(exact["estimate"].is_null());
      EXPECT_NE(exact["detail"].get<std::string>().find("--max-states 10000000"), std::string::npos);
      continue;
    }
    const double mean = exact["estimate"].get<double>();
    EXPECT_LE(bounds["lower"].get<double>(), mean + 1e-9) << "p = " << p;
    EXPECT_GE(bounds["upper"].get<double>(), mean - 1e-9) << "p = " << p;
    EXPECT_LE(mean, approx["lower"].get<double>()) << "p = " << p;
  }
  options.format = report::Format::Table;
  const Outcome table = analyse(options);
  EXPECT_NE(table.out.find("exact not computed for p = 6: about 3.6e+07 states"), std::string::npos) << table.out;
}

TEST(Analysis, DefaultMethodsAreTheApproximationAndTheBounds) {
  app::Options options = neighbor("2");
  options.methods = app::Options{}.methods;
  options.format = report::Format::Csv;
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("\nideal,2,approx,"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nideal,2,bounds,"), std::string::npos) << run.out;
}

TEST(Analysis, ExactMethodsSkipModelsBeyondTheTaskLimit) {
  app::Options options = neighbor("1,2");
  options.methods = "approx,bounds,mc";
  options.sets = {"columns=1000", "iterations=1000"};
  const Outcome run = analyse(options);
  ASSERT_EQ(run.status, app::kExitSuccess) << run.err;
  EXPECT_NE(run.out.find("bounds not computed for p = 1-2: the exact model has about 1000000 tasks, "
                         "more than the limit of 200000 (--max-exact-tasks)"),
            std::string::npos)
      << run.out;
}

TEST(Options, ByteSizes) {
  EXPECT_EQ(app::parse_bytes("4G"), std::uint64_t{4} << 30);
  EXPECT_EQ(app::parse_bytes("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(app::parse_bytes("1000"), 1000u);
  EXPECT_FALSE(app::parse_bytes("0"));
  EXPECT_FALSE(app::parse_bytes("4X"));
  EXPECT_FALSE(app::parse_bytes("G"));
  EXPECT_FALSE(app::parse_bytes("99999999999T"));
}

struct BadCase {
  std::string name;
  app::Options options;
  std::string message;
};

TEST(Analysis, BadInputExitsTwoWithAMessage) {
  std::vector<BadCase> cases;
  cases.push_back({"p below 1", neighbor("0"), "processor count 0 is outside"});
  cases.push_back({"not a number", neighbor("1,two"), "'two' is not a processor count"});
  cases.push_back({"trailing comma", neighbor("1,2,"), "missing after the last comma"});
  app::Options huge = neighbor("");
  huge.pmax = 1000000;
  cases.push_back({"pmax too large", huge, "--pmax 1000000 is outside [1, 65536]"});
  app::Options zero = neighbor("");
  zero.pmax = 0;
  cases.push_back({"pmax zero", zero, "--pmax 0 is outside"});
  app::Options unwritable = neighbor("1");
  unwritable.output = "/nonexistent-directory/result.txt";
  cases.push_back({"unwritable output", unwritable, "cannot write '/nonexistent-directory/result.txt'"});
  app::Options machine = neighbor("1");
  machine.machine_files = {"tests/app/data/broken.machine"};
  cases.push_back({"machine that does not parse", machine, "tests/app/data/broken.machine:2:13: error:"});
  app::Options missing = neighbor("1");
  missing.file = "no/such/program.pdl";
  cases.push_back({"missing program", missing, "cannot open 'no/such/program.pdl'"});
  app::Options bound = neighbor("1,2");
  bound.sets = {"iterations=2.5"};
  cases.push_back({"invalid bound value", bound, "neighbor.pdl:11:28: error:"});
  app::Options grid = neighbor("1");
  grid.request.solver_options.series_parallel.grid.max_points = 3;
  cases.push_back({"grid too small", grid, "max_points"});
  app::Options method = neighbor("1");
  method.methods = "approx,magic";
  cases.push_back({"unknown method", method, "unknown method 'magic'"});
  for (const BadCase& c : cases) {
    const Outcome run = analyse(c.options);
    EXPECT_EQ(run.status, app::kExitInput) << c.name;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << c.name << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << c.name;
  }
}

}  // namespace
