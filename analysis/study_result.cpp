// StudyResult: the rows of a study addressed by (case, p, method).
#include <algorithm>
#include <stdexcept>

#include "analysis/study.hpp"

namespace analysis {

StudyResult::StudyResult(std::vector<CaseLabel> cases, std::vector<int> processors,
                         std::vector<solvers::Method> methods, std::vector<Row> rows,
                         std::vector<std::optional<solvers::Result>> one_processor_times, double seconds)
    : cases_(std::move(cases)),
      processors_(std::move(processors)),
      methods_(std::move(methods)),
      rows_(std::move(rows)),
      one_processor_times_(std::move(one_processor_times)),
      seconds_(seconds) {
  one_processor_times_.resize(cases_.size());
  if (rows_.size() != cases_.size() * processors_.size() * methods_.size()) {
    throw std::logic_error("StudyResult: the rows do not cover every (case, p, method)");
  }
}

void StudyResult::set_processor_times(std::vector<std::optional<ProcessorTime>> times) {
  if (times.size() != cases_.size() * processors_.size()) {
    throw std::logic_error("StudyResult: the processor times do not cover every (case, p)");
  }
  processor_times_ = std::move(times);
}

void StudyResult::set_prediction_solves(std::vector<std::optional<solvers::Result>> solves) {
  if (solves.size() != cases_.size() * processors_.size()) {
    throw std::logic_error("StudyResult: the prediction's solves do not cover every (case, p)");
  }
  prediction_solves_ = std::move(solves);
}

void StudyResult::set_scaled_bases(std::vector<ScaledBase> bases) {
  if (bases.size() != cases_.size() * processors_.size()) {
    throw std::logic_error("StudyResult: the scaled bases do not cover every (case, p)");
  }
  scaled_bases_ = std::move(bases);
}

const std::optional<solvers::Result>& StudyResult::speedup_base(std::size_t case_index, int p) const {
  const std::size_t k = case_p_index(case_index, p);
  if (!scaled_bases_.empty() && scaled_bases_[k].weak_scaling) return scaled_bases_[k].base;
  return one_processor_time(case_index);
}

std::size_t StudyResult::case_p_index(std::size_t case_index, int p) const {
  const auto p_at = std::lower_bound(processors_.begin(), processors_.end(), p);
  if (case_index >= cases_.size() || p_at == processors_.end() || *p_at != p) {
    throw std::out_of_range("StudyResult: no such case or processor count");
  }
  return case_index * processors_.size() + static_cast<std::size_t>(p_at - processors_.begin());
}

const std::optional<ProcessorTime>& StudyResult::processor_time(std::size_t case_index, int p) const {
  static const std::optional<ProcessorTime> none;
  const std::size_t k = case_p_index(case_index, p);
  return processor_times_.empty() ? none : processor_times_[k];
}

const std::optional<solvers::Result>& StudyResult::prediction_solve(std::size_t case_index, int p) const {
  static const std::optional<solvers::Result> none;
  const std::size_t k = case_p_index(case_index, p);
  return prediction_solves_.empty() ? none : prediction_solves_[k];
}

const Row& StudyResult::at(std::size_t case_index, int p, solvers::Method method) const {
  const auto p_at = std::lower_bound(processors_.begin(), processors_.end(), p);
  const auto method_at = std::find(methods_.begin(), methods_.end(), method);
  if (case_index >= cases_.size() || p_at == processors_.end() || *p_at != p || method_at == methods_.end()) {
    throw std::out_of_range("StudyResult::at: no such case, processor count or method");
  }
  const auto i = static_cast<std::size_t>(p_at - processors_.begin());
  const auto j = static_cast<std::size_t>(method_at - methods_.begin());
  return rows_[(case_index * processors_.size() + i) * methods_.size() + j];
}

}  // namespace analysis
