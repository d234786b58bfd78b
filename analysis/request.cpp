#include "analysis/request.hpp"

#include <algorithm>
#include <cmath>

namespace analysis {

bool Request::reports(int p) const { return std::binary_search(processors.begin(), processors.end(), p); }

std::vector<int> Request::default_processors() {
  std::vector<int> counts;
  for (int p = 1; p <= kDefaultPmax; ++p) counts.push_back(p);
  return counts;
}

bool PredictionOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (!(seconds_per_model >= 0.0) || !std::isfinite(seconds_per_model)) {
    return fail("the prediction's seconds per model must be finite and >= 0");
  }
  if (efficiency_thresholds.empty()) return fail("no efficiency threshold");
  for (double threshold : efficiency_thresholds) {
    if (!(threshold > 0.0 && threshold <= 1.0)) return fail("an efficiency threshold must be in (0, 1]");
  }
  return true;
}

bool SensitivityOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  for (double step : {exact_step, sampled_step}) {
    if (!(step > 0.0 && step <= 0.1)) return fail("a sensitivity step must be in (0, 0.1]");
  }
  if (!(growths[0] > 0.0 && growths[0] < growths[1] && growths[1] <= 1.0)) {
    return fail("the sensitivity's growths must ascend within (0, 1]");
  }
  if (!(max_factor > 1.0 + growths[1]) || !std::isfinite(max_factor)) {
    return fail("the sensitivity's largest factor must be finite and above the growths");
  }
  if (!(factor_precision > 0.0 && factor_precision <= 0.01)) {
    return fail("the sensitivity's factor precision must be in (0, 0.01]");
  }
  return true;
}

bool Request::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (processors.empty()) return fail("no processor count to analyse");
  if (processors.size() > kMaxProcessorCounts) {
    return fail(std::to_string(processors.size()) + " processor counts, more than " +
                std::to_string(kMaxProcessorCounts));
  }
  for (int p : processors) {
    if (p < 1 || p > scaling::kMaxProcessors) {
      return fail("processor count " + std::to_string(p) + " is outside [1, " +
                  std::to_string(scaling::kMaxProcessors) + "]");
    }
  }
  if (!std::is_sorted(processors.begin(), processors.end()) ||
      std::adjacent_find(processors.begin(), processors.end()) != processors.end()) {
    return fail("the processor counts must be ascending without repeats");
  }
  if (methods.empty()) return fail("no method to run");
  for (std::size_t k = 0; k < methods.size(); ++k) {
    if (std::find(methods.begin(), methods.begin() + static_cast<std::ptrdiff_t>(k), methods[k]) !=
        methods.begin() + static_cast<std::ptrdiff_t>(k)) {
      return fail(std::string("method ") + std::string(solvers::to_string(methods[k])) + " is given twice");
    }
  }
  if (threads < 0) return fail("threads must be >= 0");
  if (max_exact_tasks < 1) return fail("max_exact_tasks must be >= 1");
  if (memory_budget_bytes < solvers::kSmallestMemoryBudget) {
    return fail("the memory budget must be at least 1 MiB, got " + std::to_string(memory_budget_bytes) + " bytes");
  }
  return prediction.IsValid(why) && solver_options.IsValid(why) && (!sensitivity || sensitivity->IsValid(why));
}

}  // namespace analysis
