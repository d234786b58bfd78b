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

struct ElasticityPoint {
  double p, elasticity, lower, upper;
};

struct ElasticityLine {
  std::string label;
  LineStyle style;
  std::vector<ElasticityPoint> points;
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

// Round-number ticks over the elasticities, their intervals and 0.
Axis elasticity_axis(const std::vector<ElasticityLine>& lines) {
  double low = 0.0, high = 0.0;
  for (const ElasticityLine& line : lines) {
    for (const ElasticityPoint& point : line.points) {
      low = std::min(low, point.lower);
      high = std::max(high, point.upper);
    }
  }
  if (high - low < 1e-9) high = low + 1.0;
  const double margin = 0.05 * (high - low);
  const std::vector<double> ticks = nice_ticks(low - (low < 0.0 ? margin : 0.0), high + margin, 6, false);
  return Axis{std::min(low, ticks.front()), std::max(high + margin, ticks.back()), false, ticks};
}

// A line's whiskers over the intervals wider than a line, then the line and its markers.
std::string line_svg(const PlotArea& area, const ElasticityLine& line) {
  std::string svg = "<g class=\"line\">";
  std::vector<std::pair<double, double>> points;
  for (const ElasticityPoint& point : line.points) {
    points.emplace_back(point.p, point.elasticity);
    if (area.y(point.lower) - area.y(point.upper) <= 2.0) continue;
    svg += fmt::format(
        "<line class=\"interval\" x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{0:.2f}\" y2=\"{2:.2f}\" stroke=\"{3}\" "
        "stroke-width=\"1\"/>\n",
        area.x(point.p), area.y(point.lower), area.y(point.upper), line.style.colour);
  }
  return svg + series_svg(area, line.style, line.label, points) + "</g>\n";
}

// A row per line right of the panel; a note where the styles repeat, and in the panel why it
// is empty.
std::string legend_svg(const std::vector<ElasticityLine>& lines, double row_height) {
  std::string svg = "<g class=\"legend\">\n";
  double y = kOnePanelTop + 10;
  const double x = kOnePanelLeft + kOnePanelWidth + 30;
  std::vector<std::pair<LineStyle, std::string>> series;
  for (const ElasticityLine& line : lines) series.emplace_back(line.style, line.label);
  svg += series_legend_rows(series, x, &y, row_height);
  svg += repeated_styles_note(lines.size(), x, y + 22);
  if (lines.empty()) {
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no constant with an elasticity other than 0</text>\n",
                       kOnePanelLeft + 20, kOnePanelTop + 30);
  }
  return svg + "</g>\n";
}

}  // namespace

std::string render_sensitivity_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                                    const ChartOptions& chart) {
  const std::vector<ElasticityLine> lines = elasticity_lines(study, inputs);
  const PlotArea area{kOnePanelLeft,   kOnePanelTop,         kOnePanelWidth,
                      kOnePanelHeight, p_axis(study, chart), elasticity_axis(lines)};
  std::size_t longest = 24;
  for (const ElasticityLine& line : lines) longest = std::max(longest, display_length(line.label));
  const double width = kOnePanelLeft + kOnePanelWidth + 80 + 7.5 * static_cast<double>(longest);
  const double row_height = std::clamp(380.0 / static_cast<double>(lines.size() + 1), 11.0, 20.0);
  const double height = std::max(500.0, kOnePanelTop + 10 + row_height * static_cast<double>(lines.size() + 3));
  const std::string title = chart_title(inputs, static_cast<std::size_t>((width - 40) / 9));
  const double title_size = static_cast<double>(display_length(title)) * 11 <= width - 40 ? 18 : 15;
  std::string svg = one_panel_opening(width, height, title, title_size,
                                      "what limits scaling: each constant's elasticity d ln T / d ln x against p",
                                      "clip-sensitivity", area);
  svg += p_axes_svg(area, "elasticity d ln T / d ln x");
  svg += "<g class=\"curves\" clip-path=\"url(#clip-sensitivity)\">\n";
  svg += fmt::format("<line class=\"reference\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"{}/>\n",
                     area.left, area.y(0.0), area.left + area.width, area.y(0.0), kReferenceStroke);
  for (const ElasticityLine& line : lines) svg += line_svg(area, line);
  svg += "</g>\n";
  return svg + legend_svg(lines, row_height) + "</svg>\n";
}

}  // namespace report
