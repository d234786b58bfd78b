// A study: one or more programs on one or more machines, at every combination of swept variable
// values, and for a loss analysis each phase alone, solved over the processor counts by the requested
// methods. Results are addressed by (case, p, method), whatever the order they were computed in.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/processor_time.hpp"
#include "analysis/request.hpp"
#include "analysis/sensitivity_result.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "solvers/result.hpp"

namespace analysis {

// A program checked on one machine, with the values given for its variables. The program is
// checked per machine because measured data and RTFactor depend on the machine.
struct MachineInput {
  std::shared_ptr<const models::Program> program;
  models::Machine machine;
  std::string machine_file;  // empty for the built-in ideal machine
  std::map<std::string, double> values;
  // Several programs side by side (pdl-scale a.pdl b.pdl): which one this is, and its name in
  // the reports (the file name, unique in the run); empty for a study of one program.
  std::size_t program_index = 0;
  std::string program_label;
};

// One swept variable: its values in the order given, without repeats.
struct SweepVariable {
  std::string name;
  std::vector<double> values;
};

// Every combination of the swept values (the cross product, the first variable slowest), as
// name/value pairs in the order of `variables`; one empty combination when there is none.
std::vector<std::vector<std::pair<std::string, double>>> sweep_combinations(
    const std::vector<SweepVariable>& variables);

// What one analysed configuration is, as the reports name it.
struct CaseLabel {
  // Into the study's MachineInputs: one per (program, machine), so a failure names both.
  std::size_t machine_index = 0;
  std::string machine;       // the machine's name
  std::string machine_file;  // empty for the built-in ideal machine
  // The swept variables' values of this configuration, in the order of the sweep.
  std::vector<std::pair<std::string, double>> swept;
  // Loss analysis: the one phase kept (every other phase costs 0); empty for the whole program.
  std::string phase;
  // The program (MachineInput::program_index and program_label): the outermost dimension of the
  // cases; the label is empty for a study of one program.
  std::size_t program_index = 0;
  std::string program;
};

// One configuration to solve over p: a program on a machine with its variables bound.
struct Case {
  std::shared_ptr<const models::Program> program;
  std::shared_ptr<const models::Machine> machine;
  models::Environment environment;
  // The program variables' values given (--set, then the swept ones) that `environment` was bound
  // from: binding again with one changed (--sensitivity) starts from these.
  std::map<std::string, double> values;
  CaseLabel label;
};

// The cases of a study, in report order: per machine input (program-major when there are
// several programs, so the program is the outermost dimension), per combination of swept values, the
// whole program and then (with `loss`) each phase of the pattern alone and, when the pattern has
// a SYNC, the barriers alone (kBarriersOnly). A value that cannot be bound is a Binding failure.
// A swept name that is a constant of the machine (and not a variable of the program) gives the
// case the machine with that value (models::with_constants); one that neither declares is left
// out (with several programs or machines, one that lacks it ignores it; the command refuses a
// name nothing declares). A machine that cannot take a swept value is an InvalidValue failure.
Outcome<std::vector<Case>> make_cases(const std::vector<MachineInput>& machines,
                                      const std::vector<SweepVariable>& sweeps, bool loss);

struct Row {
  std::size_t case_index = 0;
  int p = 1;
  solvers::Result result;
  // T(1) / T(p) and speedup / p, from the same method's means (weak scaling: T1(W(p)) / T(p),
  // analysis/scaled_speedup.hpp); empty where the method has no
  // mean for p = 1 or p (not solved).
  std::optional<double> speedup;
  std::optional<double> efficiency;
  // The speedup interval implied by the two intervals: [T1.lower / Tp.upper, T1.upper / Tp.lower].
  std::optional<double> speedup_lower;
  std::optional<double> speedup_upper;
  // The smaller processor count whose models (approximate and exact) this p's equal, and whose
  // figures it repeats: the extra processors have no work. Empty when this p was solved.
  std::optional<int> same_model_as;
};

class StudyResult {
 public:
  StudyResult() = default;
  StudyResult(std::vector<CaseLabel> cases, std::vector<int> processors, std::vector<solvers::Method> methods,
              std::vector<Row> rows, std::vector<std::optional<solvers::Result>> one_processor_times, double seconds);

  const std::vector<CaseLabel>& cases() const { return cases_; }
  // The reported processor counts, ascending.
  const std::vector<int>& processors() const { return processors_; }
  const std::vector<solvers::Method>& methods() const { return methods_; }
  // The row of one case, processor count and method; throws std::out_of_range for a p or
  // method that was not requested.
  const Row& at(std::size_t case_index, int p, solvers::Method method) const;
  // T(1) of a case, the base of every method's speedups, where it is exact
  // (sequential_time.hpp); empty where each method uses its own figure for p = 1.
  const std::optional<solvers::Result>& one_processor_time(std::size_t case_index) const {
    return one_processor_times_.at(case_index);
  }
  // The base of the speedups of (case, p): T1(W(p)), the one-processor time of p's own problem
  // (empty where it could not be solved), where the case is weak scaling (docs/scaling.md) and
  // p is not its first count; else T(1) of the case.
  const std::optional<solvers::Result>& speedup_base(std::size_t case_index, int p) const;
  struct ScaledBase {
    bool weak_scaling = false;
    std::optional<solvers::Result> base;  // T1(W(p)) where weak_scaling
  };
  void set_scaled_bases(std::vector<ScaledBase> bases);  // by case, then p
  // With Request::breakdown: the busy processor time of the exact model of (case, p), empty
  // where that model was not built (over max_exact_tasks or the memory budget) and for every
  // (case, p) of a study without a breakdown.
  const std::optional<ProcessorTime>& processor_time(std::size_t case_index, int p) const;
  void set_processor_times(std::vector<std::optional<ProcessorTime>> times);  // by case, then p
  // The prediction's own solve of (case, p) (PredictionOptions::seconds_per_model): the result of
  // a method not asked for that ranks above them all, where one fit the budget; empty otherwise.
  const std::optional<solvers::Result>& prediction_solve(std::size_t case_index, int p) const;
  void set_prediction_solves(std::vector<std::optional<solvers::Result>> solves);  // by case, then p
  // The request's prediction options (the summary's efficiency thresholds).
  const PredictionOptions& prediction_options() const { return prediction_options_; }
  void set_prediction_options(PredictionOptions options) { prediction_options_ = std::move(options); }
  // With Request::sensitivity: one row per whole-program (case, p), by case then p; empty
  // otherwise.
  const std::vector<SensitivityRow>& sensitivities() const { return sensitivities_; }
  void set_sensitivities(std::vector<SensitivityRow> rows) { sensitivities_ = std::move(rows); }
  // Wall-clock time of the whole study (with Request::sensitivity, its solves included).
  double seconds() const { return seconds_; }
  void set_seconds(double seconds) { seconds_ = seconds; }
  // The processor counts asked for that an interrupted study (Request::stop) did not solve
  // whole, ascending; empty when it ran to the end.
  const std::vector<int>& unsolved_processors() const { return unsolved_processors_; }
  void set_unsolved_processors(std::vector<int> counts) { unsolved_processors_ = std::move(counts); }

 private:
  // Into the per-(case, p) vectors; throws std::out_of_range for a p not reported.
  std::size_t case_p_index(std::size_t case_index, int p) const;

  std::vector<CaseLabel> cases_;
  std::vector<int> processors_;
  std::vector<solvers::Method> methods_;
  std::vector<Row> rows_;                                            // by case, then processor count, then method
  std::vector<std::optional<solvers::Result>> one_processor_times_;  // by case
  std::vector<std::optional<ProcessorTime>> processor_times_;        // by case, then p; empty: none
  std::vector<std::optional<solvers::Result>> prediction_solves_;    // by case, then p; empty: none
  std::vector<ScaledBase> scaled_bases_;                             // by case, then p; empty: none
  PredictionOptions prediction_options_;
  std::vector<SensitivityRow> sensitivities_;
  double seconds_ = 0.0;
  std::vector<int> unsolved_processors_;
};

// How far a study has come: `done` models of `total` solved, counting the solved fraction of
// those under way, so that one long solve moves it too. Called from any thread, never from two
// at once, at most every 100 ms while a solve reports and after every model solved.
using Progress = std::function<void(double done, std::size_t total)>;

// Every case on every processor count by every method, in parallel over (case, p); the figures
// do not depend on the thread count. A processor count whose models equal those of a smaller
// one (extra processors idle) is not solved again: its rows repeat that one's figures
// (Row::same_model_as), and the progress counts only the models solved. Throws std::invalid_argument for an invalid
// request. Stopped by Request::stop, it reports the processor counts solved whole (p = 1, the
// base, is solved first); with none, the result has no processor counts.
Outcome<StudyResult> run_study(const std::vector<Case>& cases, const Request& request, const Progress& progress = {});

struct StudyPlan;
// The study of `plan` (analysis/study_plan.hpp), made by plan_study(cases, request) and complete
// (not limited in time; std::invalid_argument otherwise): its models solved, not planned again.
// The overload above plans and runs.
Outcome<StudyResult> run_study(const StudyPlan& plan, const std::vector<Case>& cases, const Request& request,
                               const Progress& progress = {});

}  // namespace analysis
