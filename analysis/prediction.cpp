#include "analysis/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <utility>

namespace analysis {

const char* to_string(PredictionIntervalKind interval) {
  switch (interval) {
    case PredictionIntervalKind::Exact: return "exact";
    case PredictionIntervalKind::Confidence95: return "confidence";
    case PredictionIntervalKind::Bounds: return "bounds";
    case PredictionIntervalKind::None: return "none";
  }
  return "none";
}

namespace {

// The solved figures of (case, p): the methods asked for, then the prediction's own solve;
// highest prediction rank first.
std::vector<const solvers::Result*> candidates(const StudyResult& study, std::size_t c, int p) {
  std::vector<const solvers::Result*> solved;
  for (solvers::Method method : study.methods()) {
    const solvers::Result& result = study.at(c, p, method).result;
    if (result.solved()) solved.push_back(&result);
  }
  if (const auto& own = study.prediction_solve(c, p); own && own->solved()) solved.push_back(&*own);
  std::stable_sort(solved.begin(), solved.end(), [](const solvers::Result* a, const solvers::Result* b) {
    return solvers::info(a->method).prediction_rank > solvers::info(b->method).prediction_rank;
  });
  return solved;
}

bool asked_for(const StudyResult& study, solvers::Method method) {
  return std::find(study.methods().begin(), study.methods().end(), method) != study.methods().end();
}

Prediction from(const StudyResult& study, const solvers::Result& result, PredictionIntervalKind interval) {
  Prediction prediction;
  prediction.method = result.method;
  prediction.own_solve = !asked_for(study, result.method);
  prediction.interval = interval;
  prediction.estimate = result.mean;
  prediction.lower = result.lower;
  prediction.upper = result.upper;
  prediction.detail = result.detail;
  return prediction;
}

// Bounds, and an approximation's point where it lies inside them: tight bounds give their
// midpoint, wide ones the approximation's estimate when it lies between them, else no point.
Prediction from_bounds(const StudyResult& study, const solvers::Result& bounds,
                       const std::vector<const solvers::Result*>& below) {
  Prediction prediction = from(study, bounds, PredictionIntervalKind::Bounds);
  prediction.estimate.reset();
  if (bounds.upper - bounds.lower <= kTightBounds * std::abs(bounds.lower)) {
    prediction.estimate = 0.5 * (bounds.lower + bounds.upper);
    return prediction;
  }
  for (const solvers::Result* approximation : below) {
    if (solvers::info(approximation->method).interval != solvers::IntervalKind::DiscretisationBracket) continue;
    if (approximation->mean >= bounds.lower && approximation->mean <= bounds.upper) {
      prediction.method = approximation->method;
      prediction.own_solve = !asked_for(study, approximation->method);
      prediction.estimate = approximation->mean;
      prediction.detail = approximation->detail;
      return prediction;
    }
  }
  return prediction;
}

// The prediction's figures without its speedups (see predict).
std::optional<Prediction> figure(const StudyResult& study, std::size_t c, int p) {
  const std::vector<const solvers::Result*> solved = candidates(study, c, p);
  const bool exact_solved =
      !solved.empty() && solvers::info(solved.front()->method).interval == solvers::IntervalKind::ExactOrProven;
  if (const auto& base = study.one_processor_time(c); p == 1 && base && !exact_solved) {
    Prediction prediction = from(study, *base, PredictionIntervalKind::Exact);
    prediction.method = solvers::Method::StateSpace;
    prediction.own_solve = true;
    return prediction;
  }
  const auto bounds = std::find_if(solved.begin(), solved.end(), [](const solvers::Result* r) {
    return solvers::info(r->method).interval == solvers::IntervalKind::BoundPair;
  });
  for (auto at = solved.begin(); at != solved.end(); ++at) {
    const solvers::Result& result = **at;
    switch (solvers::info(result.method).interval) {
      case solvers::IntervalKind::ExactOrProven: return from(study, result, PredictionIntervalKind::Exact);
      case solvers::IntervalKind::Confidence95: {
        Prediction prediction = from(study, result, PredictionIntervalKind::Confidence95);
        if (bounds == solved.end()) return prediction;
        // The exact mean lies within the bounds: cutting the interval to them loses none of
        // its coverage, and clamping the estimate only brings it nearer.
        const solvers::Result& pair = **bounds;
        if (result.upper < pair.lower || result.lower > pair.upper) break;  // disjoint: trust the bounds
        prediction.lower = std::max(result.lower, pair.lower);
        prediction.upper = std::min(result.upper, pair.upper);
        prediction.estimate = std::clamp(result.mean, *prediction.lower, *prediction.upper);
        return prediction;
      }
      case solvers::IntervalKind::BoundPair: return from_bounds(study, result, {std::next(at), solved.end()});
      case solvers::IntervalKind::DiscretisationBracket: {
        if (bounds != solved.end()) break;  // outside the bounds (from_bounds took it otherwise)
        Prediction prediction = from(study, result, PredictionIntervalKind::None);
        prediction.lower.reset();
        prediction.upper.reset();
        return prediction;
      }
    }
  }
  if (bounds != solved.end()) return from_bounds(study, **bounds, {});
  return std::nullopt;
}

std::optional<double> finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

// Speedups against T(1) (T1(W(p)) under weak scaling) where it is exact, else the same method's
// own row for p = 1.
void add_speedups(const StudyResult& study, std::size_t c, int p, Prediction& prediction) {
  const auto& exact_base = study.speedup_base(c, p);
  if (!exact_base) {
    // The point from the estimate's method, the interval from the method whose interval the
    // prediction carries (the bounds' for PredictionIntervalKind::Bounds).
    const auto bounds = std::find_if(study.methods().begin(), study.methods().end(), [](solvers::Method m) {
      return solvers::info(m).interval == solvers::IntervalKind::BoundPair;
    });
    const solvers::Method interval_from =
        prediction.interval == PredictionIntervalKind::Bounds && bounds != study.methods().end() ? *bounds
                                                                                                 : prediction.method;
    if (prediction.estimate && asked_for(study, prediction.method) &&
        solvers::info(prediction.method).interval != solvers::IntervalKind::BoundPair) {
      prediction.speedup = study.at(c, p, prediction.method).speedup;
    }
    if (prediction.lower && asked_for(study, interval_from)) {
      prediction.speedup_lower = study.at(c, p, interval_from).speedup_lower;
      prediction.speedup_upper = study.at(c, p, interval_from).speedup_upper;
    }
    return;
  }
  const double base = exact_base->mean;
  if (prediction.estimate && *prediction.estimate > 0.0) prediction.speedup = finite(base / *prediction.estimate);
  if (prediction.lower && *prediction.lower > 0.0) {
    const auto lower = finite(exact_base->lower / *prediction.upper);
    const auto upper = finite(exact_base->upper / *prediction.lower);
    if (lower && upper && *lower <= *upper) {
      prediction.speedup_lower = lower;
      prediction.speedup_upper = upper;
    }
  }
}

}  // namespace

std::optional<Prediction> predict(const StudyResult& study, std::size_t c, int p) {
  std::optional<Prediction> prediction = figure(study, c, p);
  if (!prediction) return prediction;
  add_speedups(study, c, p, *prediction);
  const auto per_processor = [p](const std::optional<double>& speedup) {
    return speedup ? std::optional<double>(*speedup / p) : std::nullopt;
  };
  prediction->efficiency = per_processor(prediction->speedup);
  prediction->efficiency_lower = per_processor(prediction->speedup_lower);
  prediction->efficiency_upper = per_processor(prediction->speedup_upper);
  return prediction;
}

ScalingSummary summarise(const StudyResult& study, std::size_t c) {
  ScalingSummary summary;
  for (double threshold : study.prediction_options().efficiency_thresholds)
    summary.efficiency.push_back({threshold, {}, {}});
  for (int p : study.processors()) {
    const std::optional<Prediction> prediction = predict(study, c, p);
    if (prediction && prediction->estimate &&
        (!summary.fastest_time || *prediction->estimate < *summary.fastest_time)) {
      summary.fastest_time = prediction->estimate;
      summary.fastest_p = p;
    }
    if (prediction) {
      // The efficiency interval where there is one, else the point.
      const std::optional<double> low =
          prediction->efficiency_lower ? prediction->efficiency_lower : prediction->efficiency;
      const std::optional<double> high =
          prediction->efficiency_upper ? prediction->efficiency_upper : prediction->efficiency;
      for (EfficiencyReach& reach : summary.efficiency) {
        if (low && *low >= reach.threshold) reach.surely = p;
        if (high && *high >= reach.threshold) reach.possibly = p;
      }
    }
  }
  IdleProcessors idle = idle_processors(study, c);
  summary.idle = std::move(idle.counts);
  summary.idle_model_of = idle.model_of;
  return summary;
}

IdleProcessors idle_processors(const StudyResult& study, std::size_t c) {
  IdleProcessors idle;
  for (int p : study.processors()) {
    if (const auto& same = study.at(c, p, study.methods().front()).same_model_as) {
      idle.counts.push_back(p);
      if (!idle.model_of) idle.model_of = same;
    }
  }
  return idle;
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
