// What the reader writes: the PDL program (one ARBITRARY phase, every task pinned to its
// position in a topological order), the measured runtimes per task category as NUMERICAL data
// files, and the measured execution as a runs file.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>

#include "importers/wfformat_detail.hpp"
#include "models/measurements.hpp"

namespace importers::wf {
namespace {

// A task of the program. The runtime is at least one character and the name at least as long as
// the id, so this line without its comment is the least a task adds (least_program_bytes).
constexpr std::string_view kTaskLine = "  TASK {} RUNTIME IS DETERMINISTIC({}) ON PROCESSOR {};";

bool is_reserved(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "end" || lower == "is" || lower == "sync" || lower == "sizeof";
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// A PDL name (docs/pdl.md): a letter or '_', then letters, digits and '_', not a reserved word.
bool is_pdl_name(std::string_view id) {
  return !id.empty() && !std::isdigit(static_cast<unsigned char>(id.front())) &&
         std::all_of(id.begin(), id.end(), is_word_char) && !is_reserved(id);
}

std::string as_pdl_name(std::string_view id) {
  // A '_' first where the name would start with a digit (or be empty).
  std::string name = id.empty() || std::isdigit(static_cast<unsigned char>(id.front())) ? "_" : "";
  for (char c : id) name += is_word_char(c) ? c : '_';
  if (is_reserved(name)) name += '_';
  return name;
}

// The PDL name of each task of the program (by position). *(decision)* An id that is a PDL name
// is kept as it is; any other becomes one (each other character '_', a '_' before a digit or
// reserved word's end) and, if that name is taken, gets "_2", "_3", ...: ids that are names keep
// theirs whatever comes before them, and the same instance always gives the same names.
std::vector<std::string> pdl_names(const Workflow& workflow, const Graph& graph, Findings& findings) {
  std::vector<std::string> names(graph.order.size());
  std::unordered_set<std::string> taken;
  for (std::size_t at = 0; at < names.size(); ++at) {
    const std::string& id = workflow.tasks[graph.order[at]].id;
    if (is_pdl_name(id)) taken.insert(names[at] = id);
  }
  std::size_t renamed = 0;
  for (std::size_t at = 0; at < names.size(); ++at) {
    if (!names[at].empty()) continue;
    const Task& task = workflow.tasks[graph.order[at]];
    const std::string base = as_pdl_name(task.id);
    std::string name = base;
    for (std::size_t k = 2; !taken.insert(name).second; ++k) name = fmt::format("{}_{}", base, k);
    names[at] = name;
    if (renamed++ == 0) {
      findings.note(task.offset, fmt::format("task ids that are not PDL names (a letter or '_', then letters, digits "
                                             "and '_') are renamed, this one to '{}'; each TASK's comment gives its id",
                                             pdl::excerpt(name)));
    }
  }
  return names;
}

// A number of seconds as written in the instance, in microseconds: its decimal point moved six
// places, so that 6.352 s is written 6352000, the decimal value, not 6.352 * 1e6 rounded twice.
std::string microseconds(std::string_view token) {
  std::string digits;
  long exponent = 6;
  std::size_t at = token.starts_with('-') ? 1 : 0;  // only "-0", the one negative number let through
  for (; at < token.size() && std::isdigit(static_cast<unsigned char>(token[at])); ++at) digits += token[at];
  if (at < token.size() && token[at] == '.') {
    for (++at; at < token.size() && std::isdigit(static_cast<unsigned char>(token[at])); ++at, --exponent) {
      digits += token[at];
    }
  }
  if (at < token.size() && (token[at] == 'e' || token[at] == 'E')) {
    const std::size_t sign = at + 1 < token.size() && token[at + 1] == '+' ? at + 2 : at + 1;
    long written = 0;
    std::from_chars(token.data() + sign, token.data() + token.size(), written);
    exponent += written;
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return "0";
  for (; digits.back() == '0'; digits.pop_back()) ++exponent;
  const long length = static_cast<long>(digits.size());
  if (exponent >= 0 && length + exponent <= 24) return digits + std::string(static_cast<std::size_t>(exponent), '0');
  if (exponent < 0 && -exponent < length) {
    return digits.insert(static_cast<std::size_t>(length + exponent), ".");
  }
  if (exponent < 0 && length - exponent <= 24) {
    return "0." + std::string(static_cast<std::size_t>(-exponent - length), '0') + digits;
  }
  const std::string mantissa = length > 1 ? digits.substr(0, 1) + "." + digits.substr(1) : digits;
  return fmt::format("{}e{}", mantissa, exponent + length - 1);
}

std::string machines_line(const Workflow& workflow) {
  if (workflow.machines.empty()) return "workflow.execution lists no machines";
  double cores = 0.0;
  bool all_counted = true;
  std::string list;
  for (std::size_t m = 0; m < workflow.machines.size(); ++m) {
    const Machine& machine = workflow.machines[m];
    all_counted = all_counted && machine.cores.has_value();
    cores += machine.cores.value_or(0.0);
    if (m == 8) list += fmt::format(", and {} more", workflow.machines.size() - 8);
    if (m >= 8) continue;
    list += fmt::format("{}{} ({} cores{})", m == 0 ? "" : ", ", cited(machine.name),
                        machine.cores ? fmt::format("{}", *machine.cores) : "unknown",
                        machine.mhz ? fmt::format(" at {} MHz", *machine.mhz) : "");
  }
  const std::string total = all_counted ? fmt::format(", {} cores in all", cores) : "";
  return fmt::format("{} machine{}{}: {}", workflow.machines.size(), workflow.machines.size() == 1 ? "" : "s", total,
                     list);
}

// Every comment line starts with "// ": the header says what the program is and why it is built so.
std::string header(const Workflow& workflow, const Graph& graph, std::string_view stem,
                   const std::vector<std::string>& files) {
  const std::size_t n = graph.order.size();
  std::string out = fmt::format(
      "// The WfCommons workflow instance {}.json (WfFormat {}, name {}, run by {}), imported by pdl-scale:\n"
      "// {} tasks and {} dependencies{}.\n"
      "// Measured makespan: {} s on {}.\n//\n",
      stem, workflow.schema_version, cited(workflow.name),
      workflow.runtime_system.empty() ? "an unnamed system" : cited(workflow.runtime_system), n, graph.dependencies,
      graph.dropped > 0 ? fmt::format(" ({} auxiliary tasks left out)", graph.dropped) : "", workflow.makespan_token,
      machines_line(workflow));
  out += fmt::format(
      "// Times are in microseconds, the time unit of PDL programs: each TASK's runtime is its measured\n"
      "// runtimeInSeconds times 10^6. Each dependency is an ARC whose VOLUME is the bytes of the files the\n"
      "// parent writes and the child reads (none: no VOLUME).\n//\n"
      "// Placement: the tasks are numbered in a topological order (Kahn's algorithm; of the tasks ready\n"
      "// at once, the first in the instance first), and task i runs ON PROCESSOR i. With p >= {} every\n"
      "// task has a processor of its own and the exact model's makespan is the critical path of the\n"
      "// workflow's graph; with fewer, task i runs on processor i mod p, a static round-robin in\n"
      "// topological order. Without ON PROCESSOR, an ARBITRARY phase places the tasks of each level in\n"
      "// turn (docs/semantics.md, A1), which puts tasks of different levels on one processor and can\n"
      "// lengthen the path at any p.\n",
      n);
  if (!files.empty()) {
    out +=
        "//\n// Beside it: the measured runtimes per task category, for a program of your own\n"
        "// (SUBTASK RUNTIME IS NUMERICAL('FILE');), and the measured run, for --validate:\n";
    for (const std::string& file : files) out += "//   " + file + "\n";
  }
  return out;
}

std::string task_line(const Task& task, const std::string& name, std::size_t processor) {
  std::string line =
      fmt::format(fmt::runtime(kTaskLine), name, task.executed ? microseconds(task.runtime_token) : "0", processor);
  if (name != task.id) line += "  // " + escaped(task.id);
  return line + "\n";
}

// Where a task's runtimes go: its command's program, else its id up to "_ID" (Pegasus's and
// Makeflow's ids are "<transformation>_ID<number>"), else its id without trailing digits.
std::string category_of(const Task& task) {
  if (!task.program.empty()) return task.program;
  if (const std::size_t at = task.id.rfind("_ID"); at != std::string::npos && at > 0) return task.id.substr(0, at);
  std::string_view base = task.id;
  while (!base.empty() && (std::isdigit(static_cast<unsigned char>(base.back())) || base.back() == '_' ||
                           base.back() == '-' || base.back() == '.')) {
    base.remove_suffix(1);
  }
  return base.empty() ? "task" : std::string(base);
}

}  // namespace

std::string file_part(std::string_view text, std::size_t longest) {
  std::string part;
  for (char c : text.substr(0, longest)) {
    part += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' ? c : '_';
  }
  if (part.empty()) return "task";
  if (part.front() == '.') part.front() = '_';
  return part;
}

std::size_t least_program_bytes(std::string_view id, std::size_t task_number) {
  return fmt::formatted_size(fmt::runtime(kTaskLine), id, "0", task_number) + 1;
}

std::optional<std::string> write_program(const Workflow& workflow, const Graph& graph, std::string_view stem,
                                         const std::vector<std::string>& files, std::size_t max_bytes,
                                         Findings& findings) {
  const std::vector<std::string> names = pdl_names(workflow, graph, findings);
  std::string out = header(workflow, graph, stem, files);
  out += fmt::format("PROGRAM NAME IS '{}';\nEXECUTION PATTERN IS workflow;\n\n", stem);
  out += "WORK PHASE workflow IS:\n  PARALLELIZATION SCHEME IS ARBITRARY;\n";
  for (std::size_t at = 0; at < graph.order.size(); ++at) {
    const Task& task = workflow.tasks[graph.order[at]];
    out += task_line(task, names[at], at);
    for (const Arc& arc : graph.into[at]) {
      out += fmt::format("  ARC {} -> {}{};\n", names[arc.from], names[at],
                         arc.bytes > 0.0 ? fmt::format(" VOLUME {}", arc.bytes) : "");
    }
    if (at + 1 == graph.order.size()) out += "END;\n";
    if (out.size() > max_bytes) {
      findings.error(task.offset, fmt::format("the program would be longer than {} bytes, the most a PDL program may "
                                              "be, from this task on (task {} of {} in topological order)",
                                              max_bytes, at + 1, graph.order.size()));
      return std::nullopt;
    }
  }
  return out;
}

std::vector<ImportedFile> write_data_files(const Workflow& workflow, const Graph& graph, std::string_view stem) {
  std::vector<bool> in_program(workflow.tasks.size(), false);
  for (std::size_t t : graph.order) in_program[t] = true;
  std::map<std::string, std::vector<const Task*>> by_category;
  std::vector<std::string> categories;  // in order of their first task in the instance
  for (std::size_t t = 0; t < workflow.tasks.size(); ++t) {
    const Task& task = workflow.tasks[t];
    if (!in_program[t] || !task.executed) continue;
    auto [at, fresh] = by_category.try_emplace(category_of(task));
    if (fresh) categories.push_back(at->first);
    at->second.push_back(&task);
  }
  std::vector<ImportedFile> files;
  std::unordered_set<std::string> taken;
  for (const std::string& category : categories) {
    const std::string base = file_part(category, 64);
    std::string part = base;
    for (std::size_t k = 2; !taken.insert(part).second; ++k) part = fmt::format("{}_{}", base, k);
    const std::vector<const Task*>& tasks = by_category.at(category);
    std::string text = fmt::format(
        "# The measured runtimes (runtimeInSeconds) of the {} task{} of category {} in the WfCommons\n"
        "# instance {}.json, in the instance's order.\n# unit: s\n",
        tasks.size(), tasks.size() == 1 ? "" : "s", cited(category), stem);
    for (const Task* task : tasks) text += (task->runtime == 0.0 ? "0" : task->runtime_token) + "\n";
    files.push_back({fmt::format("{}.{}.dat", stem, part), std::move(text)});
  }
  return files;
}

std::optional<ImportedFile> write_runs(const Workflow& workflow, std::string_view stem, Findings& findings) {
  const auto refuse = [&](std::size_t offset, const std::string& why) {
    findings.note(offset, fmt::format("no runs file is written: {}", why));
    return std::nullopt;
  };
  if (workflow.machines.empty())
    return refuse(workflow.execution_offset,
                  "workflow.execution lists no machines, so "
                  "the run's processor count is not known");
  double cores = 0.0;
  for (const Machine& machine : workflow.machines) {
    if (!machine.cores) {
      return refuse(machine.offset, fmt::format("machine {} has no cpu.coreCount, so the run's processor count is "
                                                "not known",
                                                cited(machine.name)));
    }
    cores += *machine.cores;
  }
  if (cores > 1048576.0)
    return refuse(workflow.execution_offset, fmt::format("its {} cores are more than 2^20", cores));
  const double us = workflow.makespan * *models::microseconds_per("s");
  if (!(us >= 1e-6 && us <= 1e18)) {
    return refuse(workflow.makespan_offset, "a run's time must lie within [1e-12, 1e12] s (docs/calibration.md)");
  }
  std::string text = fmt::format(
      "# The measured execution of the WfCommons instance {}.json: p is the total core count of\n"
      "# its {} machine{}, time its makespanInSeconds.\n# unit: s\np,time\n{},{}\n",
      stem, workflow.machines.size(), workflow.machines.size() == 1 ? "" : "s", cores, workflow.makespan_token);
  return ImportedFile{fmt::format("{}.runs.csv", stem), std::move(text)};
}

}  // namespace importers::wf
