#include "report/calibration.hpp"
#include "report/calibration_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace report {

namespace {

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

// A figure for the table: six significant digits, without an exponent from 1e-4 to 1e9 (a
// time of 2,105,750 µs reads 2105750, not 2.10575e+06), trailing zeros dropped.
std::string figure(double value) {
  const double size = std::abs(value);
  if (!(size >= 1e-4 && size < 1e9)) return fmt::format("{:.6g}", value);
  const int decimals = std::max(0, 5 - static_cast<int>(std::floor(std::log10(size))));
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

// The times of the table in one unit (report_time_unit).
struct Times {
  TimeUnit unit;
  std::string operator()(double microseconds) const { return figure(unit.of(microseconds)); }
  std::string interval(double low, double high) const { return fmt::format("[{}, {}]", (*this)(low), (*this)(high)); }
  std::string header(const std::string& name) const { return fmt::format("{} [{}]", name, unit.symbol); }
};

}  // namespace

TimeUnit report_time_unit(const CalibrationReport& report) {
  if (report.time_unit) return *report.time_unit;
  std::vector<double> shown;
  for (const PredictedPoint& point : report.predictions) shown.push_back(point.interval.mean);
  if (report.validation) {
    for (const analysis::ValidatedRun& one : report.validation->validated) {
      shown.push_back(one.run.time);
      shown.push_back(one.prediction.mean);
    }
  }
  if (shown.empty()) return *time_unit_named("us");
  std::nth_element(shown.begin(), shown.begin() + static_cast<std::ptrdiff_t>(shown.size() / 2), shown.end());
  const double median = shown[shown.size() / 2];
  for (const char* name : {"s", "ms", "us"}) {
    const TimeUnit unit = *time_unit_named(name);
    if (unit.of(median) >= 1.0) return unit;
  }
  return *time_unit_named("ns");
}

namespace {

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

// "p 1..2, rows 256..2048, blocks 16"
std::string axes_text(const analysis::CalibratedRange& range) {
  std::string text;
  for (std::size_t a = 0; a < range.axes.size(); ++a) {
    text += fmt::format(
        "{}{} {}", a == 0 ? "" : ", ", range.axes[a],
        range.low[a] == range.high[a] ? figure(range.low[a]) : figure(range.low[a]) + ".." + figure(range.high[a]));
  }
  return text;
}

// The calibrated range and how fast the model's error grew beyond it (docs/calibration.md,
// "Beyond the calibrated range").
void range_text(const analysis::CalibratedRange& range, std::string& out) {
  out += "calibrated range: " + axes_text(range) + "\n";
  if (range.splits.empty()) {
    out +=
        "beyond it: no axis has two values to refit without its outer settings: the model's error beyond the range "
        "is not measured and the intervals do not grow with the distance\n";
    return;
  }
  if (!range.rate) {
    out +=
        "beyond it: no refit without the outer settings succeeded, so the model's error beyond the range is not "
        "measured and the intervals do not grow with the distance:\n";
  } else if (*range.rate == 0.0) {
    out +=
        "beyond it: the refits without the outer settings missed them by no more than the runs' noise (a "
        "lack-of-fit test at two standard deviations), so the intervals do not grow with the distance:\n";
  } else {
    out += fmt::format(
        "beyond it: the model's error grows by {} of log time per unit of distance (a factor e in one value), the "
        "fastest of the refits without the outer settings:\n",
        percent(*range.rate));
  }
  for (const analysis::RangeSplit& split : range.splits) {
    const std::string outcome = !split.rate ? "no refit (" + split.skipped.substr(0, split.skipped.find(';')) + ")"
                                : *split.rate == 0.0 ? std::string("within the noise")
                                                     : percent(*split.rate) + " per unit of distance";
    out += fmt::format("  {}, the {} {} setting(s) left out: {}\n", split.axis, split.upward ? "highest" : "lowest",
                       split.held_out, outcome);
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
  const std::string r_squared = fmt::format(
      "R^2 = {:.3f} (the share of the measured times' variation the fitted means explain: 1 all of it, 0 no more "
      "than their average, below 0 less)",
      fit.r_squared);
  if (fit.degrees_of_freedom == 0) {
    out += fmt::format(
        "fit: exact ({} runs for {} parameters: no degrees of freedom, so no standard errors, correlations or "
        "residual spread); {} iterations\n  {}\n",
        fit.runs, fit.parameters.size(), fit.iterations, r_squared);
  } else {
    out += fmt::format(
        "fit: {} degrees of freedom; residual standard error {} (relative); unexplained spread {} "
        "(of log time, beyond the model's own randomness); {} iterations\n  {}\n",
        fit.degrees_of_freedom, percent(*fit.residual_standard_error), percent(fit.unexplained), fit.iterations,
        r_squared);
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
  range_text(fit.range, out);
}

// Where a prediction lies: its distance from the calibrated settings, and the axes beyond the
// range ("-" without a fit).
std::string distance_text(const analysis::PredictionInterval& i) {
  return i.placement ? fmt::format("{:.2f}", i.placement->distance) : std::string("-");
}
std::string beyond_text(const analysis::PredictionInterval& i) {
  if (!i.placement) return "-";
  if (!i.placement->extrapolated()) return "in range";
  std::string text = "beyond ";
  for (std::size_t a = 0; a < i.placement->beyond.size(); ++a) text += (a == 0 ? "" : ",") + i.placement->beyond[a];
  return text;
}

void predictions_text(const CalibrationReport& report, const Times& times, std::string& out) {
  out += fmt::format("predictions{}, {} intervals of one more run:\n",
                     report.calibration ? " at the fitted values" : "", level_text(report.level));
  out += fmt::format("  {:>6} {:>14}  {:>27}  {:>27} {:>12} {:>11}  {:>27} {:>8}  {}\n", "p", times.header("mean"),
                     "task randomness", "parameters", "(std. error)", "unexplained", "prediction interval", "distance",
                     "range");
  for (const PredictedPoint& point : report.predictions) {
    const analysis::PredictionInterval& i = point.interval;
    out += fmt::format("  {:>6} {:>14}  {:>27}  {:>27} {:>12} {:>11}  {:>27} {:>8}  {}\n", point.p, times(i.mean),
                       times.interval(i.task_low, i.task_high), times.interval(i.parameter_low, i.parameter_high),
                       fmt::format("({})", times(i.parameter_standard_error)), percent(i.unexplained),
                       times.interval(i.low, i.high), distance_text(i), beyond_text(i));
  }
}

void validation_rows(const ValidationPart& part, const Times& times, bool bounds, std::string& out) {
  std::size_t values_width = 0;
  for (const analysis::ValidatedRun& one : part.validated) {
    values_width = std::max(values_width, run_values(part.runs, one.run).size());
  }
  const std::string values_header = values_width == 0 ? std::string() : fmt::format("  {:<{}}", "values", values_width);
  const std::string header =
      fmt::format("  {:>6} {:>5}{} {:>14} {:>14} {:>8}  {:>27} {:>6} {:>8}  {:<14}{}", "line", "p", values_header,
                  times.header("measured"), times.header("predicted"), "error", "interval", "inside", "distance",
                  "range", bounds ? "  RatioLB  RatioUB" : "");
  out += header.substr(0, header.find_last_not_of(' ') + 1) + "\n";
  for (const analysis::ValidatedRun& one : part.validated) {
    std::string ratios;
    if (bounds) {
      ratios = one.lower_bound ? fmt::format("  {:>7.4f}  {:>7.4f}", *one.lower_bound / one.run.time,
                                             *one.upper_bound / one.run.time)
                               : "        -        -";
    }
    const std::string values =
        values_width == 0 ? std::string() : fmt::format("  {:<{}}", run_values(part.runs, one.run), values_width);
    std::string row =
        fmt::format("  {:>6} {:>5}{} {:>14} {:>14} {:>8}  {:>27} {:>6} {:>8}  {:<14}{}", one.run.location.line,
                    one.run.p, values, times(one.run.time), times(one.prediction.mean), signed_percent(one.error),
                    times.interval(one.prediction.low, one.prediction.high), one.inside ? "yes" : "no",
                    distance_text(one.prediction), beyond_text(one.prediction), ratios);
    out += row.substr(0, row.find_last_not_of(' ') + 1) + "\n";
  }
}

void validation_text(const CalibrationReport& report, const ValidationPart& part, const Times& times,
                     std::string& out) {
  const analysis::ValidationSummary& s = part.summary;
  out += fmt::format("validation against {} ({} runs){}, {} prediction intervals:\n", part.runs_file, s.runs,
                     report.calibration ? " at the fitted values" : "", level_text(report.level));
  const bool bounds = s.bounded > 0;
  validation_rows(part, times, bounds, out);
  out += fmt::format(
      "summary (Clement's form): {} runs, mean |error| {}, mean error {}, largest |error| {}; within "
      "10%: {}, within 20%: {}, within 40%: {}\n",
      s.runs, percent(s.mean_absolute_error), signed_percent(s.mean_signed_error), percent(s.largest_absolute_error),
      percent(s.within_10), percent(s.within_20), percent(s.within_40));
  out += fmt::format("coverage: {} of {} runs inside their {} prediction interval ({})", s.inside, s.runs,
                     level_text(report.level), percent(s.coverage));
  out += s.extrapolated == 0
             ? std::string("\n")
             : fmt::format("; beyond the calibrated range: {} of {} ({})\n", s.extrapolated_inside, s.extrapolated,
                           percent(static_cast<double>(s.extrapolated_inside) / static_cast<double>(s.extrapolated)));
  if (bounds) {
    out += fmt::format(
        "bounds (Mendes and Reed): mean RatioLB {:.4f}, mean RatioUB {:.4f} over {} runs (bound / "
        "measured: a lower bound should be <= 1, an upper bound >= 1)\n",
        *s.mean_ratio_lower, *s.mean_ratio_upper, s.bounded);
  }
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
  const TimeUnit unit = report.time_unit.value_or(*time_unit_named("us"));
  if (format == Format::Csv) return calibration_csv(report, unit);
  if (format == Format::Json) return calibration_json(report, unit);
  std::string out =
      fmt::format("program {} ({}) on machine {}\n", report.program_name, report.program_file, report.machine_name);
  const Times times{report_time_unit(report)};
  if (report.calibration) fit_text(*report.calibration, out);
  if (!report.predictions.empty()) predictions_text(report, times, out);
  if (report.validation) validation_text(report, *report.validation, times, out);
  return out;
}

}  // namespace report
