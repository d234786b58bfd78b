// The WfCommons reader's stages (wfformat.cpp runs them): the instance read from its JSON tree
// and checked (wfformat_read.cpp), its task graph ordered (wfformat_graph.cpp), and the PDL
// program, data files and runs file written (wfformat_write.cpp). Internal to the library.
#pragma once

#include "importers/imported.hpp"
#include "importers/located_json.hpp"
#include "importers/wfformat.hpp"
#include "pdl/diagnostic.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace importers::wf {

// A diagnostic before it is located: its offset in the instance's text.
struct Finding {
  pdl::Severity severity = pdl::Severity::Error;
  std::size_t offset = 0;
  std::string message;
};

// What the stages report. At most pdl::kMaxErrors errors and as many warnings are kept (the rest
// are counted, and said in one note), so that a broken instance of 10^5 tasks gives a readable
// list; the stages read on, which costs no more than reading a good instance.
class Findings {
 public:
  void error(std::size_t offset, std::string message);
  void warning(std::size_t offset, std::string message);
  void note(std::size_t offset, std::string message);
  // A note that belongs to the diagnostic before it ("the first is here"), kept beside it.
  void related(std::size_t offset, std::string message);
  std::size_t errors() const { return errors_; }
  // The errors and warnings, then a note for those left out.
  std::vector<Finding> diagnostics() const;
  const std::vector<Finding>& notes() const { return notes_; }

 private:
  std::vector<Finding> diagnostics_;
  std::vector<Finding> notes_;
  std::size_t errors_ = 0;
  std::size_t warnings_ = 0;
};

// "'text'" for a message: printable ASCII as it is, anything else escaped as JSON escapes it (so
// that no control character reaches a terminal or a PDL comment), a long text shortened.
std::string cited(std::string_view text);
// The same, whole: for a PDL comment that must give an id exactly.
std::string escaped(std::string_view text);
// A part of a file name safe on every system: letters, digits, '_', '-' and '.' (not first), any
// other character '_', at most `longest` characters; "task" for nothing.
std::string file_part(std::string_view text, std::size_t longest);

// A name in a task's list (a parent, a child, a file), and where the list names it.
struct Reference {
  std::string id;
  std::size_t offset = 0;
};

struct Task {
  std::string id;
  std::string name;
  std::size_t offset = 0;  // the value of its "id" in workflow.specification.tasks
  std::vector<Reference> parents, children, inputs, outputs;
  std::string type;  // "type", which instances before WfFormat 1.5 gave ("compute", "auxiliary", ...)
  bool auxiliary = false;
  // From workflow.execution.tasks, when the instance measured the task.
  bool executed = false;
  double runtime = 0.0;       // seconds
  std::string runtime_token;  // as the instance writes it
  std::string program;        // command.program
  double cores = 1.0;         // coreCount
};

struct Machine {
  std::string name;
  std::optional<double> cores;  // cpu.coreCount
  std::optional<double> mhz;    // cpu.speedInMHz
  std::size_t offset = 0;
};

struct File {
  std::string id;
  double bytes = 0.0;
  std::size_t offset = 0;
};

struct Workflow {
  std::string name;            // the instance's "name"
  std::string schema_version;  // "1.5"
  std::string runtime_system;  // "Pegasus 5.0", or empty
  std::vector<Task> tasks;     // in the specification's order
  std::vector<File> files;     // workflow.specification.files
  bool has_files = false;      // whether the specification lists its files at all
  double makespan = 0.0;       // seconds
  std::string makespan_token;
  std::size_t makespan_offset = 0;
  std::vector<Machine> machines;
  std::size_t execution_offset = 0;
};

// Whether a task is one of Pegasus's auxiliary jobs: by its name (kAuxiliaryPrefixes) or its
// "type" (older instances).
bool is_auxiliary(std::string_view name, std::string_view type);

// Reads and checks the instance; nothing when an error was found.
std::optional<Workflow> read_workflow(const json::Value& root, const WfFormatOptions& options, Findings& findings);

// The tasks of the program in topological order, each with its parents' positions in that
// order and the arcs' volumes in bytes.
struct Arc {
  std::size_t from = 0;  // a position in `order`
  double bytes = 0.0;
};
struct Graph {
  std::vector<std::size_t> order;      // indices into Workflow::tasks
  std::vector<std::vector<Arc>> into;  // per position in `order`, the arcs into it
  std::size_t dependencies = 0;        // arcs in all
  std::size_t dropped = 0;             // auxiliary tasks left out
};

// Resolves the parents and children, refuses a cycle, orders the tasks (Kahn's algorithm, ties in
// the instance's order) and leaves auxiliary tasks out unless `options` keeps them.
std::optional<Graph> build_graph(const Workflow& workflow, const WfFormatOptions& options, Findings& findings);

// The PDL program, or nothing when it would pass `max_bytes` (an error at the task that crosses it).
// `files`: the names of the data and runs files, which its header lists.
std::optional<std::string> write_program(const Workflow& workflow, const Graph& graph, std::string_view stem,
                                         const std::vector<std::string>& files, std::size_t max_bytes,
                                         Findings& findings);
// One NUMERICAL file per task category, named <stem>.<category>.dat.
std::vector<ImportedFile> write_data_files(const Workflow& workflow, const Graph& graph, std::string_view stem);
// The measured execution as a runs file <stem>.runs.csv, or nothing (with a note saying why).
std::optional<ImportedFile> write_runs(const Workflow& workflow, std::string_view stem, Findings& findings);

// The lines a program needs at least per task: what the reader counts while it reads, so that an
// instance too large is refused at the task that crosses the limit.
std::size_t least_program_bytes(std::string_view id, std::size_t task_number);

}  // namespace importers::wf
