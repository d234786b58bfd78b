#include "analysis/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace analysis {

namespace {

bool requested(const StudyResult& study, solvers::Method method) {
  return std::find(study.methods().begin(), study.methods().end(), method) != study.methods().end();
}

const solvers::Result* solved(const StudyResult& study, std::size_t c, int p, solvers::Method method) {
  if (!requested(study, method)) return nullptr;
  const solvers::Result& result = study.at(c, p, method).result;
  return result.solved() ? &result : nullptr;
}

// The prediction's figures without its speedups.
std::optional<Prediction> figure(const StudyResult& study, std::size_t c, int p) {
  const auto from = [](const solvers::Result& result, std::optional<double> estimate) {
    Prediction prediction;
    prediction.method = result.method;
    prediction.interval = solvers::info(result.method).interval;
    prediction.estimate = estimate;
    prediction.lower = result.lower;
    prediction.upper = result.upper;
    return prediction;
  };
  for (solvers::Method method : {solvers::Method::StateSpace, solvers::Method::MonteCarlo}) {
    if (const solvers::Result* result = solved(study, c, p, method)) return from(*result, result->mean);
  }
  const solvers::Result* bounds = solved(study, c, p, solvers::Method::Bounds);
  if (bounds != nullptr && bounds->upper - bounds->lower <= kTightBounds * std::abs(bounds->lower)) {
    return from(*bounds, 0.5 * (bounds->lower + bounds->upper));
  }
  if (const solvers::Result* approx = solved(study, c, p, solvers::Method::SeriesParallel)) {
    return from(*approx, approx->mean);
  }
  if (bounds != nullptr) return from(*bounds, std::nullopt);
  return std::nullopt;
}

std::optional<double> finite(double value) { return std::isfinite(value) ? std::optional<double>(value) : std::nullopt; }

}  // namespace

std::optional<Prediction> predict(const StudyResult& study, std::size_t c, int p) {
  std::optional<Prediction> prediction = figure(study, c, p);
  if (!prediction) return prediction;
  const auto& exact_base = study.one_processor_time(c);
  if (!exact_base) {
    // T(1) is the same method's figure for p = 1, as in the method's own speedup column.
    const Row& row = study.at(c, p, prediction->method);
    if (prediction->estimate) {
      prediction->speedup = row.speedup;
      prediction->efficiency = row.efficiency;
    }
    prediction->speedup_lower = row.speedup_lower;
    prediction->speedup_upper = row.speedup_upper;
    return prediction;
  }
  const double base = exact_base->mean;
  if (prediction->estimate && *prediction->estimate > 0.0) {
    prediction->speedup = finite(base / *prediction->estimate);
    if (prediction->speedup) prediction->efficiency = *prediction->speedup / p;
  }
  if (prediction->lower > 0.0) {
    const auto lower = finite(base / prediction->upper);
    const auto upper = finite(base / prediction->lower);
    if (lower && upper && *lower <= *upper) {
      prediction->speedup_lower = lower;
      prediction->speedup_upper = upper;
    }
  }
  return prediction;
}

ScalingSummary summarise(const StudyResult& study, std::size_t c) {
  ScalingSummary summary;
  for (int p : study.processors()) {
    const std::optional<Prediction> prediction = predict(study, c, p);
    if (prediction && prediction->estimate && (!summary.fastest_time || *prediction->estimate < *summary.fastest_time)) {
      summary.fastest_time = prediction->estimate;
      summary.fastest_p = p;
    }
    if (prediction && prediction->efficiency) {
      if (*prediction->efficiency >= 0.5) summary.efficient_half = p;
      if (*prediction->efficiency >= 0.8) summary.efficient_80 = p;
    }
    if (const auto& same = study.at(c, p, study.methods().front()).same_model_as) {
      summary.idle.push_back(p);
      if (!summary.idle_model_of) summary.idle_model_of = same;
    }
  }
  return summary;
}

std::vector<Crossover> crossovers(const StudyResult& study) {
  // Configurations of one problem (the same swept values, another machine or program), grouped first:
  // a sweep of 10,000 values would otherwise compare 5e7 pairs of cases.
  std::map<std::vector<std::pair<std::string, double>>, std::vector<std::size_t>> problems;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (study.cases()[c].phase.empty()) problems[study.cases()[c].swept].push_back(c);
  }
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, Crossover>> found;  // by (a, b)
  for (const auto& [swept, cases] : problems) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      for (std::size_t j = i + 1; j < cases.size(); ++j) {
        const std::size_t a = cases[i], b = cases[j];
        const CaseLabel& label_a = study.cases()[a];
        const CaseLabel& label_b = study.cases()[b];
        if (label_a.program_index != label_b.program_index && label_a.machine != label_b.machine) continue;
        int first_order = 0;  // -1: a faster, 1: b faster
        for (int p : study.processors()) {
          const auto pa = predict(study, a, p);
          const auto pb = predict(study, b, p);
          if (!pa || !pb || !pa->estimate || !pb->estimate || *pa->estimate == *pb->estimate) continue;
          const int order = *pa->estimate < *pb->estimate ? -1 : 1;
          if (first_order == 0) {
            first_order = order;
          } else if (order != first_order) {
            found.push_back({{a, b}, {order < 0 ? b : a, order < 0 ? a : b, p}});
            break;
          }
        }
      }
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<Crossover> ordered;
  for (const auto& [pair, crossing] : found) ordered.push_back(crossing);
  return ordered;
}

}  // namespace analysis
