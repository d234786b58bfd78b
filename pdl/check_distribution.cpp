// Distributions: the arguments each kind takes, their values when known now, and the data
// files of NUMERICAL.
#include "models/measured_tail.hpp"
#include "models/validate.hpp"
#include "pdl/check_program.hpp"
#include "pdl/measurements.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

namespace pdl::detail {

namespace {

namespace x3 = boost::spirit::x3;

const ast::ArgList* list_argument(const ast::DistArg& arg) {
  const auto* list = boost::get<x3::forward_ast<ast::ArgList>>(&arg);
  return list != nullptr ? &list->get() : nullptr;
}

// EMPIRICAL, SMOOTHED or TAIL, in any case, as a bare name.
std::optional<models::Smoothing> smoothing_keyword(const ast::DistArg& arg) {
  const auto* e = boost::get<ast::Expression>(&arg);
  if (e == nullptr || !e->rest.empty() || !e->first.rest.empty() || !e->first.first.signs.empty() ||
      !e->first.first.operand.exponents.empty()) {
    return std::nullopt;
  }
  const auto* name = boost::get<ast::Identifier>(&e->first.first.operand.base);
  if (name == nullptr) return std::nullopt;
  const std::string word = upper(name->name);
  if (word == "EMPIRICAL") return models::Smoothing::Empirical;
  if (word == "SMOOTHED") return models::Smoothing::Smoothed;
  if (word == "TAIL") return models::Smoothing::Tail;
  return std::nullopt;
}

class DistributionChecker {
 public:
  explicit DistributionChecker(ProgramContext& context) : context_(context), reporter_(context.reporter()) {}

  models::RuntimeSpec distribution(const ast::Distribution& d) {
    models::RuntimeSpec spec;
    spec.kind = d.kind;
    spec.location = reporter_.location(d);
    if (spec.kind == models::DistKind::Numerical) {
      numerical(d, spec);
      return spec;
    }
    const std::size_t errors = reporter_.errors();
    bool complete = true;
    switch (spec.kind) {
      case models::DistKind::PhaseType: complete = phase_type(d, spec); break;
      case models::DistKind::Mixture: complete = mixture(d, spec); break;
      default:
        for (const ast::DistArg& arg : d.args) parameter(d, arg, spec);
        break;
    }
    if (complete && reporter_.errors() == errors) check_values(d, spec);
    return spec;
  }

 private:
  // Adds the argument to the parameters when it is a number.
  void parameter(const ast::Distribution& d, const ast::DistArg& arg, models::RuntimeSpec& spec) {
    if (const auto* e = boost::get<ast::Expression>(&arg)) {
      spec.params.push_back(context_.expression(*e));
      return;
    }
    reporter_.error(d, fmt::format("{} takes numbers here, not a {}", models::to_string(spec.kind),
                                   boost::get<ast::StringLit>(&arg) ? "string" : "list or distribution"));
  }

  void numerical(const ast::Distribution& d, models::RuntimeSpec& spec) {
    const ast::StringLit* file =
        d.args.size() == 1 || d.args.size() == 2 ? boost::get<ast::StringLit>(&d.args[0]) : nullptr;
    if (file == nullptr) {
      reporter_.error(d,
                      "NUMERICAL takes one quoted file name, e.g. NUMERICAL('runtimes.$ARCH'), and "
                      "optionally EMPIRICAL, SMOOTHED or TAIL");
      return;
    }
    spec.file = file->value;
    if (d.args.size() == 2) {
      const std::optional<models::Smoothing> smoothing = smoothing_keyword(d.args[1]);
      if (!smoothing) {
        reporter_.error(d,
                        "NUMERICAL: the second argument is EMPIRICAL (the default: the measured values), "
                        "SMOOTHED (a kernel density) or TAIL (a generalised Pareto tail fitted beyond the 90% "
                        "quantile), e.g. NUMERICAL('runtimes.txt', SMOOTHED)");
        return;
      }
      spec.smoothing = *smoothing;
    }
    if (numerical_file(*file) && context_.read_measurements()) spec.measurements = measurements(*file);
    if (spec.measurements && spec.smoothing == models::Smoothing::Tail) fitted_tail(d, *spec.measurements);
  }

  // The tail TAIL asks for, said in a note; refused, at the keyword, where it cannot be fitted.
  void fitted_tail(const ast::Distribution& d, const models::Measurements& data) {
    const models::TailFitOutcome tail = models::fit_tail(data);
    const ast::Expression& keyword = boost::get<ast::Expression>(d.args[1]);
    if (!tail.fit) {
      reporter_.error(keyword, fmt::format("NUMERICAL('{}', TAIL): {}", data.file, tail.error));
      return;
    }
    const models::TailFit& fit = *tail.fit;
    reporter_.note(keyword, fmt::format("TAIL: above {:g}, the 90% quantile of '{}', a generalised Pareto tail "
                                        "fitted to its {} largest samples: shape xi = {:.3g} +- {:.2g}, scale {:.4g}",
                                        fit.threshold, data.file, fit.exceedances, fit.xi, fit.xi_error, fit.sigma));
  }

  // False when the shape of the arguments is wrong (then their values are not checked).
  bool phase_type(const ast::Distribution& d, models::RuntimeSpec& spec) {
    const ast::ArgList* alpha = d.args.size() == 2 ? list_argument(d.args[0]) : nullptr;
    const ast::ArgList* rows = d.args.size() == 2 ? list_argument(d.args[1]) : nullptr;
    if (alpha == nullptr || rows == nullptr) {
      reporter_.error(d,
                      "PHASETYPE takes an initial vector and a subgenerator matrix, e.g. "
                      "PHASETYPE([1, 0], [[-2, 2], [0, -3]])");
      return false;
    }
    spec.order = alpha->size();
    for (const ast::DistArg& a : *alpha) parameter(d, a, spec);
    if (rows->size() != spec.order) {
      reporter_.error(d, fmt::format("PHASETYPE: the subgenerator has {} rows, the initial vector {} entries",
                                     rows->size(), spec.order));
      return false;
    }
    for (const ast::DistArg& r : *rows) {
      const ast::ArgList* row = list_argument(r);
      if (row == nullptr || row->size() != spec.order) {
        reporter_.error(
            d, fmt::format("PHASETYPE: every row of the subgenerator needs {} entries in brackets", spec.order));
        return false;
      }
      for (const ast::DistArg& a : *row) parameter(d, a, spec);
    }
    return true;
  }

  // False when the shape of the arguments is wrong (then their values are not checked).
  bool mixture(const ast::Distribution& d, models::RuntimeSpec& spec) {
    if (d.args.empty() || d.args.size() % 2 != 0) {
      reporter_.error(d,
                      "MIXTURE takes pairs (weight, distribution), e.g. "
                      "MIXTURE(0.3, EXPONENTIAL(1), 0.7, ERLANG(2, 1))");
      return false;
    }
    for (std::size_t i = 0; i < d.args.size(); i += 2) {
      parameter(d, d.args[i], spec);
      const auto* component = boost::get<x3::forward_ast<ast::Distribution>>(&d.args[i + 1]);
      if (component == nullptr) {
        reporter_.error(d, fmt::format("MIXTURE: argument {} must be a distribution", i + 2));
        return false;
      }
      spec.components.push_back(distribution(component->get()));
    }
    return true;
  }

  // The parameters' values, when they are all known now.
  void check_values(const ast::Distribution& d, const models::RuntimeSpec& spec) {
    std::vector<double> values;
    for (const models::Expr& p : spec.params) {
      const auto value = constant_value(p, context_.environment(), d, reporter_);
      if (!value) return;
      values.push_back(*value);
    }
    if (const std::string problem = models::check_parameters(spec.kind, spec.order, values); !problem.empty()) {
      reporter_.error(d, "invalid distribution: " + problem);
      return;
    }
    if (spec.kind == models::DistKind::Erlang) erlang_phases(d, values[0], values[1]);
  }

  // ERLANG(k, s) is k phases each of mean s. Typical phase counts are small (the paper's are 8
  // and 100); a count far above them is most often the arguments read the other way round,
  // ERLANG(mean, k) for ERLANG(k, mean/k), which multiplies the mean. Warned (docs/pdl.md,
  // "Warnings"): k > kManyPhases, or k > kSwappedPhases with a scale that reads as a phase
  // count (a whole number from 2 to kSwappedPhases).
  void erlang_phases(const ast::Distribution& d, double k, double s) {
    constexpr double kManyPhases = 1000;
    constexpr double kSwappedPhases = 100;
    const bool scale_is_a_count = s == std::floor(s) && s >= 2 && s <= kSwappedPhases;
    if (!(k > kManyPhases || (k > kSwappedPhases && scale_is_a_count))) return;
    std::string message = fmt::format(
        "ERLANG({:g}, {:g}) has {:g} phases, each of mean {:g}: a mean of {:g} with a coefficient of variation "
        "of only {:.3g}; ERLANG takes the phase count first",
        k, s, k, s, k * s, 1.0 / std::sqrt(k));
    if (scale_is_a_count) {
      message += fmt::format(" (for {:g} phases and a mean of {:g}, write ERLANG({:g}, {:g}))", s, k, s, k / s);
    } else {
      message += fmt::format(" (for a constant runtime, write DETERMINISTIC({:g}))", k * s);
    }
    reporter_.warning(d, message);
  }

  // True when the name is usable.
  bool numerical_file(const ast::StringLit& file) {
    const std::string& name = file.value;
    if (name.empty()) {
      reporter_.error(file, "NUMERICAL: the file name is empty");
      return false;
    }
    for (std::size_t i = name.find('$'); i != std::string::npos; i = name.find('$', i + 1)) {
      if (name.compare(i, 5, "$ARCH") != 0) {
        reporter_.error(file, fmt::format("NUMERICAL: unknown substitution in '{}': only $ARCH (the machine's "
                                          "name) is replaced",
                                          name));
        return false;
      }
    }
    return true;
  }

  // Reads the data file: its own errors are reported in it (file:line:col), followed by a note
  // at the NUMERICAL that asked for it.
  std::optional<models::Measurements> measurements(const ast::StringLit& file) {
    const models::Machine& machine = context_.machine();
    const std::string resolved = models::resolve_file(file.value, machine.name);
    std::filesystem::path path(resolved);
    if (path.is_relative()) path = std::filesystem::path(reporter_.source().filename()).parent_path() / path;
    const std::string shown = path.lexically_normal().string();
    const std::string via =
        file.value == resolved ? std::string() : fmt::format(" ('{}' on machine '{}')", file.value, machine.name);
    MeasurementsResult read = read_measurements(shown, context_.file_reader());
    if (!read.read_error.empty()) {
      reporter_.error(file, fmt::format("NUMERICAL: cannot read '{}'{}: {}", shown, via, read.read_error));
      return std::nullopt;
    }
    if (!read.measurements) {
      for (Diagnostic& diagnostic : read.diagnostics) reporter_.add(std::move(diagnostic));
      reporter_.note(file, fmt::format("in the measured data '{}'{} of this NUMERICAL", shown, via));
      return std::nullopt;
    }
    read.measurements->machine = machine.name;
    // A unit other than the program's (microseconds) is converted silently otherwise: say it.
    const std::string& unit = read.measurements->unit;
    if (!unit.empty() && unit != "us" && unit != "\xC2\xB5s" && unit != "\xCE\xBCs") {
      reporter_.note(file, fmt::format("the measured data '{}'{} is in {}: converted to µs, the program's time unit "
                                       "(every time the report prints is in --time-unit, µs by default)",
                                       shown, via, unit));
    }
    return std::move(read.measurements);
  }

  ProgramContext& context_;
  Reporter& reporter_;
};

}  // namespace

models::RuntimeSpec check_distribution(const ast::Distribution& distribution, ProgramContext& context) {
  return DistributionChecker(context).distribution(distribution);
}

}  // namespace pdl::detail
