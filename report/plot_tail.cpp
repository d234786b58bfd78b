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
  const double width = kOnePanelLeft + kOnePanelWidth + 40 + 40 + 7.5 * static_cast<double>(longest);
  // The legend's rows closer together when there are many lines, the chart taller when even
  // that is not enough.
  const double row_height = std::clamp(380.0 / static_cast<double>(lines.size() + 1), 11.0, 20.0);
  const double total_height = std::max(500.0, kOnePanelTop + 10 + row_height * static_cast<double>(lines.size() + 3));
  return {width, total_height, row_height};
}

std::string tail_line_svg(const PlotArea& area, const TailLine& line) {
  return "<g class=\"line\">" + series_svg(area, line.style, line.label, line.points) + "</g>\n";
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
  double y = kOnePanelTop + 10;
  const double x = kOnePanelLeft + kOnePanelWidth + 30;
  std::vector<std::pair<LineStyle, std::string>> series;
  for (const TailLine& line : lines) series.emplace_back(line.style, line.label);
  svg += series_legend_rows(series, x, &y, row_height);
  svg += legend_entry(font, legend_line(x, x + 30, y - 4, kReferenceStroke), x + 38, y, "p95 = mean");
  svg += repeated_styles_note(lines.size(), x, y + 22);
  if (lines.empty()) {
    svg +=
        fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no method of this run gives quantiles (approx and mc do)</text>\n",
                    kOnePanelLeft + 20, kOnePanelTop + 30);
  }
  return svg + "</g>\n";
}

}  // namespace

std::string render_tail_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                             const ChartOptions& chart) {
  const std::vector<TailLine> lines = tail_lines(study, inputs);
  const PlotArea area{kOnePanelLeft,   kOnePanelTop,         kOnePanelWidth,
                      kOnePanelHeight, p_axis(study, chart), ratio_axis(lines)};
  const TailLayout layout = tail_layout(lines);
  // About 11 px a character of the 18 px bold title, 9 px at 15 px: a long title is set
  // smaller before it is shortened.
  const std::string title = chart_title(inputs, static_cast<std::size_t>((layout.width - 40) / 9));
  const double title_size = static_cast<double>(display_length(title)) * 11 <= layout.width - 40 ? 18 : 15;
  std::string svg = one_panel_opening(layout.width, layout.height, title, title_size,
                                      "runtime tail: the 95% quantile over the mean, against p", "clip-tail", area);
  svg += p_axes_svg(area, "95% quantile / mean runtime");
  svg += tail_curves(area, lines);
  return svg + tail_legend(lines, layout.row_height) + "</svg>\n";
}

}  // namespace report
