#include "app/study.hpp"

#include <fmt/format.h>

#include <charconv>
#include <set>

#include "scaling/approximate_model.hpp"

namespace app {

namespace {

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// A range's last value is taken when it is within rounding of the end: 0.1..0.3:0.1 ends at 0.3.
bool not_past(double value, double end) { return value <= end + 1e-9 * std::max(1.0, std::abs(end)); }

}  // namespace

std::optional<SweepVariable> parse_sweep(const std::string& text, std::string* error) {
  const std::size_t eq = text.find('=');
  SweepVariable variable;
  variable.name = eq == std::string::npos ? text : text.substr(0, eq);
  const std::string list = eq == std::string::npos ? std::string() : text.substr(eq + 1);
  if (eq == std::string::npos || variable.name.empty() || list.empty()) {
    *error = fmt::format("--sweep '{}': expected NAME=LIST, e.g. columns=10,20,40..160*2", text);
    return std::nullopt;
  }
  auto fail = [&](std::string_view item, std::string why) {
    *error = fmt::format("--sweep {}: '{}' {} (items are v, a..b, a..b:step or a..b*factor)", text, item, why);
    return std::nullopt;
  };
  std::set<double> seen;
  auto add = [&](double value) {
    if (seen.insert(value).second) variable.values.push_back(value);
    return variable.values.size() <= kMaxSweepValues;
  };
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t dots = item.find("..");
    if (item.empty()) return fail(item, "is empty");
    if (dots == std::string_view::npos) {
      const auto value = parse_number(item);
      if (!value) return fail(item, "is not a finite number");
      if (!add(*value)) return fail(item, fmt::format("makes more than {} values", kMaxSweepValues));
    } else {
      const std::string_view from_text = item.substr(0, dots);
      std::string_view to_text = item.substr(dots + 2);
      const std::size_t op = to_text.find_first_of(":*");
      const char kind = op == std::string_view::npos ? ':' : to_text[op];
      const std::string_view step_text = op == std::string_view::npos ? "1" : to_text.substr(op + 1);
      to_text = to_text.substr(0, op);
      const auto from = parse_number(from_text);
      const auto to = parse_number(to_text);
      const auto step = parse_number(step_text);
      if (!from || !to || !step) return fail(item, "is not a range of finite numbers");
      if (*from > *to) return fail(item, "runs backwards (the start is above the end)");
      if (kind == ':' && *step <= 0) return fail(item, "needs a step > 0");
      if (kind == '*' && (*step <= 1 || *from <= 0)) return fail(item, "needs a factor > 1 and a start > 0");
      for (std::size_t k = 0;; ++k) {
        // From the start each time, not by accumulation: no drift over long ranges.
        const double value = kind == ':' ? *from + static_cast<double>(k) * *step
                                         : *from * std::pow(*step, static_cast<double>(k));
        if (!not_past(value, *to)) break;
        if (!add(value)) return fail(item, fmt::format("makes more than {} values", kMaxSweepValues));
      }
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return variable;
}

std::vector<std::vector<std::pair<std::string, double>>> sweep_combinations(
    const std::vector<SweepVariable>& variables) {
  std::vector<std::vector<std::pair<std::string, double>>> combinations{{}};
  for (const SweepVariable& variable : variables) {
    std::vector<std::vector<std::pair<std::string, double>>> longer;
    for (const auto& combination : combinations) {
      for (double value : variable.values) {
        longer.push_back(combination);
        longer.back().emplace_back(variable.name, value);
      }
    }
    combinations = std::move(longer);
  }
  return combinations;
}

namespace {

void collect_phases(const models::PatternNode& node, std::vector<std::string>& names) {
  if (node.kind == models::PatternNode::Kind::PhaseRef &&
      std::find(names.begin(), names.end(), node.phase) == names.end()) {
    names.push_back(node.phase);
  }
  for (const models::PatternNode& child : node.children) collect_phases(child, names);
}

void make_free(models::WorkPhase& phase) {
  const models::Expr none = models::Expr::constant(0);
  if (phase.runtime) phase.runtime = models::zero_runtime();
  phase.volume = none;
  for (std::optional<models::Subtask>* subtask : {&phase.independent, &phase.dependent}) {
    if (*subtask) {
      (*subtask)->runtime = models::zero_runtime();
      (*subtask)->volume = none;
    }
  }
  if (phase.interarrival) phase.interarrival = models::zero_runtime();
  if (phase.join) phase.join = models::zero_runtime();
  for (models::Task& task : phase.tasks) task.runtime = models::zero_runtime();
  for (models::Arc& arc : phase.arcs) arc.volume = none;
}

bool has_sync(const models::PatternNode& node) {
  if (node.kind == models::PatternNode::Kind::Sync) return true;
  return std::any_of(node.children.begin(), node.children.end(), has_sync);
}

}  // namespace

bool pattern_has_sync(const models::Program& program) { return has_sync(program.pattern); }

std::vector<std::string> pattern_phases(const models::Program& program) {
  std::vector<std::string> names;
  collect_phases(program.pattern, names);
  return names;
}

models::Program with_only_phase(const models::Program& program, const std::string& kept) {
  models::Program copy = program;
  for (auto& [name, phase] : copy.phases) {
    if (name == kept) continue;
    if (auto* work = std::get_if<models::WorkPhase>(&phase)) {
      make_free(*work);
    } else {
      std::get<models::SequentialPhase>(phase).runtime = models::zero_runtime();
    }
  }
  return copy;
}

std::pair<double, double> approximate_efficiency(const models::Program& program, const models::Machine& machine,
                                                 const models::Environment& environment, int p,
                                                 const solvers::SeriesParallelOptions& options) {
  solvers::SeriesParallelOptions lean = options;
  lean.keep_distribution = false;
  const double one = solvers::solve_series_parallel(scaling::approximate_model(program, machine, environment, 1), lean).mean;
  const double many = p == 1 ? one
                             : solvers::solve_series_parallel(
                                   scaling::approximate_model(program, machine, environment, p), lean).mean;
  if (!(many > 0.0)) return {0.0, many};
  return {one / (static_cast<double>(p) * many), many};
}

}  // namespace app
