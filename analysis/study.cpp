#include "analysis/study.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "distributed/communicator.hpp"
#include "analysis/memory_gate.hpp"
#include "analysis/parallel.hpp"
#include "analysis/scaled_speedup.hpp"
#include "analysis/sequential_time.hpp"
#include "analysis/sensitivity.hpp"
#include "analysis/solve_case.hpp"
#include "analysis/study_plan.hpp"
#include "distributions/fingerprint.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "analysis/processor_time.hpp"
#include "solvers/result_bytes.hpp"
#include "solvers/solver.hpp"

namespace analysis {

namespace {

// The study's progress: per model solved 1, per model under way the fraction its solvers
// reported; passed on at most every 100 ms, and after each model finished.
class ProgressTally {
 public:
  ProgressTally(std::size_t models, const Progress& progress) : fractions_(models, 0.0), progress_(progress) {}

  void under_way(std::size_t model, double fraction) {
    std::lock_guard<std::mutex> guard(lock_);
    done_ += fraction - fractions_[model];
    fractions_[model] = fraction;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    progress_(done_, fractions_.size());
  }

  void finished(std::size_t model) {
    if (!progress_) return;
    std::lock_guard<std::mutex> guard(lock_);
    done_ += 1.0 - fractions_[model];
    fractions_[model] = 1.0;
    last_ = std::chrono::steady_clock::now();
    progress_(done_, fractions_.size());
  }

 private:
  std::mutex lock_;
  std::vector<double> fractions_;
  double done_ = 0.0;
  std::chrono::steady_clock::time_point last_{};
  const Progress& progress_;
};

// Speedups and efficiency of a row against T(1): the exact one-processor time where it is
// known, else the same method's figure for p = 1.
void add_speedups(Row& row, const solvers::Result& base) {
  const solvers::Result& result = row.result;
  if (!base.solved() || !result.solved() || !(base.mean > 0.0) || !(result.mean > 0.0)) return;
  // Ratios of figures near the ends of the doubles' range may overflow: a speedup that is not
  // finite is not shown (the figures themselves are, finite_or_unsolved saw to it).
  const double speedup = base.mean / result.mean;
  if (!std::isfinite(speedup)) return;
  row.speedup = speedup;
  row.efficiency = speedup / row.p;
  if (result.lower > 0.0) {
    const double lower = base.lower / result.upper;
    const double upper = base.upper / result.lower;
    if (std::isfinite(lower) && std::isfinite(upper) && lower <= upper) {
      row.speedup_lower = lower;
      row.speedup_upper = upper;
    }
  }
}

// The fields of an item the ranks of a job exchange once the items were shared out, listed once
// for the writer and the reader: the results of the methods each rank solves alone
// (`methods`), T(1) and the processor time. The methods solved by all ranks together, and the
// prediction's own solve, every rank computes itself.
template <typename Figures, typename Field>
void exchanged_fields(Figures& figures, const std::vector<bool>& methods, Field&& field) {
  for (std::size_t j = 0; j < methods.size(); ++j) {
    if (methods[j]) field(figures.results[j]);
  }
  field(figures.one_processor_time);
  field(figures.processor_time);
}

void put_field(distributed::Writer& out, const solvers::Result& result) { solvers::put_result(out, result); }
void put_field(distributed::Writer& out, const std::optional<solvers::Result>& result) {
  out.put<bool>(result.has_value());
  if (result) solvers::put_result(out, *result);
}
void put_field(distributed::Writer& out, const std::optional<ProcessorTime>& time) {
  out.put<bool>(time.has_value());
  if (time) out.put(*time);
}
void get_field(distributed::Reader& in, solvers::Result& result) { result = solvers::get_result(in); }
void get_field(distributed::Reader& in, std::optional<solvers::Result>& result) {
  result.reset();
  if (in.get<bool>()) result = solvers::get_result(in);
}
void get_field(distributed::Reader& in, std::optional<ProcessorTime>& time) {
  time.reset();
  if (in.get<bool>()) time = in.get<ProcessorTime>();
}

// Into `into`, the part of `solved` that `work` computed.
void take(ItemFigures& into, ItemFigures&& solved, const CaseWork& work) {
  into.results.resize(work.methods.size());
  for (std::size_t j = 0; j < work.methods.size(); ++j) {
    if (work.methods[j]) into.results[j] = std::move(solved.results[j]);
  }
  if (work.bases) {
    into.one_processor_time = std::move(solved.one_processor_time);
    into.processor_time = std::move(solved.processor_time);
  }
  if (work.prediction) into.prediction = std::move(solved.prediction);
}

// What each phase of solve_items computes: alone, every method of an item at once; in a job of
// several ranks, first the methods shared out by item, then those every rank solves together
// (StudyPlan::together) and the prediction's own solve.
std::pair<CaseWork, CaseWork> phases(const StudyPlan& plan, const distributed::Communicator& ranks) {
  CaseWork together{plan.together, false, &ranks, !ranks.alone()};
  CaseWork shared_out{plan.together, true, nullptr, ranks.alone()};
  shared_out.methods.flip();
  return {shared_out, together};
}

// Every item of the plan's to_solve solved into figures[item], on the ranks of a job as
// docs/scale-out.md says.
std::optional<Failure> solve_items(const std::vector<Case>& cases, const StudyPlan& plan, const Request& request,
                                   MemoryGate& gate, const Progress& progress, std::vector<ItemFigures>& figures) {
  const std::vector<std::size_t>& to_solve = plan.to_solve;
  ProgressTally tally(to_solve.size(), progress);
  const distributed::SingleProcess alone;
  const distributed::Communicator& ranks = request.communicator ? *request.communicator : alone;
  // Not a structured binding: the lambdas below capture both (clang 14, the fuzz build's, cannot).
  const std::pair<CaseWork, CaseWork> split = phases(plan, ranks);
  const CaseWork& shared_out = split.first;
  const CaseWork& together = split.second;
  const bool can_stop = request.stop != nullptr && ranks.alone();
  const auto item = [&](std::size_t i) -> std::optional<Failure> {
    const std::size_t k = to_solve[i];
    if (can_stop && request.stop->load(std::memory_order_relaxed)) return std::nullopt;
    const std::function<void(double)> report =
        progress ? std::function<void(double)>([&tally, i](double f) { tally.under_way(i, f); })
                 : std::function<void(double)>();
    // Isolated: while this item's solvers wait for their own parallel work, this thread must not
    // pick up another item, which could wait at the gate for the memory this one holds.
    take(figures[k], tbb::this_task_arena::isolate([&] {
           return solve_case(cases[plan.case_of(k)], plan.p_of(k), request, gate, report, shared_out);
         }),
         shared_out);
    tally.finished(i);
    return std::nullopt;
  };
  const auto machine_of = [&](std::size_t i) { return cases[plan.case_of(to_solve[i])].label.machine_index; };
  const auto pack = [&](std::size_t i) {
    distributed::Writer out;
    exchanged_fields(figures[to_solve[i]], shared_out.methods, [&](const auto& field) { put_field(out, field); });
    return std::move(out.bytes());
  };
  const auto unpack = [&](std::size_t i, std::string_view bytes) {
    distributed::Reader in(bytes);
    figures[to_solve[i]].results.resize(shared_out.methods.size());
    exchanged_fields(figures[to_solve[i]], shared_out.methods, [&](auto& field) { get_field(in, field); });
  };
  if (auto failure = run_shared_items(to_solve.size(), request.threads, ranks, item, machine_of, pack, unpack)) {
    return failure;
  }
  if (together.prediction ||
      std::find(together.methods.begin(), together.methods.end(), true) != together.methods.end()) {
    // In item order, every rank on each solve: the same figures on every rank.
    for (const std::size_t k : to_solve) {
      take(figures[k], solve_case(cases[plan.case_of(k)], plan.p_of(k), request, gate, {}, together), together);
    }
  }
  return std::nullopt;
}

// The request with the processor counts whose every case was solved (all of them, unless the
// study was stopped); none when p = 1, the base, was not.
Request solved_whole(const StudyPlan& plan, const std::vector<ItemFigures>& figures, Request request) {
  const auto solved = [&](std::size_t p_index) {
    for (std::size_t c = 0; c < plan.cases; ++c) {
      if (figures[plan.item(p_index, c)].results.empty()) return false;
    }
    return true;
  };
  if (!solved(0)) {
    request.processors.clear();
    return request;
  }
  std::vector<int> kept;
  for (std::size_t i = 0; i < plan.counts.size(); ++i) {
    if (solved(i) && request.reports(plan.counts[i])) kept.push_back(plan.counts[i]);
  }
  request.processors = std::move(kept);
  return request;
}

// Weak scaling: each p's speedup is against T1(W(p)), the one-processor time of its own problem.
Outcome<std::vector<std::optional<solvers::Result>>> scaled_bases(const std::vector<Case>& cases, const StudyPlan& plan,
                                                                  const Request& request) {
  Outcome<std::vector<std::optional<solvers::Result>>> outcome;
  std::vector<std::optional<solvers::Result>> bases(plan.size());
  outcome.failure = run_items(
      bases.size(), request.threads,
      [&](std::size_t k) -> std::optional<Failure> {
        const Case& one = cases[plan.case_of(k)];
        const int p = plan.p_of(k);
        if (plan.p_index_of(k) == 0 || !models::is_weak_scaling(*one.program, one.environment) || !request.reports(p))
          return std::nullopt;
        bases[k] = scaled_sequential_time(*one.program, *one.machine, one.environment, plan.p_of(k), request);
        return std::nullopt;
      },
      [&](std::size_t k) { return cases[plan.case_of(k)].label.machine_index; });
  if (!outcome.failure) outcome.value = std::move(bases);
  return outcome;
}

// The study's result from the items' figures: a row per (case, reported p, method), each with
// its speedups against T(1) of its case (or T1(W(p)) under weak scaling).
StudyResult study_result(const std::vector<Case>& cases, const StudyPlan& plan, const std::vector<ItemFigures>& figures,
                         const std::vector<std::optional<solvers::Result>>& scaled, const Request& request,
                         double seconds) {
  const std::size_t methods = request.methods.size();
  std::vector<Row> rows;
  std::vector<CaseLabel> labels;
  std::vector<std::optional<solvers::Result>> bases;              // by case
  std::vector<std::optional<ProcessorTime>> processor_times;      // by case, then reported p
  std::vector<std::optional<solvers::Result>> prediction_solves;  // by case, then reported p
  std::vector<StudyResult::ScaledBase> scaled_bases;              // by case, then reported p
  for (std::size_t c = 0; c < cases.size(); ++c) {
    labels.push_back(cases[c].label);
    const ItemFigures& at_one = figures[plan.item(0, c)];
    bases.push_back(at_one.one_processor_time);
    for (std::size_t i = 0; i < plan.counts.size(); ++i) {
      if (!request.reports(plan.counts[i])) continue;
      const std::size_t k = plan.item(i, c);
      processor_times.push_back(figures[k].processor_time);
      prediction_solves.push_back(figures[k].prediction);
      const bool weak = models::is_weak_scaling(*cases[c].program, cases[c].environment) && i > 0;
      scaled_bases.push_back({weak, weak ? scaled[k] : std::nullopt});
      for (std::size_t j = 0; j < methods; ++j) {
        Row row;
        row.case_index = c;
        row.p = plan.counts[i];
        row.result = figures[k].results[j];
        if (plan.representative[k] != k) row.same_model_as = plan.p_of(plan.representative[k]);
        if (scaled_bases.back().weak_scaling) {
          if (scaled[k]) add_speedups(row, *scaled[k]);
        } else {
          add_speedups(row, at_one.one_processor_time ? *at_one.one_processor_time : at_one.results[j]);
        }
        rows.push_back(std::move(row));
      }
    }
  }
  StudyResult study(std::move(labels), request.processors, request.methods, std::move(rows), std::move(bases), seconds);
  if (request.breakdown) study.set_processor_times(std::move(processor_times));
  study.set_prediction_solves(std::move(prediction_solves));
  study.set_scaled_bases(std::move(scaled_bases));
  study.set_prediction_options(request.prediction);
  return study;
}

// The (case, p) rows --sensitivity fills: every whole-program case at every reported p.
std::size_t whole_program_rows(const std::vector<Case>& cases, const Request& request) {
  const auto whole = std::count_if(cases.begin(), cases.end(), [](const Case& one) { return one.label.phase.empty(); });
  return static_cast<std::size_t>(whole) * request.processors.size();
}

}  // namespace

Outcome<StudyResult> run_study(const StudyPlan& plan, const std::vector<Case>& cases, const Request& request,
                               const Progress& progress) {
  std::string why;
  if (!request.IsValid(&why)) throw std::invalid_argument(why);
  if (!plan.complete) throw std::invalid_argument("run_study: the plan is incomplete (a plan limited in time)");
  const auto start = std::chrono::steady_clock::now();
  MemoryGate gate(static_cast<double>(request.memory_budget_bytes));
  Outcome<StudyResult> outcome;
  std::vector<ItemFigures> figures(plan.size());
  // With --sensitivity its rows come after the models in the progress: one unit each.
  const std::size_t sensitivity_rows = request.sensitivity ? whole_program_rows(cases, request) : 0;
  const Progress study_progress =
      !progress || sensitivity_rows == 0
          ? progress
          : Progress([&](double done, std::size_t total) { progress(done, total + sensitivity_rows); });
  outcome.failure = solve_items(cases, plan, request, gate, study_progress, figures);
  if (outcome.failure) return outcome;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    if (plan.representative[k] != k) figures[k] = figures[plan.representative[k]];
  }
  const Request reported = solved_whole(plan, figures, request);
  auto scaled = scaled_bases(cases, plan, reported);
  if (scaled.failure) {
    outcome.failure = std::move(scaled.failure);
    return outcome;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.value = study_result(cases, plan, figures, *scaled.value, reported, seconds);
  std::vector<int> unsolved;
  for (int p : request.processors) {
    if (!std::binary_search(reported.processors.begin(), reported.processors.end(), p)) unsolved.push_back(p);
  }
  outcome.value->set_unsolved_processors(std::move(unsolved));
  if (request.sensitivity && !reported.processors.empty()) {
    const std::size_t models = plan.to_solve.size();
    const auto rows_done = [&](std::size_t done, std::size_t) {
      if (progress) progress(static_cast<double>(models + done), models + sensitivity_rows);
    };
    outcome.value->set_sensitivities(run_sensitivity(cases, *outcome.value, reported, rows_done));
    outcome.value->set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return outcome;
}

Outcome<StudyResult> run_study(const std::vector<Case>& cases, const Request& request, const Progress& progress) {
  std::string why;
  if (!request.IsValid(&why)) throw std::invalid_argument(why);
  const auto start = std::chrono::steady_clock::now();
  Outcome<StudyPlan> plan = plan_study(cases, request);
  if (!plan.ok()) return {std::nullopt, std::move(plan.failure)};
  Outcome<StudyResult> outcome = run_study(*plan.value, cases, request, progress);
  if (outcome.ok()) {
    outcome.value->set_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return outcome;
}

}  // namespace analysis
