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

}  // namespace

std::string render_validation_plot(const CalibrationReport& report) {
  const ValidationPart& part = *report.validation;
  const std::vector<std::string> labels = group_labels(part);
  std::vector<std::string> groups;  // in order of first appearance
  double low = std::numeric_limits<double>::infinity(), high = 0.0;
  for (std::size_t r = 0; r < part.validated.size(); ++r) {
    const analysis::ValidatedRun& one = part.validated[r];
    if (std::find(groups.begin(), groups.end(), labels[r]) == groups.end()) groups.push_back(labels[r]);
    low = std::min({low, one.run.time, one.prediction.mean, one.prediction.low});
    high = std::max({high, one.run.time, one.prediction.mean, one.prediction.high});
  }
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
  constexpr double kLeft = 100, kTop = 80, kSide = 440;
  std::size_t longest = 8;
  for (const std::string& group : groups) longest = std::max(longest, display_length(group));
  auto x_of = [&](double v) { return kLeft + axis.fraction(v) * kSide; };
  auto y_of = [&](double v) { return kTop + kSide - axis.fraction(v) * kSide; };
  const double width = kLeft + kSide + 70 + 7.5 * static_cast<double>(longest);
  const double height = std::max(kTop + kSide + 70, kTop + 20.0 * static_cast<double>(groups.size() + 2));
  const std::string title =
      fmt::format("{} on {}: predicted against measured", report.program_name, report.machine_name);
  std::string svg = svg_opening(width, height, title);
  svg += fmt::format(
      "<defs><clipPath id=\"clip-validation\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" "
      "height=\"{:.2f}\"/></clipPath></defs>\n",
      kLeft, kTop, kSide, kSide);
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, height);
  svg += fmt::format(
      "<text class=\"title\" x=\"{:.0f}\" y=\"34\" text-anchor=\"middle\" font-size=\"16\" "
      "font-weight=\"bold\">{}</text>\n",
      width / 2, svg_escape(title));
  svg += fmt::format(
      "<text class=\"subtitle\" x=\"{:.0f}\" y=\"56\" text-anchor=\"middle\" fill=\"#444444\">{}: {} "
      "runs, mean |error| {:.1f}%, {} of {} inside their {:g}% interval</text>\n",
      width / 2, svg_escape(part.runs_file), part.summary.runs, 100.0 * part.summary.mean_absolute_error,
      part.summary.inside, part.summary.runs, 100.0 * report.level);
  svg += "<g class=\"axes\">\n";
  for (double tick : axis.ticks) {
    svg += fmt::format("<line x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{2:.2f}\" y2=\"{1:.2f}\" stroke=\"#e0e0e0\"/>\n",
                       kLeft, y_of(tick), kLeft + kSide);
    svg += fmt::format("<line x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{0:.2f}\" y2=\"{2:.2f}\" stroke=\"#e0e0e0\"/>\n",
                       x_of(tick), kTop, kTop + kSide);
    svg += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       kLeft - 8, y_of(tick) + 4, tick_label(tick));
    svg += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                       x_of(tick), kTop + kSide + 18, tick_label(tick));
  }
  svg += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" "
      "stroke=\"#333333\"/>\n",
      kLeft, kTop, kSide, kSide);
  const std::string scale = axis.log ? " (log scale)" : "";
  svg += fmt::format(
      "<text class=\"axis-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">measured time{}</text>\n",
      kLeft + kSide / 2, kTop + kSide + 42, scale);
  svg += fmt::format(
      "<text class=\"axis-label\" x=\"{0:.2f}\" y=\"{1:.2f}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 {0:.2f} {1:.2f})\">predicted mean and {2:g}% interval{3}</text>\n",
      kLeft - 62, kTop + kSide / 2, 100.0 * report.level, scale);
  svg += "</g>\n<g class=\"points\" clip-path=\"url(#clip-validation)\">\n";
  // The diagonal and the ±20% lines, drawn as polylines over many points so that they are
  // straight on either scale.
  for (const double factor : {1.0, 0.8, 1.2}) {
    std::string points;
    for (int i = 0; i <= 64; ++i) {
      const double v =
          axis.log ? axis.low * std::pow(axis.high / axis.low, i / 64.0) : axis.low + (axis.high - axis.low) * i / 64.0;
      points += fmt::format("{:.2f},{:.2f} ", x_of(v), y_of(v * factor));
    }
    points.pop_back();
    svg +=
        fmt::format("<polyline class=\"{}\" points=\"{}\" fill=\"none\" stroke=\"#888888\" stroke-width=\"1.2\"{}/>\n",
                    factor == 1.0 ? "diagonal" : "band", points, factor == 1.0 ? "" : " stroke-dasharray=\"4,4\"");
  }
  for (std::size_t r = 0; r < part.validated.size(); ++r) {
    const analysis::ValidatedRun& one = part.validated[r];
    const auto index = static_cast<std::size_t>(std::find(groups.begin(), groups.end(), labels[r]) - groups.begin());
    const LineStyle style = line_style(index);
    const double x = x_of(one.run.time);
    svg += fmt::format(
        "<g class=\"run\"><title>line {}: p = {}, measured {:.6g}, predicted {:.6g} [{:.6g}, {:.6g}]{}"
        "</title><line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" "
        "stroke-width=\"1.5\" opacity=\"0.6\"/>{}</g>\n",
        one.run.location.line, one.run.p, one.run.time, one.prediction.mean, one.prediction.low, one.prediction.high,
        one.inside ? "" : ", outside its interval", x, y_of(one.prediction.low), x, y_of(one.prediction.high),
        style.colour, marker_svg(style.marker, x, y_of(one.prediction.mean), style.colour));
  }
  svg += "</g>\n<g class=\"legend\">\n";
  double y = kTop + 10;
  const double x = kLeft + kSide + 30;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const LineStyle style = line_style(i);
    svg += fmt::format("<g class=\"legend-entry\" font-size=\"13\">{}<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n",
                       marker_svg(style.marker, x + 8, y - 4, style.colour), x + 22, y, svg_escape(groups[i]));
    y += 20;
  }
  svg += fmt::format(
      "<g class=\"legend-entry\" font-size=\"13\"><line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" "
      "y2=\"{:.0f}\" stroke=\"#888888\" stroke-dasharray=\"4,4\"/><text x=\"{:.0f}\" y=\"{:.0f}\">±20%</text>"
      "</g>\n",
      x, y - 4, x + 16, y - 4, x + 22, y);
  return svg + "</g>\n</svg>\n";
}

}  // namespace report
