#include "analysis/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>

#include "analysis/memory_gate.hpp"
#include "analysis/parallel.hpp"
#include "analysis/prediction.hpp"
#include "analysis/sensitivity_search.hpp"
#include "analysis/solve_case.hpp"
#include "models/bind.hpp"
#include "models/machine_constants.hpp"
#include "scaling/approximate_model.hpp"

namespace analysis {

const char* to_string(ConstantOwner owner) {
  switch (owner) {
    case ConstantOwner::Program: return "program";
    case ConstantOwner::Machine: return "machine";
    case ConstantOwner::RuntimeFactor: return "rtfactor";
  }
  return "program";
}

const char* to_string(ElasticityKind kind) {
  switch (kind) {
    case ElasticityKind::Exact: return "exact";
    case ElasticityKind::Paired: return "confidence";
    case ElasticityKind::Approximate: return "approximate";
  }
  return "exact";
}

namespace {

// How the models of a (case, p) with a constant changed are solved: as its prediction was.
enum class Solve {
  Chain,   // p = 1: the one-processor chain's sum (analysis/sequential_time.hpp)
  Method,  // the prediction's method
  Paired,  // Monte Carlo with the seed and sample count fixed, its samples kept
};

struct Plan {
  Solve solve = Solve::Method;
  solvers::Method method = solvers::Method::SeriesParallel;
  ElasticityKind kind = ElasticityKind::Exact;
  double step = 0.0;
  std::int64_t samples = 0;  // Solve::Paired
};

// The Monte Carlo result the prediction of (c, p) comes from: the method asked for, else the
// prediction's own solve.
const solvers::Result* monte_carlo_result(const StudyResult& study, std::size_t c, int p) {
  const auto& methods = study.methods();
  if (std::find(methods.begin(), methods.end(), solvers::Method::MonteCarlo) != methods.end()) {
    return &study.at(c, p, solvers::Method::MonteCarlo).result;
  }
  const auto& own = study.prediction_solve(c, p);
  return own ? &*own : nullptr;
}

// How (c, p) is differentiated, or why it is not (*why).
std::optional<Plan> plan_of(const StudyResult& study, std::size_t c, int p, const Request& request, std::string* why) {
  const auto prediction = predict(study, c, p);
  const SensitivityOptions& options = *request.sensitivity;
  if (!prediction) {
    *why = "no method solved this p";
    return std::nullopt;
  }
  switch (prediction->interval) {
    case PredictionIntervalKind::Exact:
      if (p == 1 && prediction->own_solve && study.one_processor_time(c)) {
        return Plan{Solve::Chain, prediction->method, ElasticityKind::Exact, options.exact_step};
      }
      return Plan{Solve::Method, prediction->method, ElasticityKind::Exact, options.exact_step};
    case PredictionIntervalKind::Confidence95: {
      const solvers::Result* sampled = monte_carlo_result(study, c, p);
      const solvers::MonteCarloOptions& monte_carlo = request.solver_options.monte_carlo;
      const std::int64_t samples = sampled ? sampled->statistics.samples : monte_carlo.min_samples;
      return Plan{Solve::Paired, solvers::Method::MonteCarlo, ElasticityKind::Paired, options.sampled_step,
                  std::clamp(samples, std::min<std::int64_t>(monte_carlo.min_samples, monte_carlo.summary_samples),
                             monte_carlo.summary_samples)};
    }
    case PredictionIntervalKind::Bounds:
      if (prediction->method == solvers::Method::SeriesParallel) {
        return Plan{Solve::Method, prediction->method, ElasticityKind::Approximate, options.sampled_step};
      }
      if (prediction->lower && prediction->upper && *prediction->lower == *prediction->upper) {
        return Plan{Solve::Method, prediction->method, ElasticityKind::Exact, options.exact_step};
      }
      *why = "the prediction is bounds only";
      return std::nullopt;
    case PredictionIntervalKind::None:
      return Plan{Solve::Method, prediction->method, ElasticityKind::Approximate, options.sampled_step};
  }
  *why = "no prediction";
  return std::nullopt;
}

// One model's figure: its mean and interval, with Solve::Paired its samples in block order.
struct Figure {
  double mean = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  std::vector<double> samples;
  std::string why_not;  // non-empty: no figure, and why
  bool ok() const { return why_not.empty(); }
};

// The study's request narrowed to one solve by the plan's method at p.
Request narrowed(const Request& request, const Plan& plan, int p) {
  Request one = request;
  one.processors = {p};
  one.methods = {plan.method};
  one.breakdown = false;
  one.prediction.seconds_per_model = 0.0;
  one.sensitivity.reset();
  one.communicator = nullptr;
  one.stop = nullptr;
  one.solver_options.monte_carlo.communicator = nullptr;
  one.solver_options.state_space.communicator = nullptr;
  one.solver_options.quantiles.clear();
  one.solver_options.monte_carlo.quantiles.clear();
  if (plan.solve == Solve::Paired) {
    solvers::MonteCarloOptions& monte_carlo = one.solver_options.monte_carlo;
    monte_carlo.relative_precision = 0.0;
    monte_carlo.samples = plan.samples;
    monte_carlo.keep_samples = true;
  }
  return one;
}

// One model solved as the plan says.
Figure evaluate(const Case& one, int p, const Plan& plan, const Request& request, MemoryGate& gate) {
  Figure figure;
  CaseWork work;
  work.methods = {plan.solve != Solve::Chain};
  work.bases = plan.solve == Solve::Chain;
  work.prediction = false;
  ItemFigures solved;
  try {
    solved = solve_case(one, p, request, gate, {}, work);
  } catch (const scaling::ScalingError& invalid) {
    figure.why_not = invalid.what();
    return figure;
  }
  solvers::Result* result = plan.solve == Solve::Chain
                                ? (solved.one_processor_time ? &*solved.one_processor_time : nullptr)
                                : &solved.results.front();
  if (result == nullptr) {
    figure.why_not = "the one-processor model is not a chain";
  } else if (!result->solved()) {
    figure.why_not = result->unsolved->explanation;
  } else if (!(result->mean > 0.0)) {
    figure.why_not = "the runtime is 0";
  } else {
    figure.mean = result->mean;
    figure.lower = result->lower;
    figure.upper = result->upper;
    figure.samples = std::move(result->samples);
  }
  return figure;
}

struct Interval {
  double lower = 0.0;
  double upper = 0.0;
};

// Every value of n / d for n and d in their intervals (d > 0).
Interval quotient(Interval n, Interval d) {
  const double q[] = {n.lower / d.lower, n.lower / d.upper, n.upper / d.lower, n.upper / d.upper};
  return {*std::min_element(std::begin(q), std::end(q)), *std::max_element(std::begin(q), std::end(q))};
}

// The central difference of the means, its interval spanning the one-sided slopes and every
// value the three figures' intervals allow, widened by the rounding of the figures: a solver's
// sum over a path carries a few ulps per node, counted as kRoundingUlps of each figure.
void difference_elasticity(const Figure& minus, const Figure& zero, const Figure& plus, double h,
                           ConstantSensitivity& out) {
  const Interval base{h * zero.lower, h * zero.upper};
  const Interval slopes[] = {
      quotient({plus.lower - minus.upper, plus.upper - minus.lower}, {2.0 * base.lower, 2.0 * base.upper}),
      quotient({plus.lower - zero.upper, plus.upper - zero.lower}, base),
      quotient({zero.lower - minus.upper, zero.upper - minus.lower}, base)};
  constexpr double kRoundingUlps = 1024.0;
  const double rounding =
      kRoundingUlps * std::numeric_limits<double>::epsilon() * (plus.mean + zero.mean + minus.mean) / (h * zero.mean);
  out.elasticity = (plus.mean - minus.mean) / (2.0 * h * zero.mean);
  out.lower = *out.elasticity - rounding;
  out.upper = *out.elasticity + rounding;
  for (const Interval& slope : slopes) {
    out.lower = std::min(out.lower, slope.lower - rounding);
    out.upper = std::max(out.upper, slope.upper + rounding);
  }
}

// Common random numbers: the ratio of mean(T+ - T-) to mean(T), its 95% interval by the delta
// method over the paired samples.
void paired_elasticity(const Figure& minus, const Figure& zero, const Figure& plus, double h,
                       ConstantSensitivity& out) {
  const std::size_t n = std::min({minus.samples.size(), zero.samples.size(), plus.samples.size()});
  if (n < 2) {
    out.why_not = "Monte Carlo kept too few samples to pair";
    return;
  }
  double difference = 0.0;
  double base = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    difference += plus.samples[i] - minus.samples[i];
    base += zero.samples[i];
  }
  const double ratio = difference / base;
  // The residuals d_i - ratio * c_i sum to 0 by the ratio's definition.
  double squares = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double residual = (plus.samples[i] - minus.samples[i]) - ratio * zero.samples[i];
    squares += residual * residual;
  }
  const double count = static_cast<double>(n);
  const double standard_error = std::sqrt(squares / (count - 1.0) / count) / (base / count);
  out.elasticity = ratio / (2.0 * h);
  out.lower = *out.elasticity - solvers::kZ95 * standard_error / (2.0 * h);
  out.upper = *out.elasticity + solvers::kZ95 * standard_error / (2.0 * h);
}

// The model of one (case, p) with one constant at `factor` times its value (for a whole-number
// constant, the nearest whole value), solved as the plan says.
struct Changed {
  const Case& one;
  int p;
  const Plan& plan;
  const Request& request;
  MemoryGate& gate;

  Figure at(const ConstantSensitivity& constant, double factor) const {
    const double value = constant.whole_steps ? std::round(constant.value * factor) : constant.value * factor;
    const auto changed = with_constant(one, constant, value);
    if (!changed.ok()) {
      Figure refused;
      refused.why_not = changed.failure->text();
      return refused;
    }
    return evaluate(*changed.value, p, plan, request, gate);
  }
};

// The elasticity by the plan's step, or for a constant the model takes in whole numbers only
// (a count, a problem size) by x - 1 and x + 1.
void elasticity_of(const Changed& model, const Figure& zero, ConstantSensitivity& constant) {
  double step = model.plan.step;
  Figure minus = model.at(constant, 1.0 - step);
  Figure plus = model.at(constant, 1.0 + step);
  const bool whole = constant.value == std::round(constant.value) && constant.value >= 2.0;
  if ((!minus.ok() || !plus.ok()) && whole) {
    constant.whole_steps = true;
    step = 1.0 / constant.value;
    minus = model.at(constant, 1.0 - step);
    plus = model.at(constant, 1.0 + step);
  }
  if (!minus.ok() || !plus.ok()) {
    constant.why_not = !minus.ok() ? minus.why_not : plus.why_not;
    return;
  }
  constant.kind = model.plan.kind;
  if (model.plan.kind == ElasticityKind::Paired) {
    paired_elasticity(minus, zero, plus, step, constant);
  } else {
    difference_elasticity(minus, zero, plus, step, constant);
  }
}

// The tolerances, each searched from the one before (T grows more for the next).
void tolerances_of(const Changed& model, const Figure& zero, const SensitivityOptions& options,
                   ConstantSensitivity& constant) {
  double from = 1.0;
  for (std::size_t k = 0; k < options.growths.size(); ++k) {
    const ToleranceSearch found = search_tolerance(
        [&](double factor) {
          const Figure at = model.at(constant, factor);
          return at.ok() ? RatioAt{at.mean / zero.mean, {}} : RatioAt{0.0, at.why_not};
        },
        options.growths[k], from, *constant.elasticity, options,
        constant.whole_steps ? std::optional<double>(constant.value) : std::nullopt);
    if (found.factor) {
      // A whole-number constant takes the value the search last solved below the growth.
      constant.tolerances[k] =
          constant.whole_steps ? std::round(constant.value * *found.factor) / constant.value : *found.factor;
    }
    constant.unbounded[k] = found.unbounded;
    if (!found.why_not.empty() && constant.why_not.empty()) constant.why_not = found.why_not;
    if (!found.factor) break;
    from = *found.factor;
  }
  // T that does not grow by the smaller fraction does not grow by the larger one either.
  for (std::size_t k = 1; k < options.growths.size(); ++k) {
    constant.unbounded[k] = constant.unbounded[k] || constant.unbounded[k - 1];
  }
}

SensitivityRow row_of(const Case& one, std::size_t c, int p, const StudyResult& study, const Request& request,
                      MemoryGate& gate) {
  SensitivityRow row;
  row.case_index = c;
  row.p = p;
  const auto plan = plan_of(study, c, p, request, &row.why_not);
  if (!plan) return row;
  row.method = plan->method;
  const Request solving = narrowed(request, *plan, p);
  const Figure zero = evaluate(one, p, *plan, solving, gate);
  if (!zero.ok()) {
    row.why_not = zero.why_not;
    return row;
  }
  row.time = zero.mean;
  row.constants = constants_of(one);
  const Changed model{one, p, *plan, solving, gate};
  // The tolerances read only each solve's mean: the same solves without the kept samples.
  Request searching = solving;
  searching.solver_options.monte_carlo.keep_samples = false;
  const Changed searched{one, p, *plan, searching, gate};
  for (ConstantSensitivity& constant : row.constants) {
    elasticity_of(model, zero, constant);
    if (constant.elasticity) tolerances_of(searched, zero, *request.sensitivity, constant);
  }
  return row;
}

}  // namespace

std::vector<ConstantSensitivity> constants_of(const Case& one) {
  std::vector<ConstantSensitivity> constants;
  auto add = [&](const std::string& name, ConstantOwner owner, double value) {
    if (value == 0.0 || !std::isfinite(value)) return;
    ConstantSensitivity constant;
    constant.name = name;
    constant.owner = owner;
    constant.value = value;
    constants.push_back(std::move(constant));
  };
  for (const models::Variable& variable : one.program->variables) {
    const auto bound = one.environment.values.find(variable.name);
    if (bound != one.environment.values.end()) add(variable.name, ConstantOwner::Program, bound->second);
  }
  if (const auto factor = one.environment.values.find("RTFactor"); factor != one.environment.values.end()) {
    add("RTFactor", ConstantOwner::RuntimeFactor, factor->second);
  }
  const models::Machine& machine = *one.machine;
  if (!machine.constant_definitions.empty()) {
    for (const models::MachineConstant& declared : machine.constant_definitions) {
      add(declared.name, ConstantOwner::Machine, machine.constants.at(declared.name));
    }
  } else {
    for (const auto& [name, value] : machine.constants) add(name, ConstantOwner::Machine, value);
  }
  return constants;
}

Outcome<Case> with_constant(const Case& one, const ConstantSensitivity& constant, double value) {
  Outcome<Case> outcome;
  Case changed = one;
  const std::size_t machine_index = one.label.machine_index;
  if (constant.owner == ConstantOwner::Program) {
    changed.values[constant.name] = value;
  } else if (constant.owner == ConstantOwner::Machine) {
    models::MachineWithConstants machine = models::with_constants(*one.machine, {{constant.name, value}});
    if (!machine.machine) {
      outcome.failure = Failure::of_value(machine_index, machine.error);
      return outcome;
    }
    changed.machine = std::make_shared<const models::Machine>(std::move(*machine.machine));
  } else {
    models::Machine machine = *one.machine;
    machine.rt_factor = value;
    machine.rt_factor_definition.reset();  // a later re-evaluation keeps the value given
    changed.machine = std::make_shared<const models::Machine>(std::move(machine));
  }
  models::Binding binding = models::bind(*changed.program, *changed.machine, changed.values);
  if (!binding.ok()) {
    outcome.failure = Failure::of_binding(machine_index, binding.errors.front());
    return outcome;
  }
  changed.environment = std::move(binding.environment);
  outcome.value = std::move(changed);
  return outcome;
}

std::vector<SensitivityRow> run_sensitivity(const std::vector<Case>& cases, const StudyResult& study,
                                            const Request& request,
                                            const std::function<void(std::size_t, std::size_t)>& rows_done) {
  std::vector<std::pair<std::size_t, int>> items;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) items.emplace_back(c, p);
  }
  // A p whose model is that of a smaller reported p repeats that one's figures: solved once,
  // copied after.
  std::vector<std::optional<std::size_t>> copy_of(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto model_of = study.at(items[k].first, items[k].second, study.methods().front()).same_model_as;
    const auto source = std::find(items.begin(), items.end(), std::make_pair(items[k].first, model_of.value_or(0)));
    if (model_of && source != items.end()) copy_of[k] = static_cast<std::size_t>(source - items.begin());
  }
  std::vector<SensitivityRow> rows(items.size());
  MemoryGate gate(static_cast<double>(request.memory_budget_bytes));
  std::mutex reporting;
  std::size_t done = 0;
  run_items(
      items.size(), request.threads,
      [&](std::size_t k) -> std::optional<Failure> {
        const auto [c, p] = items[k];
        if (request.stop != nullptr && request.stop->load()) {
          rows[k] = SensitivityRow{c, p, {}, 0.0, {}, "interrupted before its sensitivities"};
        } else if (!copy_of[k]) {
          rows[k] = row_of(cases[c], c, p, study, request, gate);
        }
        const std::lock_guard<std::mutex> guard(reporting);
        if (rows_done) rows_done(++done, items.size());
        return std::nullopt;
      },
      [&](std::size_t k) { return cases[items[k].first].label.machine_index; });
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!copy_of[k]) continue;
    rows[k] = rows[*copy_of[k]];
    rows[k].p = items[k].second;
  }
  return rows;
}

double surely(const ConstantSensitivity& constant) {
  if (!constant.elasticity) return -1.0;
  if (constant.lower <= 0.0 && constant.upper >= 0.0) return 0.0;
  return std::min(std::abs(constant.lower), std::abs(constant.upper));
}

std::vector<const ConstantSensitivity*> ranked(const SensitivityRow& row) {
  std::vector<const ConstantSensitivity*> order;
  for (const ConstantSensitivity& constant : row.constants) {
    if (!constant.whole_steps) order.push_back(&constant);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const ConstantSensitivity* a, const ConstantSensitivity* b) { return surely(*a) > surely(*b); });
  return order;
}

std::vector<LeadingConstant> leading_constants(const std::vector<SensitivityRow>& rows, std::size_t case_index) {
  std::vector<LeadingConstant> leaders;
  for (const SensitivityRow& row : rows) {
    if (row.case_index != case_index) continue;
    const auto order = ranked(row);
    if (order.empty() || !(surely(*order.front()) > 0.0)) continue;
    if (leaders.empty() || leaders.back().name != order.front()->name) leaders.push_back({row.p, order.front()->name});
  }
  return leaders;
}

}  // namespace analysis
