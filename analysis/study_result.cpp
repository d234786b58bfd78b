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

const std::optional<ProcessorTime>& StudyResult::processor_time(std::size_t case_index, int p) const {
  static const std::optional<ProcessorTime> none;
  if (processor_times_.empty()) return none;
  const auto p_at = std::lower_bound(processors_.begin(), processors_.end(), p);
  if (case_index >= cases_.size() || p_at == processors_.end() || *p_at != p) {
    throw std::out_of_range("StudyResult::processor_time: no such case or processor count");
  }
  return processor_times_[case_index * processors_.size() + static_cast<std::size_t>(p_at - processors_.begin())];
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
