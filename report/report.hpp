// A study's results as a person reads them (a table) and as programs read them (CSV, JSON,
// JSON Lines). Methods are shown by what solvers::info() says of them, never by a switch.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/isoefficiency.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "report/time_unit.hpp"

namespace report {

// Jsonl: JSON Lines in the shape Extra-P reads (docs/cli.md), to fit empirical models.
enum class Format { Table, Csv, Json, Jsonl };

// One end of a machine with interval-valued constants (docs/machine.md): the file's machine
// name, "lower" or "upper", and each ranged constant's [lower, upper]; empty `of` otherwise.
struct MachineBand {
  std::string of;
  std::string end;
  std::map<std::string, std::pair<double, double>> ranges;
};

struct MachineInput {
  std::string name;
  std::string file;                         // empty for the built-in ideal machine
  std::map<std::string, double> constants;  // the constants --set gave it (docs/machine.md)
  MachineBand band;
};

// One of several programs side by side (pdl-scale a.pdl b.pdl).
struct ProgramInput {
  std::string label;  // its name in the reports: the file name, unique in the run (CaseLabel::program)
  std::string name;   // PROGRAM NAME IS '...'
  std::string file;   // as given
  std::map<std::string, double> variables;  // every variable of it not swept, as bound
};

// What was analysed, echoed in every report so that a result file explains itself.
struct ReportInputs {
  // One program: its name and file. Several: their labels and files, comma-separated (the
  // charts' titles), and `programs` says the rest.
  std::string program_name;
  std::string program_file;
  // Every program, in the order given; with more than one, the reports get a program column
  // (table, CSV) or field (JSON). Empty or one: a study of one program, reported as before.
  std::vector<ProgramInput> programs;
  std::vector<MachineInput> machines;  // in the order of --machine
  // Every program variable not swept, as bound; empty with several programs (see `programs`).
  std::map<std::string, double> variables;
  std::vector<analysis::SweepVariable> sweeps;                 // --sweep
  bool loss = false;                                           // --loss: the study has a case per phase alone
  bool scaling_laws = false;                                   // --scaling-laws (report_scaling.hpp)
  std::map<std::string, std::string> per_processor_variables;  // variables of P: name -> expression of P
  bool weak_scaling = false;  // a variable of P sets a size (models::is_weak_scaling): scaled speedups
  analysis::Request request;
  TimeUnit time_unit;                // --time-unit: every time printed is in it
  std::vector<std::string> command;  // the command line as given, for CSV and JSON
  // The study's wall time as estimated before it ran (analysis/cost.hpp), for JSON's "cost";
  // empty when no estimate was made.
  std::optional<double> estimated_seconds;
};

// The version of the JSON layout; bumped whenever a field changes meaning or disappears.
// 2: inputs.machine became inputs.machines (a list), inputs.sweep and "machine" and "sweep" in
// every result were added, and "loss" and "isoefficiency" sections.
// 3: "mean" became "estimate" (null for bounds, never their midpoint) with "interval_kind";
// times in "time_unit"; "tool", "command", "predictions", "summary" and "crossovers" were added.
// 4: a prediction's "interval_kind" is what its interval says of the exact mean ("exact",
// "confidence", "bounds", "none"), it gained "own_solve", "efficiency_lower/upper" and
// "detail"; the summary's "largest_p_efficiency_0_8/0_5" became "efficiency" (one entry per
// threshold, with the "surely"/"possibly" p); "notes" and inputs.options.prediction_budget and
// efficiency_thresholds were added.
inline constexpr std::string_view kJsonSchema = "pdl-scale/4";

std::string render(const analysis::StudyResult& study, const ReportInputs& inputs, Format format);

// --isoefficiency: the points by machine, then by processor count. Table, CSV or JSON.
std::string render_isoefficiency(const std::vector<analysis::IsoefficiencyPoint>& points,
                                 const analysis::IsoefficiencyOptions& iso, const ReportInputs& inputs, Format format);

}  // namespace report
