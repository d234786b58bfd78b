// The WfCommons reader's decisions on generated instances: Pegasus's auxiliary jobs left out with
// the order they imposed kept, or kept (one without a measurement taking 0); ids made PDL names;
// the error limit; the runs file left out when the cores are not known.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/importers/wfformat_test_util.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using namespace wfformat_test;
using pdl::Severity;

struct TaskSpec {
  std::string id;
  std::vector<std::string> parents;
  double seconds = 0.0;  // < 0: no execution record
  std::string type{};    // "type", as instances before WfFormat 1.5 gave it
};

// A WfFormat 1.5 instance of these tasks (children from the parents, no files), on one machine of
// `cores` cores (0: no coreCount).
std::string instance(const std::vector<TaskSpec>& tasks, int cores = 8) {
  nlohmann::ordered_json specification = nlohmann::ordered_json::array(), execution = nlohmann::ordered_json::array();
  std::map<std::string, std::vector<std::string>> children;
  for (const TaskSpec& task : tasks) {
    for (const std::string& parent : task.parents) children[parent].push_back(task.id);
  }
  for (const TaskSpec& task : tasks) {
    nlohmann::ordered_json spec{
        {"name", task.id}, {"id", task.id}, {"parents", task.parents}, {"children", children[task.id]}};
    if (!task.type.empty()) spec["type"] = task.type;
    specification.push_back(spec);
    if (task.seconds >= 0.0) execution.push_back({{"id", task.id}, {"runtimeInSeconds", task.seconds}});
  }
  nlohmann::ordered_json machine{{"nodeName", "n1"}};
  if (cores > 0) machine["cpu"] = {{"coreCount", cores}};
  const nlohmann::ordered_json document{
      {"name", "generated"},
      {"schemaVersion", "1.5"},
      {"workflow",
       {{"specification", {{"tasks", specification}}},
        {"execution",
         {{"makespanInSeconds", 100}, {"executedAt", "now"}, {"tasks", execution}, {"machines", {machine}}}}}}};
  return document.dump(2);
}

double exact_makespan(const std::string& program, int p) {
  const auto study = analysis::run_study({test_support::case_of(program, "MACHINE NAME IS 'ideal';\n")},
                                         test_support::request_for({p}, {solvers::Method::StateSpace}));
  EXPECT_TRUE(study.ok());
  return study.value->at(0, p, solvers::Method::StateSpace).result.mean;
}

std::set<std::pair<std::string, std::string>> arcs_of(const models::Program& program) {
  std::set<std::pair<std::string, std::string>> arcs;
  for (const models::Arc& arc : models::find_work_phase(program, "workflow")->arcs) arcs.emplace(arc.from, arc.to);
  return arcs;
}

// A Pegasus-like workflow: create the directory, stage in, compute A, stage between A and B,
// compute B, stage out, clean up; C after A and after the stage-in; copy_ID9 a transfer by type.
const std::vector<TaskSpec> kPegasus{
    {"create_dir_ID1", {}, 0.5},
    {"stage_in_ID2", {"create_dir_ID1"}, 2},
    {"A_ID3", {"stage_in_ID2"}, 10},
    {"stage_inter_ID4", {"A_ID3"}, 3},
    {"B_ID5", {"stage_inter_ID4"}, 20},
    {"C_ID8", {"A_ID3", "stage_in_ID2"}, 5},
    {"copy_ID9", {"C_ID8"}, 4, "transfer"},
    {"D_ID10", {"copy_ID9"}, 1},
    {"Stage_Out_ID6", {"B_ID5"}, 1},
    {"CLEANUP_ID7", {"Stage_Out_ID6", "D_ID10"}, 0.25},
};

TEST(WfFormatAuxiliary, LeftOutTheirOrderIsKept) {
  const std::string text = instance(kPegasus);
  const importers::ImportResult result = import_text(text, {.keep_auxiliary = false});
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  const std::optional<models::Program> program = checked_program(result.imported->program);
  ASSERT_TRUE(program.has_value());
  const auto& tasks = models::find_work_phase(*program, "workflow")->tasks;
  std::vector<std::string> names;
  for (const models::Task& task : tasks) names.push_back(task.name);
  EXPECT_EQ(names, (std::vector<std::string>{"A_ID3", "B_ID5", "C_ID8", "D_ID10"}));
  // B waited for A through stage_inter, D for C through the transfer: both kept; nothing is
  // left of create_dir, stage_in, stage_out and cleanup but what they ordered.
  const std::set<std::pair<std::string, std::string>> expected{
      {"A_ID3", "B_ID5"}, {"A_ID3", "C_ID8"}, {"C_ID8", "D_ID10"}};
  EXPECT_EQ(arcs_of(*program), expected);
  EXPECT_NEAR(exact_makespan(result.imported->program, 4), 30e6, 1e-9 * 30e6);  // A + B
  ASSERT_FALSE(result.imported->notes.empty());
  expect_at(result.imported->notes, Severity::Note, place_of(text, R"("create_dir_ID1")", 1),
            "the auxiliary task 'create_dir_ID1' (and every other one) is left out");
  EXPECT_NE(result.imported->program.find("(6 auxiliary tasks left out)"), std::string::npos);
}

TEST(WfFormatAuxiliary, KeptByDefaultAndWithoutAMeasurementTheyTakeZero) {
  std::vector<TaskSpec> tasks = kPegasus;
  const importers::ImportResult kept = import_text(instance(tasks));
  ASSERT_TRUE(kept.imported.has_value()) << pdl::format(kept.diagnostics);
  // create_dir, stage_in, A, stage_inter, B, stage_out, cleanup: 36.75 s.
  EXPECT_NEAR(exact_makespan(kept.imported->program, 10), 36.75e6, 1e-9 * 36.75e6);
  tasks[1].seconds = -1.0;  // stage_in_ID2 has no record
  const std::string text = instance(tasks);
  const importers::ImportResult zero = import_text(text);
  ASSERT_TRUE(zero.imported.has_value()) << pdl::format(zero.diagnostics);
  expect_at(zero.imported->notes, Severity::Note, place_of(text, text.find(R"("id": "stage_in_ID2")") + 6),
            "the auxiliary task 'stage_in_ID2' has no measured runtime");
  EXPECT_NE(zero.imported->program.find("TASK stage_in_ID2 RUNTIME IS DETERMINISTIC(0)"), std::string::npos);
  EXPECT_NEAR(exact_makespan(zero.imported->program, 10), 34.75e6, 1e-9 * 34.75e6);
}

// Ids that are PDL names are kept; the others become names, unique, with the id in a comment.
TEST(WfFormatNames, IdsBecomeUniquePdlNames) {
  const std::string text = instance({{"a-b", {}, 1},
                                     {"a_b", {"a-b"}, 1},
                                     {"1st", {"a_b"}, 1},
                                     {"end", {"1st"}, 1},
                                     {"x.y", {"end"}, 1},
                                     {"IS", {"x.y"}, 1}});
  const importers::ImportResult result = import_text(text);
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  const std::string& program = result.imported->program;
  for (const char* line : {"TASK a_b_2 RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 0;  // 'a-b'\n",
                           "TASK a_b RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 1;\n",
                           "TASK _1st RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 2;  // '1st'\n",
                           "TASK end_ RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 3;  // 'end'\n",
                           "TASK x_y RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 4;  // 'x.y'\n",
                           "TASK IS_ RUNTIME IS DETERMINISTIC(1000000) ON PROCESSOR 5;  // 'IS'\n"}) {
    EXPECT_NE(program.find(line), std::string::npos) << line << program;
  }
  ASSERT_TRUE(checked_program(program).has_value());
  expect_at(result.imported->notes, Severity::Note, place_of(text, R"("a-b")", 1),
            "task ids that are not PDL names (a letter or '_', then letters, digits and '_') are renamed");
}

TEST(WfFormatLimits, TwentyErrorsAreShownAndTheRestCounted) {
  std::vector<TaskSpec> tasks{{"root", {}, 1}};
  for (int i = 0; i < 25; ++i) tasks.push_back({"t" + std::to_string(i), {"missing" + std::to_string(i)}, 1});
  const std::string text = instance(tasks);
  const importers::ImportResult result = import_text(text);
  EXPECT_EQ(pdl::count(result.diagnostics, Severity::Error), pdl::kMaxErrors);
  ASSERT_FALSE(result.diagnostics.empty());
  EXPECT_EQ(result.diagnostics.back().message, "5 more errors are not shown");
  expect_at(result.diagnostics, Severity::Error, place_of(text, R"("missing0")"),
            "task 't0' lists 'missing0' among its parents, but no task has that id");
}

TEST(WfFormatRuns, NoRunsFileWithoutTheCoreCounts) {
  const std::string text = instance({{"a", {}, 1}, {"b", {"a"}, 2}}, 0);
  const importers::ImportResult result = import_text(text);
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  for (const importers::ImportedFile& file : result.imported->data_files) EXPECT_FALSE(file.name.ends_with(".csv"));
  expect_at(result.imported->notes, Severity::Note, place_of(text, text.find('{', text.find(R"("machines")"))),
            "no runs file is written: machine 'n1' has no cpu.coreCount");
}

}  // namespace
