#include "report/plot_sensitivity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/sensitivity_result.hpp"
#include "report/sensitivity.hpp"
#include "report/text.hpp"

namespace report {

namespace {

struct Point {
  double p, elasticity, lower, upper;
};

struct ElasticityLine {
  std::string label;
  LineStyle style;
  std::vector<Point> points;
};

std::vector<ElasticityLine> elasticity_lines(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::vector<ElasticityLine> lines;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    std::string key;
    for (const std::string& cell : report_text::key_cells(inputs, study.cases()[c])) key += cell + " ";
    for (const std::string& name : report_sensitivity::constant_names(study)) {
      ElasticityLine line;
      line.label = key + name;
      line.style = line_style(lines.size());
      bool read = false;
      for (const analysis::SensitivityRow& row : study.sensitivities()) {
        if (row.case_index != c) continue;
        for (const analysis::ConstantSensitivity& constant : row.constants) {
          if (constant.name != name || !constant.elasticity || constant.whole_steps) continue;
          line.points.push_back({static_cast<double>(row.p), *constant.elasticity, constant.lower, constant.upper});
          read = read || *constant.elasticity != 0.0;
        }
      }
      if (read) lines.push_back(std::move(line));
    }
  }
  return lines;
}

constexpr double kLeft = 90, kTop = 80, kWidth = 560, kHeight = 340;

// Round-number ticks over the elasticities, their intervals and 0.
Axis elasticity_axis(const std::vector<ElasticityLine>& lines) {
  double low = 0.0, high = 0.0;
  for (const ElasticityLine& line : lines) {
    for (const Point& point : line.points) {
      low = std::min(low, point.lower);
      high = std::max(high, point.upper);
    }
  }
  if (high - low < 1e-9) high = low + 1.0;
  const double margin = 0.05 * (high - low);
  const std::vector<double> ticks = nice_ticks(low - (low < 0.0 ? margin : 0.0), high + margin, 6, false);
  return Axis{std::min(low, ticks.front()), std::max(high + margin, ticks.back()), false, ticks};
}

std::string axes_svg(const PlotArea& area) {
  std::string svg = "<g class=\"axes\">\n";
  for (double tick : area.y_axis.ticks) svg += grid_line_across(area, tick) + y_tick_label(area, tick);
  for (double tick : area.x_axis.ticks) svg += grid_line_up(area, tick) + x_tick_label(area, tick);
  svg += area_frame(area);
  svg += x_axis_label(area, 40, fmt::format("processors p{}", area.x_axis.log ? " (log scale)" : ""));
  svg += y_axis_label(area, 52, "elasticity d ln T / d ln x");
  return svg + "</g>\n";
}

std::string line_svg(const PlotArea& area, const ElasticityLine& line) {
  std::string points;
  for (const Point& point : line.points)
    points += fmt::format("{:.2f},{:.2f} ", area.x(point.p), area.y(point.elasticity));
  if (!points.empty()) points.pop_back();
  std::string svg = "<g class=\"line\">";
  if (line.points.size() > 1) {
    svg += fmt::format("<polyline class=\"series\" points=\"{}\" fill=\"none\"{}><title>{}</title></polyline>\n",
                       points, stroke_attributes(line.style, 2), svg_escape(line.label));
  }
  double last_marker = -1e300;
  for (std::size_t i = 0; i < line.points.size(); ++i) {
    const Point& point = line.points[i];
    const double x = area.x(point.p);
    if (area.y(point.lower) - area.y(point.upper) > 2.0) {
      svg += fmt::format(
          "<line class=\"interval\" x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{0:.2f}\" y2=\"{2:.2f}\" "
          "stroke=\"{3}\" stroke-width=\"1\"/>\n",
          x, area.y(point.lower), area.y(point.upper), line.style.colour);
    }
    if (line.points.size() > 24 && i + 1 != line.points.size() && x - last_marker < area.width / 20) continue;
    svg += marker_svg(line.style.marker, x, area.y(point.elasticity), line.style.colour) + "\n";
    last_marker = x;
  }
  return svg + "</g>\n";
}

std::string legend_svg(const std::vector<ElasticityLine>& lines, double row_height) {
  std::string svg = "<g class=\"legend\">\n";
  const double font = std::min(13.0, row_height - 2.0);
  double y = kTop + 10;
  const double x = kLeft + kWidth + 30;
  for (const ElasticityLine& line : lines) {
    const std::string sample = legend_line(x, x + 30, y - 4, stroke_attributes(line.style, 2)) +
                               marker_svg(line.style.marker, x + 15, y - 4, line.style.colour);
    svg += legend_entry(font, sample, x + 38, y, line.label);
    y += row_height;
  }
  if (lines.size() > kDistinctLineStyles) {
    svg += fmt::format(
        "<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">styles repeat "
        "after {} lines</text>\n",
        x, y + 22, kDistinctLineStyles);
  }
  if (lines.empty()) {
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no constant with an elasticity other than 0</text>\n",
                       kLeft + 20, kTop + 30);
  }
  return svg + "</g>\n";
}

}  // namespace

std::string render_sensitivity_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                                    const ChartOptions& chart) {
  const std::vector<ElasticityLine> lines = elasticity_lines(study, inputs);
  const PlotArea area{kLeft, kTop, kWidth, kHeight, p_axis(study, chart), elasticity_axis(lines)};
  std::size_t longest = 24;
  for (const ElasticityLine& line : lines) longest = std::max(longest, display_length(line.label));
  const double width = kLeft + kWidth + 80 + 7.5 * static_cast<double>(longest);
  const double row_height = std::clamp(380.0 / static_cast<double>(lines.size() + 1), 11.0, 20.0);
  const double height = std::max(500.0, kTop + 10 + row_height * static_cast<double>(lines.size() + 3));
  const std::string title = chart_title(inputs, static_cast<std::size_t>((width - 40) / 9));
  const double title_size = static_cast<double>(display_length(title)) * 11 <= width - 40 ? 18 : 15;
  std::string svg = one_panel_opening(width, height, title, title_size,
                                      "what limits scaling: each constant's elasticity d ln T / d ln x against p",
                                      "clip-sensitivity", area);
  svg += axes_svg(area);
  svg += "<g class=\"curves\" clip-path=\"url(#clip-sensitivity)\">\n";
  svg += fmt::format("<line class=\"reference\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"{}/>\n",
                     area.left, area.y(0.0), area.left + area.width, area.y(0.0), kReferenceStroke);
  for (const ElasticityLine& line : lines) svg += line_svg(area, line);
  svg += "</g>\n";
  return svg + legend_svg(lines, row_height) + "</svg>\n";
}

}  // namespace report
