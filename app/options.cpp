#include "app/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <string_view>

#include "report/plot_tail.hpp"
#include "solvers/solver.hpp"

namespace app {

std::optional<std::uint64_t> parse_bytes(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value == 0) return std::nullopt;
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  int shift = 0;
  if (unit == "K" || unit == "k")
    shift = 10;
  else if (unit == "M" || unit == "m")
    shift = 20;
  else if (unit == "G" || unit == "g")
    shift = 30;
  else if (unit == "T" || unit == "t")
    shift = 40;
  else if (!unit.empty())
    return std::nullopt;
  if (value > (std::uint64_t{1} << (60 - shift))) return std::nullopt;
  return value << shift;
}

std::optional<double> parse_duration(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || !std::isfinite(value) || !(value > 0.0)) return std::nullopt;
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (unit.empty() || unit == "s") return value;
  if (unit == "m" || unit == "min") return value * 60.0;
  if (unit == "h") return value * 3600.0;
  return std::nullopt;
}

Checked<std::vector<solvers::Method>> parse_methods(const std::string& list) {
  // "auto": the approximate model, the bounds, and the exact mean wherever the state space
  // fits (a p beyond the budget gets a note instead).
  static constexpr solvers::Method kAuto[] = {solvers::Method::SeriesParallel, solvers::Method::Bounds,
                                              solvers::Method::StateSpace};
  std::vector<solvers::Method> methods;
  auto add = [&](solvers::Method method) {
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
  };
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    if (name == "all") {
      for (solvers::Method method : solvers::all_methods()) add(method);
    } else if (name == "auto") {
      for (solvers::Method method : kAuto) add(method);
    } else if (const auto method = solvers::method_from_string(name)) {
      add(*method);
    } else {
      std::string known;
      for (solvers::Method one : solvers::all_methods()) known += std::string(solvers::to_string(one)) + ", ";
      return refuse(fmt::format("--method {}: unknown method '{}' ({}auto or all)", as_written(list), name, known));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return {std::move(methods), std::nullopt};
}

Checked<std::vector<int>> processor_counts(const Options& options) {
  std::vector<int> counts;
  if (!options.processors.empty()) {
    if (options.pmax) return refuse("give either --pmax or --p, not both");
    std::string_view list = options.processors;
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      const std::string_view item = list.substr(0, comma);
      long long value = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
      if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
        return refuse(fmt::format("--p {}: '{}' is not a processor count", options.processors, item));
      }
      if (value < 1 || value > scaling::kMaxProcessors) {
        return refuse(fmt::format("--p: processor count {} is outside [1, {}]", value, scaling::kMaxProcessors));
      }
      counts.push_back(static_cast<int>(value));
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
      if (list.empty()) {
        return refuse(fmt::format("--p {}: a processor count is missing after the last comma", options.processors));
      }
    }
  } else {
    const int pmax = options.pmax.value_or(analysis::kDefaultPmax);
    if (pmax < 1 || static_cast<std::size_t>(pmax) > analysis::kMaxProcessorCounts) {
      return refuse(fmt::format("--pmax {} is outside [1, {}]", pmax, analysis::kMaxProcessorCounts));
    }
    for (int p = 1; p <= pmax; ++p) counts.push_back(p);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.size() > analysis::kMaxProcessorCounts) {
    return refuse(
        fmt::format("--p lists {} processor counts, more than {}", counts.size(), analysis::kMaxProcessorCounts));
  }
  return {std::move(counts), std::nullopt};
}

Checked<SetValues> parse_sets(const std::vector<std::string>& sets) {
  SetValues values;
  for (const std::string& set : sets) {
    const std::size_t eq = set.find('=');
    const std::string name = eq == std::string::npos ? set : set.substr(0, eq);
    const std::string text = eq == std::string::npos ? std::string() : set.substr(eq + 1);
    if (eq == std::string::npos || name.empty() || text.empty()) {
      return refuse(fmt::format("--set '{}': expected name=value", set));
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool number = ec == std::errc() && end == text.data() + text.size();
    if (number && !std::isfinite(value)) {
      return refuse(fmt::format("--set {}: '{}' is not a finite number", name, text));
    }
    if (values.numbers.contains(name) || values.expressions.contains(name)) {
      return refuse(fmt::format("--set {}: given twice", name));
    }
    // Not a number: an expression (e.g. 100*P), which the checker parses as the variable's default.
    if (number) {
      values.numbers.emplace(name, value);
    } else {
      values.expressions.emplace(name, text);
    }
  }
  return {std::move(values), std::nullopt};
}

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

// A sweep's values in the order given, each once.
class SweepValues {
 public:
  explicit SweepValues(std::vector<double>& values) : values_(values) {}

  // False once there are more than kMaxSweepValues.
  bool add(double value) {
    if (seen_.insert(value).second) values_.push_back(value);
    return values_.size() <= kMaxSweepValues;
  }

 private:
  std::vector<double>& values_;
  std::set<double> seen_;
};

// An item of --sweep TEXT refused, with `why`.
Refusal refuse_item(const std::string& text, std::string_view item, const std::string& why) {
  return refuse(fmt::format("--sweep {}: '{}' {} (items are v, a..b, a..b:step or a..b*factor)", text, item, why));
}

// The values of the range `item` of --sweep TEXT (a..b, a..b:step or a..b*factor, `dots` at its
// ".."), added.
Check add_range(const std::string& text, std::string_view item, std::size_t dots, SweepValues& values) {
  const std::string_view from_text = item.substr(0, dots);
  std::string_view to_text = item.substr(dots + 2);
  const std::size_t op = to_text.find_first_of(":*");
  const char kind = op == std::string_view::npos ? ':' : to_text[op];
  const std::string_view step_text = op == std::string_view::npos ? "1" : to_text.substr(op + 1);
  to_text = to_text.substr(0, op);
  const auto from = parse_number(from_text);
  const auto to = parse_number(to_text);
  const auto step = parse_number(step_text);
  if (!from || !to || !step) return refuse_item(text, item, "is not a range of finite numbers");
  if (*from > *to) return refuse_item(text, item, "runs backwards (the start is above the end)");
  if (kind == ':' && *step <= 0) return refuse_item(text, item, "needs a step > 0");
  if (kind == '*' && (*step <= 1 || *from <= 0)) return refuse_item(text, item, "needs a factor > 1 and a start > 0");
  double previous = 0.0;
  for (std::size_t k = 0;; ++k) {
    // From the start each time, not by accumulation: no drift over long ranges.
    const double value =
        kind == ':' ? *from + static_cast<double>(k) * *step : *from * std::pow(*step, static_cast<double>(k));
    if (!not_past(value, *to)) break;
    // A step below the precision of the values (1 + 1e-300 is 1) would repeat one value
    // forever; every value of a range must exceed the one before.
    if (k > 0 && !(value > previous)) {
      return refuse_item(text, item,
                         fmt::format("does not advance: {} {} {} is {} again (the {} is below the precision of "
                                     "the values)",
                                     previous, kind == ':' ? "+" : "*", *step, value, kind == ':' ? "step" : "factor"));
    }
    if (k >= kMaxSweepValues || !values.add(value)) {
      return refuse_item(text, item, fmt::format("makes more than {} values", kMaxSweepValues));
    }
    previous = value;
  }
  return passed();
}

// The values of one item of --sweep TEXT's list (v or a range), added.
Check add_item(const std::string& text, std::string_view item, SweepValues& values) {
  const std::size_t dots = item.find("..");
  if (item.empty()) return refuse_item(text, item, "is empty");
  if (dots != std::string_view::npos) return add_range(text, item, dots, values);
  const auto value = parse_number(item);
  if (!value) return refuse_item(text, item, "is not a finite number");
  if (!values.add(*value)) return refuse_item(text, item, fmt::format("makes more than {} values", kMaxSweepValues));
  return passed();
}

}  // namespace

Checked<analysis::SweepVariable> parse_sweep(const std::string& text) {
  const std::size_t eq = text.find('=');
  analysis::SweepVariable variable;
  variable.name = eq == std::string::npos ? text : text.substr(0, eq);
  const std::string list = eq == std::string::npos ? std::string() : text.substr(eq + 1);
  if (eq == std::string::npos || variable.name.empty() || list.empty()) {
    return refuse(fmt::format("--sweep '{}': expected NAME=LIST, e.g. columns=10,20,40..160*2", text));
  }
  SweepValues values(variable.values);
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (Check added = add_item(text, item, values); !added.ok()) return refuse(*added.failure);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return {std::move(variable), std::nullopt};
}

namespace {

// Whether the option of a method (SolverInfo::own_options: "samples", "precision", ...) was given.
bool method_option_given(const Options& options, std::string_view name) {
  if (name == "samples") return options.samples.has_value();
  if (name == "precision") return options.precision.has_value();
  if (name == "max-states") return options.max_states.has_value();
  if (name == "grid-points") return options.grid_points.has_value();
  if (name == "seed") return options.seed.has_value();
  return false;
}

std::string method_list(const std::vector<solvers::Method>& methods) {
  std::string list;
  for (solvers::Method method : methods) {
    if (!list.empty()) list += ',';
    list += solvers::to_string(method);
  }
  return list;
}

}  // namespace

Checked<std::vector<std::string>> method_option_notes(const Options& options,
                                                      const std::vector<solvers::Method>& methods) {
  const bool isoefficiency = options.isoefficiency.has_value();
  if (isoefficiency && options.methods) {
    return refuse("--method: --isoefficiency solves the approximate model alone (approx); give no --method with it");
  }
  // What the run solves, for the messages.
  const std::string run = isoefficiency ? std::string("--isoefficiency solves the approximate model alone")
                          : options.methods
                              ? fmt::format("--method {} does not include it", *options.methods)
                              : fmt::format("the default methods ({}) do not include it", method_list(methods));
  auto uses = [&](solvers::Method method) {
    if (isoefficiency) return method == solvers::Method::SeriesParallel;
    return std::find(methods.begin(), methods.end(), method) != methods.end();
  };
  // --precision also sets the precision of the prediction's own Monte Carlo.
  const bool own_monte_carlo = !isoefficiency && options.request.prediction.seconds_per_model > 0.0;
  for (solvers::Method method : solvers::all_methods()) {
    const solvers::SolverInfo& info = solvers::info(method);
    if (uses(method)) continue;
    for (std::string_view owned : info.own_options) {
      if (!method_option_given(options, owned)) continue;
      const std::string option = "--" + std::string(owned);
      if (own_monte_carlo && option == "--precision") continue;
      return refuse(
          fmt::format("{}: only {} ({}) uses it, and {}{}", option, info.name, info.in_words, run,
                      isoefficiency ? "" : fmt::format(" (add {} to --method, or drop {})", info.name, option)));
    }
  }
  // The prediction's own Monte Carlo (--prediction-budget) draws with the seed too.
  std::vector<std::string> notes;
  if (options.seed && !uses(solvers::Method::MonteCarlo) && !own_monte_carlo) {
    notes.push_back(
        fmt::format("--seed has no effect: only mc draws random numbers, {}, and --prediction-budget 0 "
                    "turns off the prediction's own solve",
                    run));
  }
  return {std::move(notes), std::nullopt};
}

std::vector<std::string> program_files(const Options& options) {
  std::vector<std::string> files{options.file};
  files.insert(files.end(), options.other_files.begin(), options.other_files.end());
  return files;
}

Check check_one_program(const Options& options) {
  if (options.other_files.empty()) return passed();
  std::string given;
  for (const std::string& file : program_files(options)) given += (given.empty() ? "" : ", ") + file;
  const auto refuse_several = [&](const char* option, const char* what) {
    return refuse(fmt::format("{}: {} one program, and {} are given ({}); give one FILE", option, what,
                              program_files(options).size(), given));
  };
  if (options.dump) return refuse_several("--dump", "prints the model of");
  if (options.graph) return refuse_several("--graph", "draws the model of");
  if (options.loss) return refuse_several("--loss", "analyses the phases of");
  if (options.isoefficiency) return refuse_several("--isoefficiency", "searches the problem size of");
  if (options.isospeed) return refuse_several("--isospeed", "searches the problem size of");
  return passed();
}

namespace {

Check check_svg_path(const std::string& option, const std::string& file) {
  const std::filesystem::path path(file);
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".svg") return passed();
  // A device or a pipe takes whatever is written to it (/dev/null, /dev/stdout, a FIFO).
  std::error_code ignored;
  const auto status = std::filesystem::status(path, ignored);
  if (std::filesystem::is_character_file(status) || std::filesystem::is_fifo(status)) return passed();
  return refuse(
      fmt::format("{} {}: the chart is an SVG drawing, and pdl-scale writes no other format; name the file "
                  "FILE.svg (and convert it, e.g. rsvg-convert -o chart.png chart.svg)",
                  option, file));
}

}  // namespace

Check check_chart_paths(const Options& options) {
  const std::pair<const char*, const std::optional<std::string>*> charts[] = {
      {"--plot", &options.plot},
      {"--tail-plot", &options.tail_plot},
      {"--breakdown-plot", &options.breakdown_plot},
      {"--sensitivity-plot", &options.sensitivity_plot}};
  for (const auto& [option, file] : charts) {
    if (!*file) continue;
    if (Check svg = check_svg_path(option, **file); !svg.ok()) return svg;
  }
  return passed();
}

namespace {

// The numbers of a comma-separated list, each checked by `accepts`; the first that is not a
// number or not accepted refused (`what` names what it should be).
Checked<std::vector<double>> parse_number_list(const std::string& list, const char* option, const char* what,
                                               bool (*accepts)(double)) {
  std::vector<double> values;
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto value = parse_number(item);
    if (!value || !accepts(*value)) {
      return refuse(fmt::format("{} {}: '{}' is not {}", option, as_written(list), item, what));
    }
    values.push_back(*value);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return {std::move(values), std::nullopt};
}

}  // namespace

Checked<std::vector<double>> parse_quantiles(const std::string& list) {
  auto levels = parse_number_list(list, "--quantiles", "a percentage in (0, 100), e.g. 50,95,99",
                                  [](double percent) { return percent > 0.0 && percent < 100.0; });
  if (!levels.ok()) return levels;
  std::vector<double>& values = *levels.value;
  for (double& level : values) level /= 100.0;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return levels;
}

Checked<std::vector<double>> parse_efficiency_thresholds(const std::string& list) {
  const auto values = parse_number_list(list, "--efficiency", "an efficiency in (0, 1], e.g. 0.7,0.9",
                                        [](double value) { return value > 0.0 && value <= 1.0; });
  if (!values.ok()) return values;
  std::vector<double> thresholds;  // in the order given, without repeats
  for (double value : *values.value) {
    if (std::find(thresholds.begin(), thresholds.end(), value) == thresholds.end()) thresholds.push_back(value);
  }
  return {std::move(thresholds), std::nullopt};
}

Checked<analysis::Request> analysis_request(const Options& options) {
  if (Check charts = check_chart_paths(options); !charts.ok()) return refuse(*charts.failure);
  analysis::Request request = options.request;
  const auto counts = processor_counts(options);
  if (!counts.ok()) return refuse(*counts.failure);
  request.processors = *counts.value;
  if (options.methods) {
    const auto methods = parse_methods(*options.methods);
    if (!methods.ok()) return refuse(*methods.failure);
    request.methods = *methods.value;
  }
  solvers::SolverOptions& solver = request.solver_options;
  if (options.samples) {
    solver.monte_carlo.samples = *options.samples;
    solver.monte_carlo.relative_precision = 0.0;
  }
  if (options.precision) solver.monte_carlo.relative_precision = *options.precision;
  if (options.seed) solver.monte_carlo.seed = *options.seed;
  if (options.max_states) solver.state_space.max_states = *options.max_states;
  if (options.grid_points) solver.series_parallel.grid.max_points = *options.grid_points;
  if (options.quantiles) {
    const auto levels = parse_quantiles(*options.quantiles);
    if (!levels.ok()) return refuse(*levels.failure);
    request.solver_options.quantiles = *levels.value;
  } else if (options.format == report::Format::Json && !options.isoefficiency) {
    request.solver_options.quantiles.assign(analysis::kJsonQuantileLevels.begin(), analysis::kJsonQuantileLevels.end());
  }
  // The tail chart draws the 95% quantile: it is computed (and reported) with the others.
  if (options.tail_plot) {
    std::vector<double>& levels = request.solver_options.quantiles;
    if (std::find(levels.begin(), levels.end(), report::kTailLevel) == levels.end()) {
      levels.insert(std::upper_bound(levels.begin(), levels.end(), report::kTailLevel), report::kTailLevel);
    }
  }
  if (options.efficiency) {
    const auto thresholds = parse_efficiency_thresholds(*options.efficiency);
    if (!thresholds.ok()) return refuse(*thresholds.failure);
    request.prediction.efficiency_thresholds = *thresholds.value;
  }
  request.breakdown = options.breakdown;
  if (options.sensitivity) request.sensitivity.emplace();
  if (std::string why; !request.IsValid(&why)) return refuse(why);
  return {std::move(request), std::nullopt};
}

}  // namespace app
