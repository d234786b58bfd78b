// Reading the command's input files: the program checked on each machine, with every
// diagnostic printed in compiler style; and printing the typed failures of the layers below at
// their place in those files.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "pdl/file_reader.hpp"
#include "app/command.hpp"
#include "report/report.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "pdl/diagnostic.hpp"

namespace app {

// A program checked on one machine (the checker needs the machine: NUMERICAL files and
// RTFactor depend on it), with the texts to point into when a value is found invalid later.
struct Loaded {
  std::shared_ptr<const models::Program> program;
  models::Machine machine;
  std::string machine_file;  // empty for the built-in ideal machine
  // The machine with the constants --set gives applied (models::with_constants).
  std::map<std::string, double> sets;          // --set, of the program's variables
  std::map<std::string, double> machine_sets;  // --set, of the machine's constants
  report::MachineBand band;  // one end of a machine with interval-valued constants (interval_machines)
  std::map<std::string, std::string> set_expressions;  // --set NAME=EXPR (weak scaling: 100*P)
  pdl::Source program_source;
  std::optional<pdl::Source> machine_source;
  // Several programs side by side: this one's name in the reports (its file name, unique in the
  // run), and the --set and swept names it does not declare, which it ignores (sorted).
  std::string program_label;
  std::size_t program_index = 0;  // into the run's programs, in the order given
  std::vector<std::string> ignored;
};

// True for a machine file (FILE.machine): --check and --dump then read it as one.
bool is_machine_file(const std::string& path);

// The file's text; prints why not (a missing file, or one beyond the parser's size limit).
std::optional<std::string> read_source(const std::string& path, std::ostream& err,
                                       const pdl::FileReader& read = pdl::read_file);

// A machine file parsed and checked; prints every diagnostic.
std::optional<models::Machine> load_machine(const std::string& file, std::ostream& err,
                                            std::optional<pdl::Source>* source = nullptr,
                                            const pdl::FileReader& read = pdl::read_file);

// The program checked on `machine_file` (the ideal machine when empty). `check_values` are
// the bindings the checker sees besides --set (for a sweep, the first swept values).
std::optional<Loaded> load(const ProgramInputs& inputs, const std::optional<std::string>& machine_file,
                           const std::map<std::string, double>& check_values, std::ostream& err);

// The program `file` checked on `machine_file`, as above. With `tolerate_undeclared` (one of
// several programs), a --set or swept name that the program does not declare is left out of
// its checking and binding and listed in Loaded::ignored, instead of being an error.
std::optional<Loaded> load(const ProgramInputs& inputs, const std::string& file,
                           const std::optional<std::string>& machine_file,
                           const std::map<std::string, double>& check_values, bool tolerate_undeclared,
                           std::ostream& err);

// A machine whose file gives constants as ranges (VARIABLE ts = 36.5 .. 57.4;) as two Loaded:
// NAME-lower with every such constant at its lower end and NAME-upper at its upper end
// (Mendes and Reed's lower and upper machine; docs/machine.md). A constant in `swept` loses its
// range (the sweep gives its values), with a note. Any other machine is returned as it is.
std::optional<std::vector<Loaded>> interval_machines(Loaded loaded, const std::map<std::string, double>& swept,
                                                     std::ostream& err);

// --check, --dump and --graph: the program on at most one machine.
std::optional<Loaded> load_one(const ProgramInputs& inputs, std::ostream& err);

// A name neither the program nor the machine declares, given to OPTION (--set, --sweep,
// --iso-variable): "OPTION NAME: the program declares no variable 'NAME'; did you mean
// 'columns'? (it declares columns, iterations)", without "pdl-scale: error: "; for a machine
// with constants, "... no variable 'NAME' and machine 'M' no constant 'NAME'; did you mean
// 'ts'? (it declares columns; machine 'M' has ts, tw)".
std::string unknown_variable_text(const models::Program& program, const models::Machine& machine,
                                  const std::string& name, const std::string& option);

// Every binding error, worded for the command line.
void print_bind_errors(const std::vector<models::BindError>& errors, std::ostream& err);

// A failure of the analysis at its place in the file it comes from (the failing machine's
// program or machine file), else as a plain error line.
void print_failure(const analysis::Failure& failure, const std::vector<Loaded>& machines, std::ostream& err);

// The command's output on `out`, or into -o FILE whole or not at all (write_output_file).
int emit(const ReportDestination& report, const std::string& text, std::ostream& out, std::ostream& err);

// "pdl-scale: error: MESSAGE" and kExitInput.
int usage_error(std::ostream& err, const std::string& message);

}  // namespace app
