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

}  // namespace

std::string render_tail_plot(const analysis::StudyResult& study, const ReportInputs& inputs,
                             const ChartOptions& chart) {
  const std::vector<TailLine> lines = tail_lines(study, inputs);
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
  Axis x_axis;
  const std::vector<double> ps(study.processors().begin(), study.processors().end());
  const double p_low = ps.front();
  const double p_high = ps.back();
  if (chart.log_axes || is_log2_automatic(ps)) {
    // The p range exactly (a single p in the middle of an octave each side).
    x_axis.log = true;
    x_axis.low = p_high > p_low ? p_low : p_low / 2;
    x_axis.high = p_high > p_low ? p_high : p_high * 2;
    x_axis.ticks = log2_ticks(x_axis.low, x_axis.high, 10);
  } else {
    const std::vector<double> ticks = nice_ticks(p_low, std::max(p_high, p_low + 1), 8, true);
    x_axis.low = std::min(p_low, ticks.front());
    x_axis.high = std::max(std::max(p_high, p_low + 1), ticks.back());
    x_axis.ticks = ticks;
  }
  const Axis y_axis{std::min(y_low, y_ticks.front()), std::max(y_high, y_ticks.back()), false, y_ticks};
  constexpr double kLeft = 90, kTop = 80, kWidth = 560, kHeight = 340;
  auto x_of = [&](double p) { return kLeft + x_axis.fraction(p) * kWidth; };
  auto y_of = [&](double v) { return kTop + kHeight - y_axis.fraction(v) * kHeight; };

  std::size_t longest = 24;
  for (const TailLine& line : lines) longest = std::max(longest, display_length(line.label));
  const double width = kLeft + kWidth + 40 + 40 + 7.5 * static_cast<double>(longest);
  // The legend's rows closer together when there are many lines, the chart taller when even
  // that is not enough.
  const double row_height = std::clamp(380.0 / static_cast<double>(lines.size() + 1), 11.0, 20.0);
  const double total_height = std::max(500.0, kTop + 10 + row_height * static_cast<double>(lines.size() + 3));
  // About 11 px a character of the 18 px bold title, 9 px at 15 px: a long title is set
  // smaller before it is shortened.
  const std::string title = chart_title(inputs, static_cast<std::size_t>((width - 40) / 9));
  const double title_size = static_cast<double>(display_length(title)) * 11 <= width - 40 ? 18 : 15;
  std::string svg = svg_opening(width, total_height, title);
  svg += fmt::format(
      "<defs><clipPath id=\"clip-tail\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"/>"
      "</clipPath></defs>\n",
      kLeft, kTop, kWidth, kHeight);
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, total_height);
  svg += fmt::format(
      "<text class=\"title\" x=\"{:.0f}\" y=\"34\" text-anchor=\"middle\" font-size=\"{:g}\" "
      "font-weight=\"bold\">{}</text>\n",
      width / 2, title_size, svg_escape(title));
  svg += fmt::format(
      "<text class=\"subtitle\" x=\"{:.0f}\" y=\"56\" text-anchor=\"middle\" fill=\"#444444\">"
      "runtime tail: the 95% quantile over the mean, against p</text>\n",
      width / 2);
  // Axes, grid and ticks.
  svg += "<g class=\"axes\">\n";
  for (double tick : y_ticks) {
    svg += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\"/>\n", kLeft,
                       y_of(tick), kLeft + kWidth, y_of(tick));
    svg += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       kLeft - 8, y_of(tick) + 4, tick_label(tick));
  }
  for (double tick : x_axis.ticks) {
    svg += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\"/>\n",
                       x_of(tick), kTop, x_of(tick), kTop + kHeight);
    svg += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                       x_of(tick), kTop + kHeight + 18, tick_label(tick));
  }
  svg += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" "
      "stroke=\"#333333\"/>\n",
      kLeft, kTop, kWidth, kHeight);
  svg +=
      fmt::format("<text class=\"axis-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">processors p{}</text>\n",
                  kLeft + kWidth / 2, kTop + kHeight + 40, x_axis.log ? " (log scale)" : "");
  svg += fmt::format(
      "<text class=\"axis-label\" x=\"{0:.2f}\" y=\"{1:.2f}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 {0:.2f} {1:.2f})\">95% quantile / mean runtime</text>\n",
      kLeft - 52, kTop + kHeight / 2);
  svg += "</g>\n<g class=\"curves\" clip-path=\"url(#clip-tail)\">\n";
  svg += fmt::format(
      "<line class=\"reference\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" "
      "stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>\n",
      kLeft, y_of(1.0), kLeft + kWidth, y_of(1.0));
  for (const TailLine& line : lines) {
    std::string points;
    for (const auto& [p, ratio] : line.points) points += fmt::format("{:.2f},{:.2f} ", x_of(p), y_of(ratio));
    if (!points.empty()) points.pop_back();
    svg += "<g class=\"line\">";
    if (line.points.size() > 1) {
      svg += fmt::format("<polyline class=\"series\" points=\"{}\" fill=\"none\"{}><title>{}</title></polyline>\n",
                         points, stroke_attributes(line.style, 2), svg_escape(line.label));
    }
    // A marker on every point up to 24, else on points a twentieth of the width apart (and the
    // last), as the speedup chart's.
    double last_marker = -1e300;
    for (std::size_t i = 0; i < line.points.size(); ++i) {
      const double x = x_of(line.points[i].first);
      if (line.points.size() > 24 && i + 1 != line.points.size() && x - last_marker < kWidth / 20) continue;
      svg += marker_svg(line.style.marker, x, y_of(line.points[i].second), line.style.colour) + "\n";
      last_marker = x;
    }
    svg += "</g>\n";
  }
  svg += "</g>\n<g class=\"legend\">\n";
  const double font = std::min(13.0, row_height - 2.0);
  double y = kTop + 10;
  const double x = kLeft + kWidth + 30;
  for (const TailLine& line : lines) {
    svg += fmt::format(
        "<g class=\"legend-entry\" font-size=\"{:g}\"><line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" "
        "y2=\"{:.0f}\"{}/>{}<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n",
        font, x, y - 4, x + 30, y - 4, stroke_attributes(line.style, 2),
        marker_svg(line.style.marker, x + 15, y - 4, line.style.colour), x + 38, y, svg_escape(line.label));
    y += row_height;
  }
  svg += fmt::format(
      "<g class=\"legend-entry\" font-size=\"{:g}\"><line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" "
      "y2=\"{:.0f}\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/><text x=\"{:.0f}\" "
      "y=\"{:.0f}\">p95 = mean</text></g>\n",
      font, x, y - 4, x + 30, y - 4, x + 38, y);
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
  return svg + "</g>\n</svg>\n";
}

}  // namespace report
