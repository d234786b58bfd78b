#include "report/plot_breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "report/plot.hpp"
#include "report/breakdown.hpp"
#include "report/text.hpp"

namespace report {

namespace {

constexpr double kBreakdownWidth = 760.0;
constexpr double kBreakdownLeft = 80.0;  // room for the time axis' labels
constexpr double kBreakdownRight = 20.0;
constexpr double kBreakdownTop = 70.0;  // the title and the legend
constexpr double kPanelHeight = 190.0;
constexpr double kPanelGap = 56.0;  // the p labels and the next panel's title

struct Part {
  const char* name;
  const char* colour;  // Okabe and Ito's colour-blind-safe palette; idle in grey
};
constexpr std::array<Part, 4> kParts{
    {{"computation", "#0072B2"}, {"communication", "#E69F00"}, {"synchronisation", "#009E73"}, {"idle", "#BBBBBB"}}};

// A runtime above its bar, in at most about six characters: 2.62M, 672.5k, 58.14.
std::string compact(double value) {
  if (value >= 1e6) return fmt::format("{:.3g}M", value / 1e6);
  if (value >= 1e3) return fmt::format("{:.4g}k", value / 1e3);
  return fmt::format("{:.4g}", value);
}

// The heights drawn for one split: the estimates, an idle without one from its lower end, and
// nothing below 0.
std::array<double, 4> heights(const analysis::Breakdown& split) {
  const analysis::Share* shares[] = {&split.computation, &split.communication, &split.synchronisation, &split.idle};
  std::array<double, 4> out{};
  for (std::size_t k = 0; k < 4; ++k) out[k] = std::max(0.0, shares[k]->estimate.value_or(shares[k]->lower));
  return out;
}

// The splits of one case, a p each (none where the p has no split), and how far the share
// axis reaches.
struct PanelSplits {
  std::vector<std::optional<analysis::Breakdown>> splits;
  double top_percent = 100.0;
  bool any = false;  // a split with a runtime to draw
};

PanelSplits panel_splits(const analysis::StudyResult& study, std::size_t c) {
  PanelSplits out;
  // Each bar is its p's runtime (the sum of the drawn parts) as 100%; the axis reaches the
  // highest end of an idle interval above that.
  for (int p : study.processors()) {
    out.splits.push_back(report_breakdown::of(study, c, p));
    if (!out.splits.back()) continue;
    const auto h = heights(*out.splits.back());
    const double total = h[0] + h[1] + h[2] + h[3];
    if (!(total > 0.0)) continue;
    out.any = true;
    out.top_percent =
        std::max(out.top_percent, 100.0 * (h[0] + h[1] + h[2] + std::max(0.0, out.splits.back()->idle.upper)) / total);
  }
  out.top_percent = std::min(out.top_percent, 150.0);
  return out;
}

// A panel's title: the case's key cells, or the program's name when they are none.
std::string panel_title(const analysis::StudyResult& study, const ReportInputs& inputs, std::size_t c) {
  std::string title;
  for (const std::string& cell : report_text::key_cells(inputs, study.cases()[c]))
    title += (title.empty() ? "" : ", ") + cell;
  if (title.empty()) title = inputs.program_name;
  return title;
}

// Where a share of the runtime (percent) is drawn in a panel whose base is at `bottom`.
struct ShareScale {
  double bottom, axis_top;
  double y(double percent) const { return bottom - percent / axis_top * kPanelHeight; }
};

// The grid lines at 0, 25, ..., 100% with their labels, and the share axis' label.
std::string share_axis(const ShareScale& scale, double top) {
  std::string out;
  for (double tick : {0.0, 25.0, 50.0, 75.0, 100.0}) {
    out += fmt::format(R"(<line x1="{0}" y1="{1:.2f}" x2="{2}" y2="{1:.2f}" stroke="#e0e0e0"/>)"
                       R"(<text x="{3}" y="{4:.2f}" font-size="11" text-anchor="end">{5}%</text>)"
                       "\n",
                       kBreakdownLeft, scale.y(tick), kBreakdownWidth - kBreakdownRight, kBreakdownLeft - 6.0,
                       scale.y(tick) + 4.0, tick_label(tick));
  }
  out += fmt::format(R"~(<text transform="translate({},{:.2f}) rotate(-90)" font-size="11" text-anchor="middle">)~"
                     "share of the runtime</text>\n",
                     kBreakdownLeft - 50.0, top + kPanelHeight / 2.0);
  return out;
}

// How a panel draws its bars.
struct BarStyle {
  ShareScale scale;
  double top_percent;  // where the axis ends, and an idle interval's whisker with it
  double width;
  bool runtimes;  // the runtime above each bar
};

// A bar's parts stacked from the bottom, each `h` of its `total` runtime.
std::string stacked_parts(const BarStyle& style, double x, int p, const std::array<double, 4>& h, double total,
                          const TimeUnit& unit) {
  std::string out;
  double base = 0.0;
  for (std::size_t k = 0; k < kParts.size(); ++k) {
    const double percent = 100.0 * h[k] / total;
    if (percent > 0.0) {
      out += fmt::format(
          R"(<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="{}"><title>p = {}: {} {} {} ({:.1f}%)</title></rect>)"
          "\n",
          x - style.width / 2.0, style.scale.y(base + percent), style.width,
          style.scale.y(base) - style.scale.y(base + percent), kParts[k].colour, p, kParts[k].name,
          report_text::number(unit.of(h[k])), svg_escape(unit.symbol), percent);
    }
    base += percent;
  }
  return out;
}

// The bar of one p centred on x: its parts, the idle part's interval and the runtime above.
std::string bar(const BarStyle& style, double x, int p, const analysis::Breakdown& split, const TimeUnit& unit) {
  const auto h = heights(split);
  const double total = h[0] + h[1] + h[2] + h[3];
  if (!(total > 0.0)) return {};
  std::string out = stacked_parts(style, x, p, h, total, unit);
  // The idle part's interval, which is the prediction's.
  const analysis::Share& idle = split.idle;
  const double busy = h[0] + h[1] + h[2];
  const double low = std::min(style.top_percent, 100.0 * (busy + std::max(0.0, idle.lower)) / total);
  const double high = std::min(style.top_percent, 100.0 * (busy + std::max(0.0, idle.upper)) / total);
  if (high > low) {
    out +=
        fmt::format(R"(<line x1="{0:.2f}" y1="{1:.2f}" x2="{0:.2f}" y2="{2:.2f}" stroke="#000000" stroke-width="1"/>)"
                    "\n",
                    x, style.scale.y(low), style.scale.y(high));
  }
  if (style.runtimes) {
    out += fmt::format(R"(<text x="{:.2f}" y="{:.2f}" font-size="10" text-anchor="middle">{}</text>)"
                       "\n",
                       x, style.scale.y(std::max(100.0, high)) - 4.0, compact(unit.of(total)));
  }
  return out;
}

// The p axis under the bars and its label.
std::string p_axis(double bottom, bool runtimes, const TimeUnit& unit) {
  const double plot_width = kBreakdownWidth - kBreakdownLeft - kBreakdownRight;
  std::string out = fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#000000"/>)"
                                "\n",
                                kBreakdownLeft, bottom, kBreakdownWidth - kBreakdownRight);
  out +=
      fmt::format(R"(<text x="{}" y="{:.2f}" font-size="11" text-anchor="middle">p (processors){}</text>)"
                  "\n",
                  kBreakdownLeft + plot_width / 2.0, bottom + 30.0,
                  runtimes ? fmt::format("; above each bar its runtime [{}]", svg_escape(unit.symbol)) : std::string{});
  return out;
}

std::string panel(const analysis::StudyResult& study, const ReportInputs& inputs, std::size_t c, double top) {
  const std::vector<int>& processors = study.processors();
  const PanelSplits data = panel_splits(study, c);
  std::string out = fmt::format(R"(<text x="{}" y="{}" font-size="13" font-weight="bold">{}</text>)"
                                "\n",
                                kBreakdownLeft, top - 8.0, svg_escape(panel_title(study, inputs, c)));
  const double plot_width = kBreakdownWidth - kBreakdownLeft - kBreakdownRight;
  const double bottom = top + kPanelHeight;
  if (!data.any) {
    out += fmt::format(R"(<text x="{}" y="{}" font-size="12">no breakdown: no exact model or no prediction</text>)"
                       "\n",
                       kBreakdownLeft + 10.0, top + kPanelHeight / 2.0);
    return out;
  }
  const ShareScale scale{bottom, data.top_percent * 1.08};  // room for the runtimes above the bars
  out += share_axis(scale, top);
  const double slot = plot_width / static_cast<double>(processors.size());
  // Label at most about 20 of the p, evenly; the runtimes only where they fit.
  const std::size_t label_every = std::max<std::size_t>(1, (processors.size() + 19) / 20);
  const BarStyle style{scale, data.top_percent, std::max(1.0, slot * 0.7), slot >= 44.0};
  for (std::size_t i = 0; i < processors.size(); ++i) {
    const double x = kBreakdownLeft + slot * (static_cast<double>(i) + 0.5);
    if (i % label_every == 0) {
      out += fmt::format(R"(<text x="{:.2f}" y="{:.2f}" font-size="11" text-anchor="middle">{}</text>)"
                         "\n",
                         x, bottom + 14.0, processors[i]);
    }
    if (data.splits[i]) out += bar(style, x, processors[i], *data.splits[i], inputs.time_unit);
  }
  return out + p_axis(bottom, style.runtimes, inputs.time_unit);
}

}  // namespace

std::string render_breakdown_plot(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::vector<std::size_t> cases;
  std::size_t whole = 0;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    ++whole;
    if (cases.size() < kBreakdownPanels) cases.push_back(c);
  }
  const double height = kBreakdownTop + static_cast<double>(cases.size()) * (kPanelHeight + kPanelGap) + 10.0;
  std::string title = "Where the time goes: " + inputs.program_name;
  if (whole > cases.size()) title += fmt::format(" (the first {} of {} cases)", cases.size(), whole);
  std::string out = svg_opening(kBreakdownWidth, height, title) + R"(<rect width="100%" height="100%" fill="#ffffff"/>)"
                                                                  "\n";
  out += fmt::format(R"(<text x="{}" y="22" font-size="15" font-weight="bold" text-anchor="middle">{}</text>)"
                     "\n",
                     kBreakdownWidth / 2.0, svg_escape(title));
  double x = kBreakdownLeft;
  for (const Part& part : kParts) {
    out += fmt::format(
        R"(<rect x="{:.1f}" y="34" width="12" height="12" fill="{}"/><text x="{:.1f}" y="44" font-size="12">{}</text>)"
        "\n",
        x, part.colour, x + 16.0, part.name);
    x += 130.0;
  }
  out += fmt::format(R"(<text x="{:.1f}" y="44" font-size="12">| the prediction's interval</text>)"
                     "\n",
                     x);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    out += panel(study, inputs, cases[k], kBreakdownTop + static_cast<double>(k) * (kPanelHeight + kPanelGap) + 14.0);
  }
  return out + "</svg>\n";
}

}  // namespace report
