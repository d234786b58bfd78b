#include "report/calibration_data.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "report/text.hpp"

namespace report {

namespace {

using Json = nlohmann::ordered_json;

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json placement_json(const analysis::Placement& placement) {
  return {{"distance", placement.distance}, {"discrepancy", placement.discrepancy}, {"beyond", placement.beyond}};
}

Json range_json(const analysis::CalibratedRange& range) {
  Json axes = Json::array();
  for (std::size_t a = 0; a < range.axes.size(); ++a) {
    axes.push_back({{"name", range.axes[a]},
                    {"low", range.low[a]},
                    {"high", range.high[a]},
                    {"scale", range.logarithmic[a] ? "logarithmic" : "linear"}});
  }
  Json fixed = Json::object();
  for (const auto& [name, value] : range.fixed) fixed[name] = value;
  Json splits = Json::array();
  for (const analysis::RangeSplit& split : range.splits) {
    splits.push_back({{"axis", split.axis},
                      {"left_out", split.upward ? "highest" : "lowest"},
                      {"settings", split.held_out},
                      {"rate", optional_number(split.rate)},
                      {"skipped", split.skipped.empty() ? Json() : Json(split.skipped)}});
  }
  return {{"axes", axes}, {"fixed", fixed}, {"rate", optional_number(range.rate)}, {"splits", splits}};
}

Json interval_json(const analysis::PredictionInterval& i, const TimeUnit& unit) {
  return {{"mean", unit.of(i.mean)},
          {"task", {unit.of(i.task_low), unit.of(i.task_high)}},
          {"parameters",
           {{"standard_error", unit.of(i.parameter_standard_error)},
            {"interval", {unit.of(i.parameter_low), unit.of(i.parameter_high)}}}},
          {"unexplained", i.unexplained},
          {"placement", i.placement ? placement_json(*i.placement) : Json()},
          {"extrapolated", i.placement ? Json(i.placement->extrapolated()) : Json()},
          {"interval", {unit.of(i.low), unit.of(i.high)}}};
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
          {"range", range_json(fit.range)},
          {"termination", fit.termination}};
}

Json validation_json(const ValidationPart& part, const TimeUnit& unit) {
  const auto in_unit = [&](const std::optional<double>& value) {
    return value ? Json(unit.of(*value)) : Json(nullptr);
  };
  Json runs = Json::array();
  for (const analysis::ValidatedRun& one : part.validated) {
    Json values = Json::object();
    for (std::size_t v = 0; v < part.runs.variables.size(); ++v) values[part.runs.variables[v]] = one.run.values[v];
    Json row = {{"line", one.run.location.line},
                {"p", one.run.p},
                {"values", values},
                {"repetition", one.run.repetition == 0 ? Json(nullptr) : Json(one.run.repetition)},
                {"measured", unit.of(one.run.time)},
                {"predicted", unit.of(one.prediction.mean)},
                {"error", one.error},
                {"absolute_error", std::abs(one.error)},
                {"prediction", interval_json(one.prediction, unit)},
                {"inside", one.inside},
                {"lower_bound", in_unit(one.lower_bound)},
                {"upper_bound", in_unit(one.upper_bound)},
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
            {"extrapolated", s.extrapolated},
            {"extrapolated_inside", s.extrapolated_inside},
            {"bounded", s.bounded},
            {"mean_ratio_lb", optional_number(s.mean_ratio_lower)},
            {"mean_ratio_ub", optional_number(s.mean_ratio_upper)}}}};
}

// One CSV row: kind, line, p, the columns' values, then the prediction's fields.
std::string csv_row(const std::string& kind, const std::string& line, std::int64_t p,
                    const std::vector<std::string>& values, const std::optional<double>& measured,
                    const analysis::PredictionInterval& i, const std::optional<bool>& inside,
                    const std::optional<double>& ratio_lb, const std::optional<double>& ratio_ub,
                    const TimeUnit& unit) {
  std::string row = kind + "," + line + "," + std::to_string(p);
  for (const std::string& value : values) row += "," + value;
  const auto time = [&](const std::optional<double>& microseconds) {
    return csv_number(microseconds ? std::optional<double>(unit.of(*microseconds)) : std::nullopt);
  };
  std::string beyond;
  if (i.placement) {
    for (const std::string& axis : i.placement->beyond) beyond += (beyond.empty() ? "" : " ") + axis;
  }
  row += fmt::format(",{},{},{},{},{},{},{},{},{},{},{}\n", time(measured), time(i.mean),
                     measured ? csv_number((i.mean - *measured) / *measured) : "", time(i.low), time(i.high),
                     inside ? (*inside ? "1" : "0") : "", i.placement ? csv_number(i.placement->distance) : "",
                     i.placement ? (i.placement->extrapolated() ? "1" : "0") : "", csv_text(beyond),
                     csv_number(ratio_lb), csv_number(ratio_ub));
  return row;
}

}  // namespace

std::string calibration_csv(const CalibrationReport& report, const TimeUnit& unit) {
  const std::vector<std::string> columns =
      report.validation ? report.validation->runs.variables : std::vector<std::string>{};
  std::string out = "kind,line,p";
  for (const std::string& column : columns) out += "," + csv_text(column);
  const std::string& u = unit.name;
  out += fmt::format(
      ",measured_{0},predicted_{0},error,low_{0},high_{0},inside,distance,extrapolated,beyond,ratio_lb,"
      "ratio_ub\n",
      u);
  const std::vector<std::string> blank(columns.size());
  for (const PredictedPoint& point : report.predictions) {
    out += csv_row("prediction", "", point.p, blank, std::nullopt, point.interval, std::nullopt, std::nullopt,
                   std::nullopt, unit);
  }
  if (!report.validation) return out;
  for (const analysis::ValidatedRun& one : report.validation->validated) {
    std::vector<std::string> values;
    for (const double value : one.run.values) values.push_back(csv_number(value));
    const auto ratio = [&](const std::optional<double>& bound) {
      return bound ? std::optional<double>(*bound / one.run.time) : std::nullopt;
    };
    out += csv_row("validation", std::to_string(one.run.location.line), one.run.p, values, one.run.time, one.prediction,
                   one.inside, ratio(one.lower_bound), ratio(one.upper_bound), unit);
  }
  return out;
}

std::string calibration_json(const CalibrationReport& report, const TimeUnit& unit) {
  Json document;
  document["program"] = {{"name", report.program_name}, {"file", report.program_file}};
  document["machine"] = report.machine_name;
  document["level"] = report.level;
  document["time_unit"] = unit.name;
  document["calibration"] = report.calibration ? fit_json(*report.calibration) : Json(nullptr);
  // Also at the top, as issue 15 names it: {"parameters": [{"name", "value", "standard_error"}, …]}.
  document["parameters"] = report.calibration ? document["calibration"]["parameters"] : Json::array();
  Json predictions = Json::array();
  for (const PredictedPoint& point : report.predictions) {
    Json row = interval_json(point.interval, unit);
    row["p"] = point.p;
    predictions.push_back(std::move(row));
  }
  document["predictions"] = predictions;
  document["validation"] = report.validation ? validation_json(*report.validation, unit) : Json(nullptr);
  return document.dump(2) + "\n";
}

}  // namespace report
