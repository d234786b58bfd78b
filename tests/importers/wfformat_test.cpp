// The WfCommons reader on hand-written instances: the program, data and runs files of a small
// one; every refusal at its place (line and column found by searching the text, not from the
// reader); auxiliary tasks left out with their order kept; ids made PDL names; the limits.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/importers/wfformat_test_util.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using namespace wfformat_test;
using pdl::Severity;

double exact_makespan(const std::string& program, int p) {
  const auto study = analysis::run_study({test_support::case_of(program, "MACHINE NAME IS 'ideal';\n")},
                                         test_support::request_for({p}, {solvers::Method::StateSpace}));
  EXPECT_TRUE(study.ok());
  return study.value->at(0, p, solvers::Method::StateSpace).result.mean;
}

const importers::ImportedFile* file_named(const importers::Imported& imported, const std::string& name) {
  for (const importers::ImportedFile& file : imported.data_files) {
    if (file.name == name) return &file;
  }
  return nullptr;
}

TEST(WfFormat, TinyInstanceBecomesAPinnedArbitraryPhaseWithFileVolumes) {
  const importers::ImportResult result = import_text(kTiny);
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.empty()) << pdl::format(result.diagnostics);
  const std::string& program = result.imported->program;
  const std::string body =
      "PROGRAM NAME IS 'tiny';\nEXECUTION PATTERN IS workflow;\n\n"
      "WORK PHASE workflow IS:\n  PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "  TASK split_ID01 RUNTIME IS DETERMINISTIC(1500000) ON PROCESSOR 0;\n"
      "  TASK work_ID02 RUNTIME IS DETERMINISTIC(4250000) ON PROCESSOR 1;\n"
      "  ARC split_ID01 -> work_ID02 VOLUME 40;\n"
      "  TASK work_ID03 RUNTIME IS DETERMINISTIC(6000000) ON PROCESSOR 2;\n"
      "  ARC split_ID01 -> work_ID03 VOLUME 60;\n"
      "  TASK merge_ID04 RUNTIME IS DETERMINISTIC(750000) ON PROCESSOR 3;\n"
      "  ARC work_ID02 -> merge_ID04 VOLUME 7;\n"
      "  ARC work_ID03 -> merge_ID04 VOLUME 9;\n"
      "END;\n";
  ASSERT_TRUE(program.ends_with(body)) << program;
  EXPECT_NE(program.find("Measured makespan: 12.5 s on 2 machines, 8 cores in all: 'node-1' (4 cores at 2400 MHz), "
                         "'node-2' (4 cores)"),
            std::string::npos)
      << program;
  EXPECT_NE(program.find("With p >= 4 every"), std::string::npos) << program;
  ASSERT_TRUE(checked_program(program).has_value());
  EXPECT_NEAR(exact_makespan(program, 4), 8.25e6, 1e-9 * 8.25e6);
  ASSERT_EQ(result.imported->data_files.size(), 4u);
  const importers::ImportedFile* work = file_named(*result.imported, "tiny.work.dat");
  ASSERT_NE(work, nullptr);
  EXPECT_TRUE(work->text.ends_with("# unit: s\n4.25\n6\n")) << work->text;
  const importers::ImportedFile* runs = file_named(*result.imported, "tiny.runs.csv");
  ASSERT_NE(runs, nullptr);
  EXPECT_TRUE(runs->text.ends_with("# unit: s\np,time\n8,12.5\n")) << runs->text;
  EXPECT_FALSE(result.imported->machine.has_value());
}

TEST(WfFormat, InvalidJsonIsRefusedAtTheUnexpectedToken) {
  const std::string text = replaced(kTiny, R"("runtimeInSeconds": 4.25,)", R"("runtimeInSeconds": 4.25)");
  expect_refused(import_text(text), place_of(text, R"("command")", 1), "invalid JSON: syntax error");
  const std::string literal = replaced(kTiny, "4.25", "fast");
  // nlohmann-json reports where the text it last read began: the key before the bad value.
  expect_refused(import_text(literal), place_of(literal, R"("runtimeInSeconds": fast)"), "invalid literal");
}

TEST(WfFormat, TruncatedJsonIsRefusedAtItsEnd) {
  const std::string text = std::string(kTiny).substr(0, std::string(kTiny).find(R"("machines")") + 3);
  expect_refused(import_text(text), place_of(text, text.size()), "missing closing quote");
  expect_refused(import_text(""), {1, 1}, "unexpected end of input");
  expect_refused(import_text("[1, 2]"), {1, 1}, "a WfFormat instance is a JSON object, got an array");
}

TEST(WfFormat, OnlySchemaVersion15IsRead) {
  const std::string text = replaced(kTiny, R"("1.5")", R"("1.4")");
  expect_refused(import_text(text), place_of(text, R"("1.4")"),
                 "schemaVersion '1.4' is not read: this reader reads WfFormat 1.5");
}

TEST(WfFormat, MissingRequiredFieldsAreRefusedAtTheirObject) {
  const std::string text = replaced(kTiny, R"("parents": [], )", "");
  expect_refused(import_text(text), place_of(text, R"({"name": "split_ID01")"),
                 "task 'split_ID01' has no 'parents', which WfFormat 1.5 requires");
  const std::string runtime = replaced(kTiny, R"("runtimeInSeconds": 6, )", "");
  expect_refused(import_text(runtime), place_of(runtime, R"({"id": "work_ID03")"),
                 "the execution of task 'work_ID03' has no 'runtimeInSeconds'");
  const std::string execution = replaced(kTiny, R"("execution")", R"("measured")");
  expect_refused(import_text(execution), place_of(execution, "{", 2), "the workflow has no 'execution'");
}

TEST(WfFormat, ADependencyOnAnUnknownTaskIsRefusedAtItsName) {
  const std::string text =
      replaced(kTiny, R"("parents": ["work_ID02", "work_ID03"])", R"("parents": ["work_ID02", "nope"])");
  expect_refused(import_text(text), place_of(text, R"("nope")"),
                 "task 'merge_ID04' lists 'nope' among its parents, but no task has that id");
}

// The two lists disagree: the dependency is kept, with a warning at the one-sided entry.
TEST(WfFormat, ADependencyOnlyOneListStatesIsKeptWithAWarning) {
  const std::string text = replaced(kTiny, R"("children": ["work_ID02", "work_ID03"])", R"("children": ["work_ID02"])");
  const importers::ImportResult result = import_text(text);
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  expect_at(result.diagnostics, Severity::Warning, place_of(text, R"("split_ID01")", 3),
            "task 'work_ID03' lists 'split_ID01' among its parents, but 'split_ID01' does not list it among its "
            "children: the dependency is kept");
  EXPECT_NE(result.imported->program.find("ARC split_ID01 -> work_ID03 VOLUME 60;"), std::string::npos);
}

TEST(WfFormat, ACycleIsRefusedAndNamed) {
  std::string text = replaced(kTiny, R"("parents": [], )", R"("parents": ["merge_ID04"], )");
  text = replaced(text, R"("children": [],)", R"("children": ["split_ID01"],)");
  expect_refused(import_text(text), place_of(text, R"("work_ID02")", 2),
                 "the dependencies have a cycle, so no task of it can start: 'work_ID02' -> 'merge_ID04' -> "
                 "'split_ID01' -> 'work_ID02'");
}

TEST(WfFormat, NegativeOrNonNumericRuntimesAndSizesAreRefusedAtTheirValue) {
  const std::string negative = replaced(kTiny, "4.25", "-4.25");
  expect_refused(import_text(negative), place_of(negative, "-4.25"),
                 "'runtimeInSeconds' of the execution of task 'work_ID02' must be a number >= 0, got -4.25");
  const std::string text = replaced(kTiny, "4.25", R"("4.25")");
  expect_refused(import_text(text), place_of(text, R"("4.25")"), "must be a number, got a string");
  const std::string tiny = replaced(kTiny, "4.25", "1e-120");
  expect_refused(import_text(tiny), place_of(tiny, "1e-120"), "a runtime must be 0 or within [1e-106, 1e94] s");
  const std::string size = replaced(kTiny, R"("sizeInBytes": 40)", R"("sizeInBytes": -40)");
  expect_refused(import_text(size), place_of(size, "-40"),
                 "'sizeInBytes' of workflow.specification.files[1] must be a whole number >= 0, got -40");
  const std::string fraction = replaced(kTiny, R"("sizeInBytes": 40)", R"("sizeInBytes": 40.5)");
  expect_refused(import_text(fraction), place_of(fraction, "40.5"), "must be a whole number >= 0, got 40.5");
  const std::string named = replaced(kTiny, R"("sizeInBytes": 40)", R"("sizeInBytes": "40")");
  expect_refused(import_text(named), place_of(named, R"("40")"), "must be a number, got a string");
}

TEST(WfFormat, SeveralErrorsAreReportedInOneRun) {
  const std::string text =
      replaced(replaced(kTiny, "4.25", "-4.25"), "\"runtimeInSeconds\": 6", "\"runtimeInSeconds\": -6");
  const importers::ImportResult result = import_text(text);
  ASSERT_EQ(pdl::count(result.diagnostics, Severity::Error), 2u) << pdl::format(result.diagnostics);
  EXPECT_EQ(result.diagnostics[1].line, place_of(text, "-6").line);
  EXPECT_EQ(result.diagnostics[1].column, place_of(text, "-6").column);
}

TEST(WfFormat, DuplicateIdsAreRefusedAtTheSecondWithTheFirstNoted) {
  const std::string text =
      replaced(kTiny, R"("name": "work_ID03", "id": "work_ID03")", R"("name": "work_ID02", "id": "work_ID02")");
  const importers::ImportResult result = import_text(text);
  expect_refused(result, place_of(text, R"("work_ID02")", 4),
                 "the task id 'work_ID02' appears twice in workflow.specification.tasks");
  ASSERT_GE(result.diagnostics.size(), 2u);
  EXPECT_EQ(result.diagnostics[1].severity, Severity::Note);
  EXPECT_EQ(result.diagnostics[1].line, place_of(text, R"("work_ID02")", 2).line);
  EXPECT_EQ(result.diagnostics[1].column, place_of(text, R"("work_ID02")", 2).column);
  const std::string key = replaced(kTiny, R"("name": "tiny",)", R"("name": "tiny", "name": "again",)");
  expect_refused(import_text(key), place_of(key, R"("name")", 1), "the key 'name' appears twice in this object");
}

// A task the execution does not list is refused (decision: 0 would shorten every path through it
// without a word); an auxiliary one takes 0 with a note.
TEST(WfFormat, ATaskWithoutExecutionDataIsRefused) {
  const std::string text =
      replaced(kTiny, R"({"id": "work_ID03", "runtimeInSeconds": 6, "command": {"program": "work"}},)", "");
  expect_refused(import_text(text), place_of(text, R"("work_ID03")", 2),
                 "task 'work_ID03' has no measured runtime: workflow.execution.tasks does not list it");
  const std::string extra =
      replaced(kTiny, R"({"id": "split_ID01", "runtimeInSeconds")",
               R"({"id": "ghost", "runtimeInSeconds": 1}, {"id": "split_ID01", "runtimeInSeconds")");
  const importers::ImportResult ghost = import_text(extra);
  ASSERT_TRUE(ghost.imported.has_value()) << pdl::format(ghost.diagnostics);
  expect_at(ghost.diagnostics, Severity::Warning, place_of(extra, R"("ghost")"),
            "workflow.execution.tasks has task 'ghost', which workflow.specification.tasks does not");
}

// The program may not pass max_program_bytes: refused at the task whose lines cross it.
TEST(WfFormat, AProgramBeyondTheLimitIsRefusedAtTheTaskThatCrossesIt) {
  const importers::ImportResult whole = import_text(kTiny);
  ASSERT_TRUE(whole.imported.has_value());
  const std::size_t size = whole.imported->program.size();
  EXPECT_TRUE(import_text(kTiny, {}, {.max_program_bytes = size}).imported.has_value());
  expect_refused(import_text(kTiny, {}, {.max_program_bytes = size - 1}), place_of(kTiny, R"("merge_ID04", "parents")"),
                 "the program would be longer than");
  const std::size_t before_merge = whole.imported->program.find("  TASK merge_ID04");
  expect_refused(import_text(kTiny, {}, {.max_program_bytes = before_merge}),
                 place_of(kTiny, R"("merge_ID04", "parents")"), "(task 4 of 4 in topological order)");
}

TEST(WfFormat, AMemoryBudgetIsRefusedAtTheTaskThatCrossesIt) {
  const std::string text = read_file("validation/wfinstances/blast-chameleon-small-001.json");
  const importers::ImportResult result =
      importers::import_wfformat(text, "dir/tiny.json", {}, {.memory_budget_bytes = 200'000});
  ASSERT_FALSE(result.imported.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << pdl::format(result.diagnostics);
  const pdl::Diagnostic& d = result.diagnostics.front();
  EXPECT_NE(d.message.find("more memory than the reader's budget of 200000 bytes"), std::string::npos) << d.message;
  EXPECT_EQ(d.source_line[d.caret], '{') << pdl::format(d);  // an object of a task list
  EXPECT_GT(d.line, 5u);
}

// 10^7 tasks, one per line: refused once the tasks read need more PDL than a program may hold,
// long before the end of the instance.
TEST(WfFormat, TenMillionTasksAreRefusedQuicklyWhereTheyCrossTheLimit) {
  constexpr std::size_t kTasks = 10'000'000;
  const auto begin = std::chrono::steady_clock::now();
  std::string text =
      "{\n\"name\": \"huge\",\n\"schemaVersion\": \"1.5\",\n\"workflow\": {\"specification\": {\"tasks\": [\n";
  text.reserve(kTasks * 60);
  for (std::size_t i = 0; i < kTasks; ++i) {
    text += "  {\"name\": \"t\", \"id\": \"t" + std::to_string(i) + "\", \"parents\": [], \"children\": []},\n";
  }
  text += "  {\"name\": \"t\", \"id\": \"last\", \"parents\": [], \"children\": []}\n]}}}\n";
  const auto generated = std::chrono::steady_clock::now();
  const importers::ImportResult result = importers::import_wfformat(text, "dir/tiny.json");
  const auto refused = std::chrono::steady_clock::now();
  std::printf("[ figures  ] %zu bytes generated in %.3f s, refused in %.3f s\n", text.size(),
              std::chrono::duration<double>(generated - begin).count(),
              std::chrono::duration<double>(refused - generated).count());
  ASSERT_FALSE(result.imported.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << pdl::format(result.diagnostics);
  const pdl::Diagnostic& d = result.diagnostics.front();
  EXPECT_NE(d.message.find("the instance is too large to import"), std::string::npos) << d.message;
  EXPECT_EQ(d.column, 3u);  // the task's '{'
  // Task k is on line k + 5; each needs at least 50 bytes of PDL, and at most 70 here.
  const std::size_t tasks_read = d.line - 4;
  EXPECT_GT(tasks_read * 70, pdl::kMaxSourceBytes);
  EXPECT_LT(tasks_read * 50, pdl::kMaxSourceBytes + 70);
}

}  // namespace
