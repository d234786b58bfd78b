// The WfCommons reader: the instance's JSON read into a located tree within the limits, checked,
// its graph ordered, and the program, data files and runs file written; every finding located
// in the instance's text at the end.
#include "importers/wfformat.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "importers/located_json.hpp"
#include "importers/wfformat_detail.hpp"
#include "pdl/parse.hpp"

namespace importers {
namespace wf {

void Findings::error(std::size_t offset, std::string message) {
  if (errors_++ < pdl::kMaxErrors) diagnostics_.push_back({pdl::Severity::Error, offset, std::move(message)});
}

void Findings::warning(std::size_t offset, std::string message) {
  if (warnings_++ < pdl::kMaxErrors) diagnostics_.push_back({pdl::Severity::Warning, offset, std::move(message)});
}

void Findings::note(std::size_t offset, std::string message) {
  notes_.push_back({pdl::Severity::Note, offset, std::move(message)});
}

void Findings::related(std::size_t offset, std::string message) {
  // Only beside a diagnostic that was kept: after the limit, the error it explains is not shown.
  if (errors_ <= pdl::kMaxErrors) diagnostics_.push_back({pdl::Severity::Note, offset, std::move(message)});
}

std::vector<Finding> Findings::diagnostics() const {
  std::vector<Finding> out = diagnostics_;
  const std::size_t last = out.empty() ? 0 : out.back().offset;
  if (errors_ > pdl::kMaxErrors) {
    out.push_back({pdl::Severity::Note, last, fmt::format("{} more errors are not shown", errors_ - pdl::kMaxErrors)});
  }
  if (warnings_ > pdl::kMaxErrors) {
    out.push_back(
        {pdl::Severity::Note, last, fmt::format("{} more warnings are not shown", warnings_ - pdl::kMaxErrors)});
  }
  return out;
}

std::string escaped(std::string_view text) {
  // JSON's escapes, ASCII only (a byte that is not UTF-8 becomes U+FFFD), in single quotes.
  const std::string json =
      nlohmann::json(std::string(text)).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  return fmt::format("'{}'", std::string_view(json).substr(1, json.size() - 2));
}

std::string cited(std::string_view text) { return escaped(pdl::excerpt(text)); }

namespace {

// The name the output files take after: the input's name without its directory and ".json".
std::string stem_of(std::string_view file_name) {
  if (const std::size_t slash = file_name.find_last_of("/\\"); slash != std::string_view::npos) {
    file_name.remove_prefix(slash + 1);
  }
  if (file_name.size() > 5) {
    std::string suffix(file_name.substr(file_name.size() - 5));
    for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (suffix == ".json") file_name.remove_suffix(5);
  }
  return file_part(file_name, 128);
}

bool is_specification_task(std::string_view pointer) {
  constexpr std::string_view kTasks = "/workflow/specification/tasks/";
  if (!pointer.starts_with(kTasks)) return false;
  pointer.remove_prefix(kTasks.size());
  return !pointer.empty() && std::all_of(pointer.begin(), pointer.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// While the instance is read: each task of the specification the program will hold adds at
// least least_program_bytes, so an instance whose program cannot fit is refused at the task that
// crosses the limit, however many follow. (A task that names no id is refused later.)
json::ObjectCheck program_bound(const WfFormatOptions& options, std::size_t max_bytes, std::size_t& bytes,
                                std::size_t& tasks) {
  return [&options, max_bytes, &bytes, &tasks](std::string_view pointer,
                                               const json::Value& object) -> std::optional<std::string> {
    if (!is_specification_task(pointer)) return std::nullopt;
    const json::Value* id = object.find("id");
    if (id == nullptr || id->kind != json::Value::Kind::String) return std::nullopt;
    const json::Value* name = object.find("name");
    const json::Value* type = object.find("type");
    const bool auxiliary = is_auxiliary(name != nullptr ? std::string_view(name->text) : "",
                                        type != nullptr ? std::string_view(type->text) : "");
    if (auxiliary && !options.keep_auxiliary) return std::nullopt;
    bytes += least_program_bytes(id->text, tasks++);
    if (bytes <= max_bytes) return std::nullopt;
    return fmt::format(
        "the instance is too large to import: its first {} tasks need at least {} bytes of PDL, more "
        "than the {} bytes a program may have; it is not read further",
        tasks, bytes, max_bytes);
  };
}

// The findings as diagnostics of the text: a Source over the text up to the end of the line of
// the last finding, so that an instance refused early is not copied whole.
std::vector<pdl::Diagnostic> locate(std::string_view text, std::string_view file_name,
                                    const std::vector<Finding>& findings) {
  std::vector<pdl::Diagnostic> out;
  if (findings.empty()) return out;
  std::size_t last = 0;
  for (const Finding& finding : findings) last = std::max(last, finding.offset);
  const std::size_t end = std::min(text.find('\n', last), text.size());
  const pdl::Source source(std::string(file_name), std::string(text.substr(0, end)));
  out.reserve(findings.size());
  for (const Finding& finding : findings) {
    out.push_back(source.diagnose(finding.severity, std::min(finding.offset, end), finding.message));
  }
  return out;
}

// Tasks that used several cores still get one processor each: the note says so once.
void note_cores(const Workflow& workflow, const Graph& graph, Findings& findings) {
  for (std::size_t t : graph.order) {
    const Task& task = workflow.tasks[t];
    if (task.cores > 1.0) {
      findings.note(task.offset, fmt::format("task {} ran on {} cores (coreCount), as other tasks may have: the "
                                             "program gives every task one processor",
                                             cited(task.id), task.cores));
      return;
    }
  }
}

std::optional<Imported> convert(const json::Value& root, std::string_view stem, const WfFormatOptions& options,
                                std::size_t max_program_bytes, Findings& findings) {
  const std::optional<Workflow> workflow = read_workflow(root, options, findings);
  if (!workflow) return std::nullopt;
  const std::optional<Graph> graph = build_graph(*workflow, options, findings);
  if (!graph) return std::nullopt;
  note_cores(*workflow, *graph, findings);
  Imported imported;
  imported.data_files = write_data_files(*workflow, *graph, stem);
  if (std::optional<ImportedFile> runs = write_runs(*workflow, stem, findings)) {
    imported.data_files.push_back(std::move(*runs));
  }
  std::vector<std::string> names;
  for (const ImportedFile& file : imported.data_files) names.push_back(file.name);
  std::optional<std::string> program = write_program(*workflow, *graph, stem, names, max_program_bytes, findings);
  if (!program) return std::nullopt;
  imported.program = std::move(*program);
  return imported;
}

}  // namespace
}  // namespace wf

ImportResult import_wfformat(std::string_view text, std::string_view file_name, const WfFormatOptions& options,
                             const ImportLimits& limits) {
  const std::size_t max_program = limits.max_program_bytes > 0 ? limits.max_program_bytes : pdl::kMaxSourceBytes;
  // Without a budget of its own (the command always gives one), what the reader holds is bounded
  // all the same, so that what the program would leave out (auxiliary tasks, a task's endless
  // list) cannot exhaust the machine: by 1 GiB, or 32 times the program's bound if that is more.
  // The located tree costs about 4 KiB per task of WfInstances' instances, so that the program's
  // bound (about 120,000 tasks at 8 MiB) is met before this one.
  const std::size_t budget =
      limits.memory_budget_bytes > 0 ? limits.memory_budget_bytes : std::max(32 * max_program, std::size_t{1} << 30);
  wf::Findings findings;
  std::size_t program_bytes = 0, tasks = 0;
  json::ParseResult parsed = json::parse(text, budget, wf::program_bound(options, max_program, program_bytes, tasks));
  std::optional<Imported> imported;
  if (parsed.error) {
    findings.error(parsed.error->offset, std::move(parsed.error->message));
  } else {
    imported = wf::convert(*parsed.root, wf::stem_of(file_name), options, max_program, findings);
  }
  ImportResult result;
  result.diagnostics = wf::locate(text, file_name, findings.diagnostics());
  if (imported && findings.errors() == 0) {
    imported->notes = wf::locate(text, file_name, findings.notes());
    result.imported = std::move(imported);
  }
  return result;
}

}  // namespace importers
