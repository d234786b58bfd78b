#include "app/plot_tail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/options.hpp"
#include "app/plot.hpp"
#include "app/report_text.hpp"
#include "solvers/solver.hpp"

namespace app {

namespace {

struct TailLine {
  std::string label;
  std::string colour;
  std::string dash;
  std::vector<std::pair<double, double>> points;  // (p, p95 / mean)
};

// Colour-blind-safe (Okabe and Ito) colours by case; a dash by method (solid approx, dashed mc).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr const char* kDashes[] = {"", "7,4", "2,3", "10,3,2,3"};

std::vector<TailLine> tail_lines(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const std::vector<double>& levels = inputs.request.solver_options.quantiles;
  const auto at = std::find(levels.begin(), levels.end(), kTailLevel);
  std::vector<TailLine> lines;
  if (at == levels.end()) return lines;
  const auto k = static_cast<std::size_t>(at - levels.begin());
  std::size_t shown_case = 0;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    std::string key;
    for (const std::string& cell : report_text::key_cells(inputs, study.cases()[c])) key += cell + " ";
    std::size_t shown_method = 0;
    for (solvers::Method method : study.methods()) {
      if (!solvers::info(method).gives_quantiles) continue;
      TailLine line;
      line.label = key + std::string{solvers::to_string(method)};
      line.colour = kColours[shown_case % std::size(kColours)];
      line.dash = kDashes[shown_method % std::size(kDashes)];
      for (int p : study.processors()) {
        const solvers::Result& result = study.at(c, p, method).result;
        if (!result.solved() || result.quantiles.size() != levels.size() || !(result.mean > 0.0)) continue;
        line.points.emplace_back(p, result.quantiles[k].estimate / result.mean);
      }
      lines.push_back(std::move(line));
      ++shown_method;
    }
    ++shown_case;
  }
  return lines;
}

}  // namespace

std::string render_tail_plot(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const std::vector<TailLine> lines = tail_lines(study, inputs);
  const double p_low = study.processors().front();
  const double p_high = std::max(study.processors().back(), study.processors().front() + 1);
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
  const std::vector<double> x_ticks = nice_ticks(p_low, p_high, 8, true);
  const std::vector<double> y_ticks = nice_ticks(y_low, y_high, 6, false);
  const double x0 = std::min(p_low, x_ticks.front());
  const double x1 = std::max(p_high, x_ticks.back());
  const double v0 = std::min(y_low, y_ticks.front());
  const double v1 = std::max(y_high, y_ticks.back());
  constexpr double kLeft = 90, kTop = 80, kWidth = 560, kHeight = 340;
  auto x_of = [&](double p) { return kLeft + (p - x0) / (x1 - x0) * kWidth; };
  auto y_of = [&](double v) { return kTop + kHeight - (v - v0) / (v1 - v0) * kHeight; };

  std::size_t longest = 24;
  for (const TailLine& line : lines) longest = std::max(longest, line.label.size());
  const double width = kLeft + kWidth + 40 + 40 + 7.5 * static_cast<double>(longest);
  constexpr double kTotalHeight = 500;
  const std::string title = fmt::format("Runtime tail of {}: p95 / mean against p", inputs.program_name);
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 "
      "{0:.0f} {1:.0f}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n",
      width, kTotalHeight);
  svg += fmt::format("<title>{}</title>\n", svg_escape(title));
  svg += fmt::format("<defs><clipPath id=\"clip-tail\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"/>"
                     "</clipPath></defs>\n",
                     kLeft, kTop, kWidth, kHeight);
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, kTotalHeight);
  svg += fmt::format("<text class=\"title\" x=\"{:.0f}\" y=\"40\" text-anchor=\"middle\" font-size=\"18\" "
                     "font-weight=\"bold\">{}</text>\n",
                     width / 2, svg_escape(title));
  // Axes, grid and ticks.
  svg += "<g class=\"axes\">\n";
  for (double tick : y_ticks) {
    svg += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\"/>\n", kLeft,
                       y_of(tick), kLeft + kWidth, y_of(tick));
    svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n", kLeft - 8, y_of(tick) + 4,
                       tick_label(tick));
  }
  for (double tick : x_ticks) {
    svg += fmt::format("<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\"/>\n", x_of(tick),
                       kTop, x_of(tick), kTop + kHeight);
    svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n", x_of(tick),
                       kTop + kHeight + 18, tick_label(tick));
  }
  svg += fmt::format("<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" "
                     "stroke=\"#333333\"/>\n",
                     kLeft, kTop, kWidth, kHeight);
  svg += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">processors p</text>\n", kLeft + kWidth / 2,
                     kTop + kHeight + 40);
  svg += fmt::format("<text x=\"{0:.2f}\" y=\"{1:.2f}\" text-anchor=\"middle\" transform=\"rotate(-90 {0:.2f} {1:.2f})\">"
                     "95% quantile / mean runtime</text>\n",
                     kLeft - 52, kTop + kHeight / 2);
  svg += "</g>\n<g class=\"curves\" clip-path=\"url(#clip-tail)\">\n";
  svg += fmt::format("<line class=\"reference\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" "
                     "stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>\n",
                     kLeft, y_of(1.0), kLeft + kWidth, y_of(1.0));
  for (const TailLine& line : lines) {
    std::string points;
    for (const auto& [p, ratio] : line.points) points += fmt::format("{:.2f},{:.2f} ", x_of(p), y_of(ratio));
    if (!points.empty()) points.pop_back();
    const std::string dash = line.dash[0] == '\0' ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", line.dash);
    if (line.points.size() > 1) {
      svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", line.colour,
                         dash, points);
    }
    for (const auto& [p, ratio] : line.points) {
      svg += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3\" fill=\"{}\"/>\n", x_of(p), y_of(ratio),
                         line.colour);
    }
  }
  svg += "</g>\n<g class=\"legend\">\n";
  double y = kTop + 10;
  const double x = kLeft + kWidth + 30;
  for (const TailLine& line : lines) {
    const std::string dash = line.dash[0] == '\0' ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", line.dash);
    svg += fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"{}\" stroke-width=\"2\"{}/>"
                       "<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text>\n",
                       x, y - 4, x + 30, y - 4, line.colour, dash, x + 38, y, svg_escape(line.label));
    y += 20;
  }
  svg += fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"#888888\" "
                     "stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/><text x=\"{:.0f}\" y=\"{:.0f}\">"
                     "p95 = mean</text>\n",
                     x, y - 4, x + 30, y - 4, x + 38, y);
  if (lines.empty()) {
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no method of this run gives quantiles (approx and mc do)</text>\n",
                       kLeft + 20, kTop + 30);
  }
  return svg + "</g>\n</svg>\n";
}

}  // namespace app
