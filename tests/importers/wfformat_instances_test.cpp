// The WfCommons reader on the instances of validation/wfinstances/: each imports, its program
// checks, its exact model at p >= its task count is the critical path of the instance's graph
// and at smaller p the round-robin the header describes, and its data and runs files hold the
// instance's measurements. Every expected figure is computed here from the JSON (read with
// nlohmann-json's own DOM), not by the reader's code.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <vector>

#include "models/measurements.hpp"
#include "pdl/measurements.hpp"
#include "pdl/runs.hpp"
#include "tests/importers/wfformat_test_util.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using namespace wfformat_test;

// The instance as this test reads it: tasks in the specification's order, each with its parents
// (its parents list; the instances' lists agree with their children lists, checked below), its
// measured runtime in seconds and its command's program.
struct Instance {
  std::vector<std::string> ids;
  std::vector<std::vector<std::size_t>> parents;
  std::vector<double> seconds;
  std::vector<std::string> programs;
  double makespan = 0.0;
  double cores = 0.0;
};

Instance instance_of(const std::string& text) {
  const nlohmann::json document = nlohmann::json::parse(text);
  const nlohmann::json& workflow = document.at("workflow");
  Instance instance;
  std::map<std::string, std::size_t> index;
  for (const nlohmann::json& task : workflow.at("specification").at("tasks")) {
    index[task.at("id").get<std::string>()] = instance.ids.size();
    instance.ids.push_back(task.at("id").get<std::string>());
  }
  instance.parents.resize(instance.ids.size());
  std::size_t from_children = 0;
  for (const nlohmann::json& task : workflow.at("specification").at("tasks")) {
    const std::size_t child = index.at(task.at("id").get<std::string>());
    for (const nlohmann::json& parent : task.at("parents")) instance.parents[child].push_back(index.at(parent));
    from_children += task.at("children").size();
  }
  std::size_t from_parents = 0;
  for (const auto& list : instance.parents) from_parents += list.size();
  EXPECT_EQ(from_parents, from_children);
  instance.seconds.resize(instance.ids.size());
  instance.programs.resize(instance.ids.size());
  for (const nlohmann::json& task : workflow.at("execution").at("tasks")) {
    const std::size_t t = index.at(task.at("id").get<std::string>());
    instance.seconds[t] = task.at("runtimeInSeconds").get<double>();
    instance.programs[t] = task.at("command").at("program").get<std::string>();
  }
  instance.makespan = workflow.at("execution").at("makespanInSeconds").get<double>();
  for (const nlohmann::json& machine : workflow.at("execution").at("machines")) {
    instance.cores += machine.at("cpu").at("coreCount").get<double>();
  }
  return instance;
}

double microseconds(double seconds) { return seconds * *models::microseconds_per("s"); }

// The longest path of runtimes through the graph, in microseconds.
double critical_path(const Instance& instance) {
  std::vector<double> finish(instance.ids.size(), -1.0);
  std::function<double(std::size_t)> finish_of = [&](std::size_t t) {
    if (finish[t] < 0.0) {
      double start = 0.0;
      for (std::size_t p : instance.parents[t]) start = std::max(start, finish_of(p));
      finish[t] = start + microseconds(instance.seconds[t]);
    }
    return finish[t];
  };
  double longest = 0.0;
  for (std::size_t t = 0; t < instance.ids.size(); ++t) longest = std::max(longest, finish_of(t));
  return longest;
}

// The makespan the program's header promises for p processors: tasks numbered by Kahn's
// algorithm (of the ready tasks, the first in the instance first), task i on processor i mod p,
// each processor running its tasks level by level and in number order within a level
// (docs/semantics.md A1, A2), a task starting when its parents and its processor's previous task
// have finished.
double round_robin(const Instance& instance, int p) {
  const std::size_t n = instance.ids.size();
  std::vector<std::vector<std::size_t>> children(n);
  std::vector<std::size_t> waiting(n);
  for (std::size_t v = 0; v < n; ++v) {
    waiting[v] = instance.parents[v].size();
    for (std::size_t u : instance.parents[v]) children[u].push_back(v);
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (waiting[v] == 0) ready.push(v);
  std::vector<std::size_t> order, level(n, 0);
  while (!ready.empty()) {
    const std::size_t u = ready.top();  // taken before its children join the queue
    ready.pop();
    order.push_back(u);
    for (std::size_t v : children[u]) {
      level[v] = std::max(level[v], level[u] + 1);
      if (--waiting[v] == 0) ready.push(v);
    }
  }
  std::vector<std::size_t> number(n);
  for (std::size_t i = 0; i < n; ++i) number[order[i]] = i;
  std::vector<std::size_t> by_level = order;
  std::stable_sort(by_level.begin(), by_level.end(), [&](std::size_t a, std::size_t b) { return level[a] < level[b]; });
  std::vector<double> finish(n, 0.0), processor_free(static_cast<std::size_t>(p), 0.0);
  double makespan = 0.0;
  for (std::size_t t : by_level) {
    double& free = processor_free[number[t] % static_cast<std::size_t>(p)];
    double start = free;
    for (std::size_t u : instance.parents[t]) start = std::max(start, finish[u]);
    finish[t] = free = start + microseconds(instance.seconds[t]);
    makespan = std::max(makespan, finish[t]);
  }
  return makespan;
}

TEST(WfFormatInstances, EachImportsAndItsProgramChecks) {
  double seconds = 0.0;
  for (const std::string& path : vendored()) {
    const std::string text = read_file(path);
    const auto begin = std::chrono::steady_clock::now();
    const importers::ImportResult result = importers::import_wfformat(text, path);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    ASSERT_TRUE(result.imported.has_value()) << path << "\n" << pdl::format(result.diagnostics);
    EXPECT_TRUE(result.diagnostics.empty()) << pdl::format(result.diagnostics);
    const std::optional<models::Program> program = checked_program(result.imported->program);
    ASSERT_TRUE(program.has_value()) << path;
    const models::WorkPhase* phase = models::find_work_phase(*program, "workflow");
    ASSERT_NE(phase, nullptr);
    const Instance instance = instance_of(text);
    EXPECT_EQ(phase->tasks.size(), instance.ids.size()) << path;
    std::size_t dependencies = 0;
    for (const auto& list : instance.parents) dependencies += list.size();
    EXPECT_EQ(phase->arcs.size(), dependencies) << path;
  }
  std::printf("[ figures  ] %zu instances imported in %.3f s\n", vendored().size(), seconds);
}

// Exact (the state space: deterministic tasks are a longest path) on the ideal machine, where a
// message costs nothing.
double exact_makespan(const std::string& program, int p) {
  const auto study = analysis::run_study({test_support::case_of(program, "MACHINE NAME IS 'ideal';\n")},
                                         test_support::request_for({p}, {solvers::Method::StateSpace}));
  if (!study.ok()) {
    ADD_FAILURE() << "p = " << p << ": " << study.failure->text();
    return std::numeric_limits<double>::quiet_NaN();
  }
  const solvers::Result& result = study.value->at(0, p, solvers::Method::StateSpace).result;
  EXPECT_TRUE(result.solved());
  return result.mean;
}

TEST(WfFormatInstances, ExactModelIsTheCriticalPathWithAProcessorPerTaskAndTheRoundRobinBelow) {
  for (const std::string& path : vendored()) {
    const std::string text = read_file(path);
    const importers::ImportResult result = importers::import_wfformat(text, path);
    ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
    const Instance instance = instance_of(text);
    const int n = static_cast<int>(instance.ids.size());
    const double path_us = critical_path(instance);
    for (int p : {n, 2 * n}) {
      EXPECT_NEAR(exact_makespan(result.imported->program, p), path_us, 1e-9 * path_us) << path << ", p = " << p;
    }
    for (int p : {2, 3, n / 2}) {
      const double expected = round_robin(instance, p);
      EXPECT_NEAR(exact_makespan(result.imported->program, p), expected, 1e-9 * expected) << path << ", p = " << p;
      EXPECT_GE(expected, path_us * (1 - 1e-12));
    }
    std::printf("[ figures  ] %s: %d tasks, critical path %.6f s = exact model at p = %d\n", path.c_str(), n,
                path_us * 1e-6, n);
  }
}

TEST(WfFormatInstances, DataFilesHoldEveryMeasuredRuntimeByCategory) {
  for (const std::string& path : vendored()) {
    const std::string text = read_file(path);
    const importers::ImportResult result = importers::import_wfformat(text, path);
    ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
    const Instance instance = instance_of(text);
    const std::string stem = path.substr(path.rfind('/') + 1, path.size() - path.rfind('/') - 6);
    std::map<std::string, std::vector<double>> expected;  // file name -> runtimes in µs, in order
    for (std::size_t t = 0; t < instance.ids.size(); ++t) {
      expected[stem + "." + instance.programs[t] + ".dat"].push_back(microseconds(instance.seconds[t]));
    }
    std::size_t data_files = 0;
    for (const importers::ImportedFile& file : result.imported->data_files) {
      if (!file.name.ends_with(".dat")) continue;
      ++data_files;
      const pdl::MeasurementsResult read = pdl::parse_measurements(file.text, file.name);
      ASSERT_TRUE(read.measurements.has_value()) << pdl::format(read.diagnostics);
      EXPECT_EQ(read.measurements->unit, "s");
      EXPECT_TRUE(read.measurements->weights.empty());
      ASSERT_TRUE(expected.contains(file.name)) << file.name;
      EXPECT_EQ(read.measurements->values, expected.at(file.name)) << file.name;
    }
    EXPECT_EQ(data_files, expected.size()) << path;
  }
}

TEST(WfFormatInstances, RunsFileIsTheMeasuredExecution) {
  for (const std::string& path : vendored()) {
    const std::string text = read_file(path);
    const importers::ImportResult result = importers::import_wfformat(text, path);
    ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
    const Instance instance = instance_of(text);
    const auto runs_file = std::find_if(result.imported->data_files.begin(), result.imported->data_files.end(),
                                        [](const importers::ImportedFile& f) { return f.name.ends_with(".runs.csv"); });
    ASSERT_NE(runs_file, result.imported->data_files.end());
    const pdl::RunsResult runs = pdl::parse_runs(runs_file->text, runs_file->name);
    ASSERT_TRUE(runs.runs.has_value()) << pdl::format(runs.diagnostics);
    ASSERT_EQ(runs.runs->runs.size(), 1u);
    EXPECT_TRUE(runs.runs->has_unit);
    EXPECT_EQ(static_cast<double>(runs.runs->runs[0].p), instance.cores);
    EXPECT_EQ(runs.runs->runs[0].time, microseconds(instance.makespan));
  }
}

}  // namespace
