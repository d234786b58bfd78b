#include "report/plot_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/plot.hpp"

namespace report {

namespace {

// The group of a run in the legend: its p when the runs have several, else the values of the
// columns that vary between them (a sweep of sizes at one p), else its p.
std::vector<std::string> group_labels(const ValidationPart& part) {
  std::vector<std::int64_t> ps;
  for (const analysis::ValidatedRun& one : part.validated) {
    if (std::find(ps.begin(), ps.end(), one.run.p) == ps.end()) ps.push_back(one.run.p);
  }
  std::vector<bool> varies(part.runs.variables.size(), false);
  for (std::size_t v = 0; v < varies.size(); ++v) {
    for (const analysis::ValidatedRun& one : part.validated) {
      varies[v] = varies[v] || one.run.values[v] != part.validated.front().run.values[v];
    }
  }
  const bool by_values = ps.size() == 1 && std::find(varies.begin(), varies.end(), true) != varies.end();
  std::vector<std::string> labels;
  for (const analysis::ValidatedRun& one : part.validated) {
    std::string label = fmt::format("p = {}", one.run.p);
    if (by_values) {
      label.clear();
      for (std::size_t v = 0; v < varies.size(); ++v) {
        if (varies[v])
          label += fmt::format("{}{} = {:g}", label.empty() ? "" : ", ", part.runs.variables[v], one.run.values[v]);
      }
    }
    labels.push_back(std::move(label));
  }
  return labels;
}

// The groups of the legend, in the order of their first run.
std::vector<std::string> groups_in_order(const std::vector<std::string>& labels) {
  std::vector<std::string> groups;
  for (const std::string& label : labels) {
    if (std::find(groups.begin(), groups.end(), label) == groups.end()) groups.push_back(label);
  }
  return groups;
}

// The lowest and the highest time drawn (in `unit`): measured, predicted or an end of an interval.
std::pair<double, double> time_range(const ValidationPart& part, const TimeUnit& unit) {
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (const analysis::ValidatedRun& one : part.validated) {
    low = std::min({low, one.run.time, one.prediction.mean, one.prediction.low});
    high = std::max({high, one.run.time, one.prediction.mean, one.prediction.high});
  }
  return {unit.of(low), unit.of(high)};
}

// About the width of a tick label in pixels (12-pixel digits are about 7 wide).
double label_width(const std::string& text) { return 7.5 * static_cast<double>(display_length(text)); }

// Every k-th tick, k the least for which the x axis's labels, each as wide as the widest, fit
// along the side with a gap between neighbours.
std::vector<double> thinned(const std::vector<double>& ticks, double side) {
  double widest = 0.0;
  for (const double tick : ticks) widest = std::max(widest, label_width(tick_label(tick)));
  std::size_t every = 1;
  while (static_cast<double>((ticks.size() + every - 1) / every) * (widest + 12.0) > side) ++every;
  std::vector<double> kept;
  for (std::size_t i = 0; i < ticks.size(); i += every) kept.push_back(ticks[i]);
  return kept;
}

// Both axes' scale: log2 from a power of two to a power of two when the times span more than a
// factor of 8, else linear with a margin.
Axis time_axis(double low, double high) {
  Axis axis;
  if (high > 8.0 * low && low > 0.0) {
    axis.log = true;
    axis.low = std::exp2(std::floor(std::log2(low)));
    axis.high = std::exp2(std::ceil(std::log2(high)));
    axis.ticks = log2_ticks(axis.low, axis.high, 10);
  } else {
    const double margin = 0.05 * (high - low) + 1e-9 * high;
    axis.ticks = nice_ticks(std::max(0.0, low - margin), high + margin, 7, false);
    axis.low = std::min(std::max(0.0, low - margin), axis.ticks.front());
    axis.high = std::max(high + margin, axis.ticks.back());
  }
  return axis;
}

// The square panel's place in the document (its left edge leaves room for the y tick labels and
// the axis label left of them); the legend is right of it.
constexpr double kValidationTop = 80, kValidationSide = 440;

// Left of the panel: the widest y tick label, a gap, the rotated axis label (about 16 pixels
// high) and a margin.
double label_room(const Axis& axis) {
  double widest = 0.0;
  for (const double tick : axis.ticks) widest = std::max(widest, label_width(tick_label(tick)));
  return 8.0 + widest + 14.0;
}

std::string validation_axes(const PlotArea& area, double level, const TimeUnit& unit) {
  std::string svg = "<g class=\"axes\">\n";
  for (double tick : area.y_axis.ticks) svg += grid_line_across(area, tick) + y_tick_label(area, tick);
  for (double tick : area.x_axis.ticks) svg += grid_line_up(area, tick) + x_tick_label(area, tick);
  svg += area_frame(area);
  const std::string scale = area.x_axis.log ? ", log scale" : "";
  svg += x_axis_label(area, 42, fmt::format("measured time [{}{}]", unit.symbol, scale));
  svg += y_axis_label(area, label_room(area.y_axis),
                      fmt::format("predicted mean and {:g}% interval [{}{}]", 100.0 * level, unit.symbol, scale));
  return svg + "</g>\n";
}

// The diagonal and the ±20% lines, drawn as polylines over many points so that they are
// straight on either scale.
std::string error_lines(const PlotArea& area) {
  const Axis& axis = area.x_axis;
  std::string svg;
  for (const double factor : {1.0, 0.8, 1.2}) {
    std::string points;
    for (int i = 0; i <= 64; ++i) {
      const double v =
          axis.log ? axis.low * std::pow(axis.high / axis.low, i / 64.0) : axis.low + (axis.high - axis.low) * i / 64.0;
      points += fmt::format("{:.2f},{:.2f} ", area.x(v), area.y(v * factor));
    }
    points.pop_back();
    svg +=
        fmt::format("<polyline class=\"{}\" points=\"{}\" fill=\"none\" stroke=\"#888888\" stroke-width=\"1.2\"{}/>\n",
                    factor == 1.0 ? "diagonal" : "band", points, factor == 1.0 ? "" : " stroke-dasharray=\"4,4\"");
  }
  return svg;
}

// A run: its prediction interval as a bar at its measured time, its predicted mean as a marker.
std::string run_svg(const PlotArea& area, const analysis::ValidatedRun& one, const LineStyle& style,
                    const TimeUnit& unit) {
  const double x = area.x(unit.of(one.run.time));
  return fmt::format(
      "<g class=\"run\"><title>line {}: p = {}, measured {:.6g}, predicted {:.6g} [{:.6g}, {:.6g}] {}{}"
      "</title><line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" "
      "stroke-width=\"1.5\" opacity=\"0.6\"/>{}</g>\n",
      one.run.location.line, one.run.p, unit.of(one.run.time), unit.of(one.prediction.mean),
      unit.of(one.prediction.low), unit.of(one.prediction.high), unit.symbol,
      one.inside ? "" : ", outside its interval", x, area.y(unit.of(one.prediction.low)), x,
      area.y(unit.of(one.prediction.high)), style.colour,
      marker_svg(style.marker, x, area.y(unit.of(one.prediction.mean)), style.colour));
}

std::string validation_legend(const std::vector<std::string>& groups, double left) {
  std::string svg = "<g class=\"legend\">\n";
  double y = kValidationTop + 10;
  const double x = left + kValidationSide + 30;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const LineStyle style = line_style(i);
    svg += legend_entry(13, marker_svg(style.marker, x + 8, y - 4, style.colour), x + 22, y, groups[i]);
    y += 20;
  }
  svg += legend_entry(13, legend_line(x, x + 16, y - 4, " stroke=\"#888888\" stroke-dasharray=\"4,4\""), x + 22, y,
                      "±20%");
  return svg + "</g>\n";
}

}  // namespace

std::string render_validation_plot(const CalibrationReport& report) {
  const ValidationPart& part = *report.validation;
  const std::vector<std::string> labels = group_labels(part);
  const std::vector<std::string> groups = groups_in_order(labels);
  const TimeUnit unit = report_time_unit(report);
  const auto [low, high] = time_range(part, unit);
  const Axis axis = time_axis(low, high);
  Axis x_axis = axis;
  x_axis.ticks = thinned(axis.ticks, kValidationSide);
  const double left = std::max(100.0, label_room(axis) + 24.0);
  const PlotArea area{left, kValidationTop, kValidationSide, kValidationSide, x_axis, axis};
  std::size_t longest = 8;
  for (const std::string& group : groups) longest = std::max(longest, display_length(group));
  const double width = left + kValidationSide + 70 + 7.5 * static_cast<double>(longest);
  const double height =
      std::max(kValidationTop + kValidationSide + 70, kValidationTop + 20.0 * static_cast<double>(groups.size() + 2));
  const std::string title =
      fmt::format("{} on {}: predicted against measured", report.program_name, report.machine_name);
  const std::string subtitle = fmt::format("{}: {} runs, mean |error| {:.1f}%, {} of {} inside their {:g}% interval",
                                           part.runs_file, part.summary.runs, 100.0 * part.summary.mean_absolute_error,
                                           part.summary.inside, part.summary.runs, 100.0 * report.level);
  std::string svg = one_panel_opening(width, height, title, 16, subtitle, "clip-validation", area);
  svg += validation_axes(area, report.level, unit);
  svg += "<g class=\"points\" clip-path=\"url(#clip-validation)\">\n" + error_lines(area);
  for (std::size_t r = 0; r < part.validated.size(); ++r) {
    const auto index = static_cast<std::size_t>(std::find(groups.begin(), groups.end(), labels[r]) - groups.begin());
    svg += run_svg(area, part.validated[r], line_style(index), unit);
  }
  return svg + "</g>\n" + validation_legend(groups, left) + "</svg>\n";
}

}  // namespace report
