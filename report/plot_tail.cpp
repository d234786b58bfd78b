#include "report/plot_tail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/plot.hpp"
#include "report/text.hpp"
#include "solvers/solver.hpp"

namespace report {

namespace {

struct TailLine {
  std::string label;
  LineStyle style;
  std::vector<std::pair<double, double>> points;  // (p, p95 / mean)
};

std::vector<TailLine> tail_lines(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const std::vector<double>& levels = inputs.request.solver_options.quantiles;
  const auto at = std::find(levels.begin(), levels.end(), kTailLevel);
  std::vector<TailLine> lines;
  if (at == levels.end()) return lines;
  const auto k = static_cast<std::size_t>(at - levels.begin());
  std::size_t groups = 0;
  for (const analysis::CaseLabel& label : study.cases()) groups += label.phase.empty();
  const std::size_t kinds = study.methods().size();
  std::size_t shown_case = 0, shown = 0;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    std::string key;
    for (const std::string& cell : report_text::key_cells(inputs, study.cases()[c])) key += cell + " ";
    for (std::size_t m = 0; m < kinds; ++m) {
      const solvers::Method method = study.methods()[m];
      if (!solvers::info(method).gives_quantiles) continue;
      TailLine line;
      line.label = key + std::string{solvers::to_string(method)};
      // The style of the same (case, method) in the speedup chart (a colour per method, or per
      // case with a dash and marker per method) while that numbering fits; else numbered in
      // order, so that no two lines share a style below kDistinctLineStyles.
      line.style = line_style(groups <= kLineColours ? style_index(shown_case, groups, m, kinds) : shown);
      for (int p : study.processors()) {
        const solvers::Result& result = study.at(c, p, method).result;
        if (!result.solved() || result.quantiles.size() != levels.size() || !(result.mean > 0.0)) continue;
        line.points.emplace_back(p, result.quantiles[k].estimate / result.mean);
      }
      lines.push_back(std::move(line));
      ++shown;
    }
    ++shown_case;
  }
  return lines;
}

// The panel's place in the document; the legend is right of it.
constexpr double kLeft = 90, kTop = 80, kWidth = 560, kHeight = 340;

// The ratio axis: round-number ticks over the lines' ratios and 1.
Axis ratio_axis(const std::vector<TailLine>& lines) {
  double y_high = 1.0;
  double y_low = 1.0;
  for (const TailLine& line : lines) {
    for (const auto& [p, ratio] : line.points) {
      y_high = std::max(y_high, ratio);
      y_low = std::min(y_low, ratio);
    }
  }
  // The reference at 1 is always in view; a little headroom above the highest line.
  y_low = std::max(0.0, y_low - 0.05 * (y_high - y_low + 0.1));
  y_high += 0.05 * (y_high - y_low + 0.1);
  const std::vector<double> y_ticks = nice_ticks(y_low, y_high, 6, false);
  return Axis{std::min(y_low, y_ticks.front()), std::max(y_high, y_ticks.back()), false, y_ticks};
}

// The document's size, and the height of a row of the legend.
struct TailLayout {
  double width, height, row_height;
};

TailLayout tail_layout(const std::vector<TailLine>& lines) {
  std::size_t longest = 24;
  for (const TailLine& line : lines) longest = std::max(longest, display_length(line.label));
  const double width = kLeft + kWidth + 40 + 40 + 7.5 * static_cast<double>(longest);
  // The legend's rows closer together when there are many lines, the chart taller when even
  // that is not enough.
  const double row_height = std::clamp(380.0 / static_cast<double>(lines.size() + 1), 11.0, 20.0);
  const double total_height = std::max(500.0, kTop + 10 + row_height * static_cast<double>(lines.size() + 3));
  return {width, total_height, row_height};
}

// Axes, grid and ticks.
std::string tail_axes(const PlotArea& area) {
  std::string svg = "<g class=\"axes\">\n";
  for (double tick : area.y_axis.ticks) svg += grid_line_across(area, tick) + y_tick_label(area, tick);
  for (double tick : area.x_axis.ticks) svg += grid_line_up(area, tick) + x_tick_label(area, tick);
  svg += area_frame(area);
  svg += x_axis_label(area, 40, fmt::format("processors p{}", area.x_axis.log ? " (log scale)" : ""));
  svg += y_axis_label(area, 52, "95% quantile / mean runtime");
  return svg + "</g>\n";
}

std::string tail_line_svg(const PlotArea& area, const TailLine& line) {
  std::string points;
  for (const auto& [p, ratio] : line.points) points += fmt::format("{:.2f},{:.2f} ", area.x(p), area.y(ratio));
  if (!points.empty()) points.pop_back();
  std::string svg = "<g class=\"line\">";
  if (line.points.size() > 1) {
    svg += fmt::format("<polyline class=\"series\" points=\"{}\" fill=\"none\"{}><title>{}</title></polyline>\n",
                       points, stroke_attributes(line.style, 2), svg_escape(line.label));
  }
  // A marker on every point up to 24, else on points a twentieth of the width apart (and the
  // last), as the speedup chart's.
  double last_marker = -1e300;
  for (std::size_t i = 0; i < line.points.size(); ++i) {
    const double x = area.x(line.points[i].first);
    if (line.points.size() > 24 && i + 1 != line.points.size() && x - last_marker < area.width / 20) continue;
    svg += marker_svg(line.style.marker, x, area.y(line.points[i].second), line.style.colour) + "\n";
    last_marker = x;
  }
  return svg + "</g>\n";
}

// The reference at 1, then the lines, clipped to the panel.
std::string tail_curves(const PlotArea& area, const std::vector<TailLine>& lines) {
  std::string svg = "<g class=\"curves\" clip-path=\"url(#clip-tail)\">\n";
  svg += fmt::format("<line class=\"reference\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\"{}/>\n",
                     area.left, area.y(1.0), area.left + area.width, area.y(1.0), kReferenceStroke);
  for (const TailLine& line : lines) svg += tail_line_svg(area, line);
  return svg + "</g>\n";
}

// The legend, right of the panel: a row per line, then the reference; a note where the styles
// repeat, and in the panel why it is empty.
std::string tail_legend(const std::vector<TailLine>& lines, double row_height) {
  std::string svg = "<g class=\"legend\">\n";
  const double font = std::min(13.0, row_height - 2.0);
  double y = kTop + 10;
  const double x = kLeft + kWidth + 30;
  for (const TailLine& line : lines) {
    const std::string sample = legend_line(x, x + 30, y - 4, stroke_attributes(line.style, 2)) +
                               marker_svg(line.style.marker, x + 15, y - 4, line.style.colour);
    svg += legend_entry(font, sample, x + 38, y, line.label);
    y += row_height;
  }
  svg += legend_entry(font, legend_line(x, x + 30, y - 4, kReferenceStroke), x + 38, y, "p95 = mean");
  if (lines.size() > kDistinctLineStyles) {
    svg += fmt::format(
        "<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">styles repeat "
        "after {} lines</text>\n",
        x, y + 22, kDistinctLineStyles);
  }
  if (lines.empty()) {
    svg +=
        fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no method of this run gives quantiles (approx and mc do)</text>\n",
                    kLeft + 20, kTop + 30);
  }
  return svg + "</g>\n";
}

}  // namespace

std::string render_tail_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                             const ChartOptions& chart) {
  const std::vector<TailLine> lines = tail_lines(study, inputs);
  const PlotArea area{kLeft, kTop, kWidth, kHeight, p_axis(study, chart), ratio_axis(lines)};
  const TailLayout layout = tail_layout(lines);
  // About 11 px a character of the 18 px bold title, 9 px at 15 px: a long title is set
  // smaller before it is shortened.
  const std::string title = chart_title(inputs, static_cast<std::size_t>((layout.width - 40) / 9));
  const double title_size = static_cast<double>(display_length(title)) * 11 <= layout.width - 40 ? 18 : 15;
  std::string svg = one_panel_opening(layout.width, layout.height, title, title_size,
                                      "runtime tail: the 95% quantile over the mean, against p", "clip-tail", area);
  svg += tail_axes(area);
  svg += tail_curves(area, lines);
  return svg + tail_legend(lines, layout.row_height) + "</svg>\n";
}

}  // namespace report
