// The instance read from its JSON tree: every field WfFormat 1.5 requires of the objects the
// reader reads (the instance, workflow, specification, its tasks and files, execution, its tasks
// and machines), with the types the schema gives, each refusal at the value it is about.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

#include "importers/wfformat_detail.hpp"
#include "models/limits.hpp"
#include "models/measurements.hpp"

namespace importers::wf {
namespace {

using json::Value;

// The members of one object, read with their types; `where` names the object in messages.
class Fields {
 public:
  Fields(const Value& object, std::string where, Findings& findings)
      : object_(object), where_(std::move(where)), findings_(findings) {}

  const std::string& where() const { return where_; }

  // The member, or nullptr; a missing required one is an error at the object.
  const Value* get(std::string_view key, bool required) const {
    const Value* value = object_.find(key);
    if (value == nullptr && required) {
      findings_.error(object_.offset, fmt::format("{} has no '{}', which WfFormat 1.5 requires", where_, key));
    }
    return value;
  }
  // The member if it is of `kind` (and, for a string, not empty), else nullptr with an error.
  const Value* typed(std::string_view key, Value::Kind kind, bool required) const {
    const Value* value = get(key, required);
    if (value == nullptr) return nullptr;
    const bool number = kind == Value::Kind::Float && value->is_number();
    if (value->kind != kind && !number) {
      findings_.error(value->offset, fmt::format("'{}' of {} must be {}, got {}", key, where_, expected(kind),
                                                 json::kind_name(*value)));
      return nullptr;
    }
    if (kind == Value::Kind::String && value->text.empty()) {
      findings_.error(value->offset, fmt::format("'{}' of {} must not be empty", key, where_));
      return nullptr;
    }
    return value;
  }
  std::optional<std::string> string(std::string_view key, bool required) const {
    const Value* value = typed(key, Value::Kind::String, required);
    return value != nullptr ? std::optional<std::string>(value->text) : std::nullopt;
  }
  // A number >= `least` (and whole, if asked), else nullptr with an error.
  const Value* number(std::string_view key, bool required, double least, bool whole = false) const {
    const Value* value = typed(key, Value::Kind::Float, required);
    if (value == nullptr) return nullptr;
    if (value->number < least || (whole && value->number != std::floor(value->number))) {
      findings_.error(value->offset, fmt::format("'{}' of {} must be {} >= {}, got {}", key, where_,
                                                 whole ? "a whole number" : "a number", least, value->text));
      return nullptr;
    }
    return value;
  }
  // A list of names (task or file ids) with where each is.
  std::vector<Reference> names(std::string_view key, bool required) const;

 private:
  static std::string_view expected(Value::Kind kind) {
    switch (kind) {
      case Value::Kind::String: return "a string";
      case Value::Kind::Array: return "an array";
      case Value::Kind::Object: return "an object";
      default: return "a number";
    }
  }

  const Value& object_;
  std::string where_;
  Findings& findings_;
};

std::vector<Reference> Fields::names(std::string_view key, bool required) const {
  std::vector<Reference> out;
  const Value* list = typed(key, Value::Kind::Array, required);
  if (list == nullptr) return out;
  out.reserve(list->elements.size());
  for (const Value& element : list->elements) {
    if (element.kind != Value::Kind::String || element.text.empty()) {
      findings_.error(element.offset, fmt::format("'{}' of {} must list ids (non-empty strings), got {}", key, where_,
                                                  json::kind_name(element)));
      continue;
    }
    out.push_back({element.text, element.offset});
  }
  return out;
}

// A runtime in seconds: >= 0, and once in microseconds, 0 or within the range of a model's times.
bool valid_runtime(const Value& value, std::string_view where, Findings& findings) {
  const double us = value.number * *models::microseconds_per("s");
  if (us == 0.0 || (us >= models::kSmallestTime && us <= models::kLargestTime)) return true;
  findings.error(value.offset, fmt::format("'runtimeInSeconds' of {} is {}: a runtime must be 0 or within "
                                           "[1e-106, 1e94] s, the range of a model's times",
                                           where, value.text));
  return false;
}

// Whether `element`, the index-th of the array at `array` (e.g. "workflow.execution.tasks"), is an
// object; an error at it when not.
bool is_object(const Value& element, std::string_view array, std::size_t index, Findings& findings) {
  if (element.kind == Value::Kind::Object) return true;
  findings.error(element.offset,
                 fmt::format("{}[{}] must be an object, got {}", array, index, json::kind_name(element)));
  return false;
}

std::optional<Task> read_task(const Value& object, std::size_t index, Findings& findings) {
  if (!is_object(object, "workflow.specification.tasks", index, findings)) return std::nullopt;
  const std::size_t errors = findings.errors();
  const Fields fields(object, fmt::format("workflow.specification.tasks[{}]", index), findings);
  Task task;
  const Value* id = fields.typed("id", Value::Kind::String, true);
  const Fields named(object, id != nullptr ? fmt::format("task {}", cited(id->text)) : fields.where(), findings);
  const std::optional<std::string> name = named.string("name", true);
  task.parents = named.names("parents", true);
  task.children = named.names("children", true);
  task.inputs = named.names("inputFiles", false);
  task.outputs = named.names("outputFiles", false);
  if (const Value* type = object.find("type"); type != nullptr && type->kind == Value::Kind::String) {
    task.type = type->text;
  }
  if (id == nullptr || !name || findings.errors() != errors) return std::nullopt;
  task.id = id->text;
  task.offset = id->offset;
  task.name = *name;
  task.auxiliary = is_auxiliary(task.name, task.type);
  return task;
}

std::vector<File> read_files(const Value& list, Findings& findings) {
  std::vector<File> files;
  for (std::size_t i = 0; i < list.elements.size(); ++i) {
    const Value& object = list.elements[i];
    if (!is_object(object, "workflow.specification.files", i, findings)) continue;
    const Fields fields(object, fmt::format("workflow.specification.files[{}]", i), findings);
    const Value* id = fields.typed("id", Value::Kind::String, true);
    const Value* size = fields.number("sizeInBytes", true, 0.0, true);
    if (id != nullptr && size != nullptr) files.push_back({id->text, size->number, id->offset});
  }
  return files;
}

// The specification's tasks, each id once.
std::vector<Task> read_tasks(const Value& list, Findings& findings) {
  std::vector<Task> tasks;
  std::unordered_map<std::string_view, std::size_t> first;
  tasks.reserve(list.elements.size());
  for (std::size_t i = 0; i < list.elements.size(); ++i) {
    if (std::optional<Task> task = read_task(list.elements[i], i, findings)) tasks.push_back(std::move(*task));
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto [at, fresh] = first.emplace(tasks[i].id, i);
    if (!fresh) {
      findings.error(tasks[i].offset,
                     fmt::format("the task id {} appears twice in workflow.specification.tasks", cited(tasks[i].id)));
      findings.related(tasks[at->second].offset, "its first appearance");
    }
  }
  return tasks;
}

// One task of workflow.execution.tasks, attached to its task of the specification.
void read_execution_task(const Value& object, std::size_t index,
                         const std::unordered_map<std::string_view, std::size_t>& by_id, std::vector<Task>& tasks,
                         Findings& findings) {
  if (!is_object(object, "workflow.execution.tasks", index, findings)) return;
  const Fields fields(object, fmt::format("workflow.execution.tasks[{}]", index), findings);
  const Value* id = fields.typed("id", Value::Kind::String, true);
  const Fields named(object, id != nullptr ? fmt::format("the execution of task {}", cited(id->text)) : fields.where(),
                     findings);
  const Value* runtime = named.number("runtimeInSeconds", true, 0.0);
  const Value* cores = named.number("coreCount", false, 1.0);
  std::optional<std::string> program;
  if (const Value* command = named.typed("command", Value::Kind::Object, false)) {
    program = Fields(*command, "'command' of " + named.where(), findings).string("program", false);
  }
  if (id == nullptr || runtime == nullptr || !valid_runtime(*runtime, named.where(), findings)) return;
  const auto task = by_id.find(id->text);
  if (task == by_id.end()) {
    findings.warning(id->offset, fmt::format("workflow.execution.tasks has task {}, which workflow.specification.tasks "
                                             "does not: its runtime is not used",
                                             cited(id->text)));
    return;
  }
  Task& measured = tasks[task->second];
  if (measured.executed) {
    findings.error(id->offset, fmt::format("task {} appears twice in workflow.execution.tasks", cited(id->text)));
    return;
  }
  measured.executed = true;
  measured.runtime = runtime->number;
  measured.runtime_token = runtime->text;
  measured.program = program.value_or("");
  if (cores != nullptr) measured.cores = cores->number;
}

std::vector<Machine> read_machines(const Value& list, Findings& findings) {
  std::vector<Machine> machines;
  for (std::size_t i = 0; i < list.elements.size(); ++i) {
    const Value& object = list.elements[i];
    if (!is_object(object, "workflow.execution.machines", i, findings)) continue;
    const Fields fields(object, fmt::format("workflow.execution.machines[{}]", i), findings);
    Machine machine;
    machine.name = fields.string("nodeName", true).value_or("");
    machine.offset = object.offset;
    if (const Value* cpu = fields.typed("cpu", Value::Kind::Object, false)) {
      const Fields of_cpu(*cpu, "'cpu' of " + fields.where(), findings);
      if (const Value* cores = of_cpu.number("coreCount", false, 1.0, true)) machine.cores = cores->number;
      if (const Value* mhz = of_cpu.number("speedInMHz", false, 1.0, true)) machine.mhz = mhz->number;
    }
    machines.push_back(std::move(machine));
  }
  return machines;
}

void read_execution(const Value& execution, Workflow& workflow, Findings& findings) {
  const Fields fields(execution, "workflow.execution", findings);
  workflow.execution_offset = execution.offset;
  if (const Value* makespan = fields.number("makespanInSeconds", true, 0.0)) {
    workflow.makespan = makespan->number;
    workflow.makespan_token = makespan->text;
    workflow.makespan_offset = makespan->offset;
  }
  fields.string("executedAt", true);
  if (const Value* machines = fields.typed("machines", Value::Kind::Array, false)) {
    workflow.machines = read_machines(*machines, findings);
  }
  const Value* tasks = fields.typed("tasks", Value::Kind::Array, true);
  if (tasks == nullptr) return;
  if (tasks->elements.empty()) findings.error(tasks->offset, "workflow.execution.tasks is empty");
  std::unordered_map<std::string_view, std::size_t> by_id;
  for (std::size_t i = 0; i < workflow.tasks.size(); ++i) by_id.emplace(workflow.tasks[i].id, i);
  for (std::size_t i = 0; i < tasks->elements.size(); ++i) {
    read_execution_task(tasks->elements[i], i, by_id, workflow.tasks, findings);
  }
}

// A task without a measurement: an auxiliary job (Pegasus records none for a job without a
// kickstart record) takes 0 with a note; any other is refused, as 0 would shorten every path
// through it without a word in the prediction.
void check_measured(const Workflow& workflow, const WfFormatOptions& options, Findings& findings) {
  std::size_t zero = 0;
  for (const Task& task : workflow.tasks) {
    if (task.executed || (task.auxiliary && !options.keep_auxiliary)) continue;
    if (!task.auxiliary) {
      findings.error(task.offset, fmt::format("task {} has no measured runtime: workflow.execution.tasks does not "
                                              "list it",
                                              cited(task.id)));
    } else if (zero++ == 0) {
      findings.note(task.offset, fmt::format("the auxiliary task {} has no measured runtime (nor has any auxiliary "
                                             "task noted below): it takes 0 in the program",
                                             cited(task.id)));
    } else if (zero <= 5) {
      findings.note(task.offset, fmt::format("the auxiliary task {} has no measured runtime either", cited(task.id)));
    }
  }
  if (zero > 5) {
    findings.note(workflow.execution_offset,
                  fmt::format("{} auxiliary tasks in all have no measured runtime and take 0", zero));
  }
}

bool read_version(const Fields& instance, Workflow& workflow, Findings& findings) {
  const Value* version = instance.typed("schemaVersion", Value::Kind::String, true);
  if (version == nullptr) return false;
  if (version->text != "1.5") {
    findings.error(version->offset, fmt::format("schemaVersion {} is not read: this reader reads WfFormat 1.5 (the "
                                                "format of the WfInstances repository); WfCommons' tools convert "
                                                "older instances",
                                                cited(version->text)));
    return false;
  }
  workflow.schema_version = version->text;
  return true;
}

void read_runtime_system(const Fields& instance, Workflow& workflow, Findings& findings) {
  const Value* system = instance.typed("runtimeSystem", Value::Kind::Object, false);
  if (system == nullptr) return;
  const Fields fields(*system, "runtimeSystem", findings);
  const std::optional<std::string> name = fields.string("name", true);
  const std::optional<std::string> version = fields.string("version", true);
  if (name && version) workflow.runtime_system = *name + " " + *version;
}

}  // namespace

bool is_auxiliary(std::string_view name, std::string_view type) {
  if (type == "auxiliary" || type == "transfer") return true;
  return std::any_of(kAuxiliaryPrefixes.begin(), kAuxiliaryPrefixes.end(), [name](std::string_view prefix) {
    return name.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), name.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  });
}

std::optional<Workflow> read_workflow(const Value& root, const WfFormatOptions& options, Findings& findings) {
  if (root.kind != Value::Kind::Object) {
    findings.error(root.offset, fmt::format("a WfFormat instance is a JSON object, got {}", json::kind_name(root)));
    return std::nullopt;
  }
  Workflow workflow;
  const Fields instance(root, "the instance", findings);
  if (!read_version(instance, workflow, findings)) return std::nullopt;
  workflow.name = instance.string("name", true).value_or("");
  read_runtime_system(instance, workflow, findings);
  const Value* body = instance.typed("workflow", Value::Kind::Object, true);
  if (body == nullptr) return std::nullopt;
  const Fields of_workflow(*body, "workflow", findings);
  const Value* specification = of_workflow.typed("specification", Value::Kind::Object, true);
  const Value* execution = of_workflow.typed("execution", Value::Kind::Object, false);
  if (specification == nullptr) return std::nullopt;
  if (execution == nullptr && body->find("execution") == nullptr) {
    findings.error(body->offset,
                   "the workflow has no 'execution': this reader needs the measured runtimes of "
                   "workflow.execution.tasks");
  }
  const Fields of_specification(*specification, "workflow.specification", findings);
  if (const Value* tasks = of_specification.typed("tasks", Value::Kind::Array, true)) {
    if (tasks->elements.empty()) findings.error(tasks->offset, "workflow.specification.tasks is empty");
    workflow.tasks = read_tasks(*tasks, findings);
  }
  if (const Value* files = of_specification.typed("files", Value::Kind::Array, false)) {
    workflow.has_files = true;
    workflow.files = read_files(*files, findings);
  }
  if (execution != nullptr) read_execution(*execution, workflow, findings);
  if (execution != nullptr && findings.errors() == 0) check_measured(workflow, options, findings);
  if (findings.errors() > 0) return std::nullopt;
  return workflow;
}

}  // namespace importers::wf
