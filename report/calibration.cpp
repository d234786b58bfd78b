#include "report/calibration.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace report {

namespace {

using Json = nlohmann::ordered_json;

// One decimal, as "12.3%"; from a million percent on in scientific form ("3.2e+101%"), which a
// wildly wrong start (tc = 1e99) would otherwise print with a hundred digits.
constexpr double kLongestFixedPercent = 1e6;
std::string percent_text(double fraction, bool sign) {
  const double value = 100.0 * fraction;
  const bool fixed = std::abs(value) < kLongestFixedPercent;
  if (sign) return fixed ? fmt::format("{:+.1f}%", value) : fmt::format("{:+.2g}%", value);
  return fixed ? fmt::format("{:.1f}%", value) : fmt::format("{:.2g}%", value);
}
std::string percent(double fraction) { return percent_text(fraction, false); }
std::string signed_percent(double fraction) { return percent_text(fraction, true); }

// A figure for the table: six significant digits.
std::string figure(double value) { return fmt::format("{:.6g}", value); }

std::string run_values(const models::Runs& runs, const models::Run& run) {
  std::string text;
  for (std::size_t v = 0; v < runs.variables.size(); ++v) {
    text += fmt::format("{}{}={}", text.empty() ? "" : " ", runs.variables[v], figure(run.values[v]));
  }
  return text;
}

std::string level_text(double level) { return fmt::format("{:g}%", 100.0 * level); }

// Where stage 1's starts ended (docs/calibration.md, "Starts"), and the parameters that stopped
// at an end of their --fit range.
void starts_text(const analysis::CalibrationResult& fit, std::string& out) {
  if (fit.starts.size() > 1) {
    std::size_t same = 0;
    const analysis::StartOutcome* best = nullptr;
    for (const analysis::StartOutcome& start : fit.starts) {
      same += start.same_fit ? 1 : 0;
      if (start.best) best = &start;
    }
    out +=
        fmt::format("starts: {} (the input's values and {} spread on a log scale); {} reached the best fit{}\n",
                    fit.starts.size(), fit.starts.size() - 1, same, same == fit.starts.size() ? "" : "; the others:");
    for (const analysis::StartOutcome& start : fit.starts) {
      if (start.same_fit) continue;
      std::string from, to;
      for (std::size_t i = 0; i < fit.parameters.size(); ++i) {
        from += fmt::format("{}{}={}", i == 0 ? "" : " ", fit.parameters[i].name, figure(start.start[i]));
        if (!start.values.empty())
          to += fmt::format("{}{}={}", i == 0 ? "" : " ", fit.parameters[i].name, figure(start.values[i]));
      }
      out += start.values.empty()
                 ? fmt::format("  from {}: no fit ({})\n", from, start.failure)
                 : fmt::format("  from {}: stopped at {}, sum of squares {:.3g} times the best's\n", from, to,
                               best != nullptr && best->cost > 0.0 ? start.cost / best->cost : 0.0);
    }
  }
  for (const analysis::FittedParameter& parameter : fit.parameters) {
    if (parameter.at_end == 0 || !parameter.range) continue;
    out += fmt::format(
        "note: '{}' stopped at the {} end of its range ({}..{}): the runs would take it further; its standard "
        "error is that of a free parameter\n",
        parameter.name, parameter.at_end < 0 ? "lower" : "upper", figure(parameter.range->lower),
        figure(parameter.range->upper));
  }
}

void fit_text(const CalibrationPart& part, std::string& out) {
  const analysis::CalibrationResult& fit = part.fit;
  out += fmt::format("calibrated on {} ({} runs): weighted least squares on the approximate model's mean\n",
                     part.runs_file, fit.runs);
  out += fmt::format("  {:<14} {:>14} {:>14} {:>14}  {}\n", "parameter", "value", "standard error", "start", "kind");
  for (const analysis::FittedParameter& parameter : fit.parameters) {
    out += fmt::format("  {:<14} {:>14} {:>14} {:>14}  {}\n", parameter.name, figure(parameter.value),
                       parameter.standard_error ? figure(*parameter.standard_error) : std::string("-"),
                       figure(parameter.start), parameter.is_constant ? "machine constant" : "program variable");
  }
  if (!fit.correlation.empty() && fit.parameters.size() > 1) {
    out += "correlation of the estimates:\n  " + std::string(14, ' ');
    for (const analysis::FittedParameter& parameter : fit.parameters) out += fmt::format(" {:>8}", parameter.name);
    out += "\n";
    for (std::size_t i = 0; i < fit.parameters.size(); ++i) {
      out += fmt::format("  {:<14}", fit.parameters[i].name);
      for (std::size_t j = 0; j < fit.parameters.size(); ++j) out += fmt::format(" {:>8.4f}", fit.correlation[i][j]);
      out += "\n";
    }
  }
  starts_text(fit, out);
  if (fit.degrees_of_freedom == 0) {
    out += fmt::format(
        "fit: exact ({} runs for {} parameters: no degrees of freedom, so no standard errors, "
        "correlations or residual spread); R^2 = {:.6f}; {} iterations\n",
        fit.runs, fit.parameters.size(), fit.r_squared, fit.iterations);
  } else {
    out += fmt::format(
        "fit: {} degrees of freedom; residual standard error {} (relative); unexplained spread {} "
        "(of log time, beyond the model's own randomness); R^2 = {:.6f}; {} iterations\n",
        fit.degrees_of_freedom, percent(*fit.residual_standard_error), percent(fit.unexplained), fit.r_squared,
        fit.iterations);
  }
  if (fit.repetition_spread) {
    const double noise = *fit.repetition_spread;
    out += fmt::format(
        "repetitions: {} settings with two or more runs; their own spread {} (of log time, beyond the "
        "model's own randomness; restricted maximum likelihood){}\n",
        fit.repeated_settings, percent(noise),
        fit.unexplained > noise
            ? fmt::format("; the unexplained spread's excess over it, {} (in quadrature), is misfit",
                          percent(std::sqrt(fit.unexplained * fit.unexplained - noise * noise)))
            : std::string("; no sign of misfit beyond it"));
  }
}

void predictions_text(const CalibrationReport& report, std::string& out) {
  out += fmt::format("predictions{}, {} intervals of one more run:\n",
                     report.calibration ? " at the fitted values" : "", level_text(report.level));
  out += fmt::format("  {:>6} {:>12}  {:>27}  {:>27} {:>12} {:>11}  {:>27}\n", "p", "mean", "task randomness",
                     "parameters", "(std. error)", "unexplained", "prediction interval");
  for (const PredictedPoint& point : report.predictions) {
    const analysis::PredictionInterval& i = point.interval;
    out += fmt::format("  {:>6} {:>12}  {:>27}  {:>27} {:>12} {:>11}  {:>27}\n", point.p, figure(i.mean),
                       fmt::format("[{}, {}]", figure(i.task_low), figure(i.task_high)),
                       fmt::format("[{}, {}]", figure(i.parameter_low), figure(i.parameter_high)),
                       fmt::format("({})", figure(i.parameter_standard_error)), percent(i.unexplained),
                       fmt::format("[{}, {}]", figure(i.low), figure(i.high)));
  }
}

void validation_text(const CalibrationReport& report, const ValidationPart& part, std::string& out) {
  const analysis::ValidationSummary& s = part.summary;
  out += fmt::format("validation against {} ({} runs){}, {} prediction intervals:\n", part.runs_file, s.runs,
                     report.calibration ? " at the fitted values" : "", level_text(report.level));
  const bool bounds = s.bounded > 0;
  std::size_t values_width = 0;
  for (const analysis::ValidatedRun& one : part.validated) {
    values_width = std::max(values_width, run_values(part.runs, one.run).size());
  }
  const std::string values_header = values_width == 0 ? std::string() : fmt::format("  {:<{}}", "values", values_width);
  out += fmt::format("  {:>6} {:>5}{} {:>12} {:>12} {:>8}  {:>27} {:>6}{}\n", "line", "p", values_header, "measured",
                     "predicted", "error", "interval", "inside", bounds ? "  RatioLB  RatioUB" : "");
  for (const analysis::ValidatedRun& one : part.validated) {
    std::string ratios;
    if (bounds) {
      ratios = one.lower_bound ? fmt::format("  {:>7.4f}  {:>7.4f}", *one.lower_bound / one.run.time,
                                             *one.upper_bound / one.run.time)
                               : "        -        -";
    }
    const std::string values =
        values_width == 0 ? std::string() : fmt::format("  {:<{}}", run_values(part.runs, one.run), values_width);
    out += fmt::format("  {:>6} {:>5}{} {:>12} {:>12} {:>8}  {:>27} {:>6}{}\n", one.run.location.line, one.run.p,
                       values, figure(one.run.time), figure(one.prediction.mean), signed_percent(one.error),
                       fmt::format("[{}, {}]", figure(one.prediction.low), figure(one.prediction.high)),
                       one.inside ? "yes" : "no", ratios);
  }
  out += fmt::format(
      "summary (Clement's form): {} runs, mean |error| {}, mean error {}, largest |error| {}; within "
      "10%: {}, within 20%: {}, within 40%: {}\n",
      s.runs, percent(s.mean_absolute_error), signed_percent(s.mean_signed_error), percent(s.largest_absolute_error),
      percent(s.within_10), percent(s.within_20), percent(s.within_40));
  out += fmt::format("coverage: {} of {} runs inside their {} prediction interval ({})\n", s.inside, s.runs,
                     level_text(report.level), percent(s.coverage));
  if (bounds) {
    out += fmt::format(
        "bounds (Mendes and Reed): mean RatioLB {:.4f}, mean RatioUB {:.4f} over {} runs (bound / "
        "measured: a lower bound should be <= 1, an upper bound >= 1)\n",
        *s.mean_ratio_lower, *s.mean_ratio_upper, s.bounded);
  }
}

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json interval_json(const analysis::PredictionInterval& i) {
  return {{"mean", i.mean},
          {"task", {i.task_low, i.task_high}},
          {"parameters",
           {{"standard_error", i.parameter_standard_error}, {"interval", {i.parameter_low, i.parameter_high}}}},
          {"unexplained", i.unexplained},
          {"interval", {i.low, i.high}}};
}

Json fit_json(const CalibrationPart& part) {
  const analysis::CalibrationResult& fit = part.fit;
  Json parameters = Json::array();
  for (const analysis::FittedParameter& parameter : fit.parameters) {
    parameters.push_back({{"name", parameter.name},
                          {"value", parameter.value},
                          {"standard_error", optional_number(parameter.standard_error)},
                          {"start", parameter.start},
                          {"kind", parameter.is_constant ? "machine constant" : "program variable"},
                          {"range", parameter.range ? Json{parameter.range->lower, parameter.range->upper} : Json()},
                          {"at_end", parameter.at_end < 0   ? Json("lower")
                                     : parameter.at_end > 0 ? Json("upper")
                                                            : Json()}});
  }
  Json starts = Json::array();
  for (const analysis::StartOutcome& start : fit.starts) {
    starts.push_back({{"start", start.start},
                      {"values", start.values.empty() ? Json() : Json(start.values)},
                      {"cost", start.values.empty() ? Json() : Json(start.cost)},
                      {"failure", start.failure.empty() ? Json() : Json(start.failure)},
                      {"best", start.best},
                      {"same_fit", start.same_fit}});
  }
  return {{"runs_file", part.runs_file},
          {"parameters", parameters},
          {"correlation", fit.correlation},
          {"log_covariance", fit.log_covariance},
          {"runs", fit.runs},
          {"degrees_of_freedom", fit.degrees_of_freedom},
          {"residual_standard_error", optional_number(fit.residual_standard_error)},
          {"unexplained", fit.unexplained},
          {"repetition_spread", optional_number(fit.repetition_spread)},
          {"repeated_settings", fit.repeated_settings},
          {"r_squared", fit.r_squared},
          {"iterations", fit.iterations},
          {"starts", starts},
          {"termination", fit.termination}};
}

Json validation_json(const ValidationPart& part) {
  Json runs = Json::array();
  for (const analysis::ValidatedRun& one : part.validated) {
    Json values = Json::object();
    for (std::size_t v = 0; v < part.runs.variables.size(); ++v) values[part.runs.variables[v]] = one.run.values[v];
    Json row = {{"line", one.run.location.line},
                {"p", one.run.p},
                {"values", values},
                {"repetition", one.run.repetition == 0 ? Json(nullptr) : Json(one.run.repetition)},
                {"measured", one.run.time},
                {"predicted", one.prediction.mean},
                {"error", one.error},
                {"absolute_error", std::abs(one.error)},
                {"prediction", interval_json(one.prediction)},
                {"inside", one.inside},
                {"lower_bound", optional_number(one.lower_bound)},
                {"upper_bound", optional_number(one.upper_bound)},
                {"ratio_lb", one.lower_bound ? Json(*one.lower_bound / one.run.time) : Json(nullptr)},
                {"ratio_ub", one.upper_bound ? Json(*one.upper_bound / one.run.time) : Json(nullptr)}};
    runs.push_back(std::move(row));
  }
  const analysis::ValidationSummary& s = part.summary;
  return {{"runs_file", part.runs_file},
          {"runs", runs},
          {"summary",
           {{"runs", s.runs},
            {"mean_absolute_error", s.mean_absolute_error},
            {"mean_signed_error", s.mean_signed_error},
            {"largest_absolute_error", s.largest_absolute_error},
            {"within_10", s.within_10},
            {"within_20", s.within_20},
            {"within_40", s.within_40},
            {"inside", s.inside},
            {"coverage", s.coverage},
            {"bounded", s.bounded},
            {"mean_ratio_lb", optional_number(s.mean_ratio_lower)},
            {"mean_ratio_ub", optional_number(s.mean_ratio_upper)}}}};
}

}  // namespace

std::string fit_names(const analysis::CalibrationResult& fit) {
  std::string text;
  for (std::size_t i = 0; i < fit.parameters.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == fit.parameters.size() ? " and " : ", ") + fit.parameters[i].name;
  }
  return text;
}

std::string render_set_lines(const analysis::CalibrationResult& fit, const std::string& runs_file) {
  std::string text = fmt::format("# {} calibrated on {} by pdl-scale --calibrate; read back with --set-file\n",
                                 fit_names(fit), runs_file);
  for (const analysis::FittedParameter& parameter : fit.parameters) {
    text += fmt::format(
        "--set {}={:.17g}{}\n", parameter.name, parameter.value,
        parameter.standard_error ? fmt::format("  # standard error {:.6g}", *parameter.standard_error) : std::string());
  }
  return text;
}

std::string render_calibration(const CalibrationReport& report, Format format) {
  if (format == Format::Json) {
    Json document;
    document["program"] = {{"name", report.program_name}, {"file", report.program_file}};
    document["machine"] = report.machine_name;
    document["level"] = report.level;
    document["calibration"] = report.calibration ? fit_json(*report.calibration) : Json(nullptr);
    // Also at the top, as issue 15 names it: {"parameters": [{"name", "value", "standard_error"}, …]}.
    document["parameters"] = report.calibration ? document["calibration"]["parameters"] : Json::array();
    Json predictions = Json::array();
    for (const PredictedPoint& point : report.predictions) {
      Json row = interval_json(point.interval);
      row["p"] = point.p;
      predictions.push_back(std::move(row));
    }
    document["predictions"] = predictions;
    document["validation"] = report.validation ? validation_json(*report.validation) : Json(nullptr);
    return document.dump(2) + "\n";
  }
  std::string out =
      fmt::format("program {} ({}) on machine {}\n", report.program_name, report.program_file, report.machine_name);
  if (report.calibration) fit_text(*report.calibration, out);
  if (!report.predictions.empty()) predictions_text(report, out);
  if (report.validation) validation_text(report, *report.validation, out);
  return out;
}

}  // namespace report
