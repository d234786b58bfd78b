#include "report/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "solvers/solver.hpp"

namespace report {

namespace {

// One curve: a (machine, swept values) case and a method.
struct Series {
  std::string label;
  LineStyle style;
  bool interval_only = false;  // bounds: no estimate, the band is the whole drawing
  std::vector<double> x;       // where the points are drawn: p, or the swept value
  std::vector<double> p;
  std::vector<double> speedup;
  std::vector<std::optional<std::pair<double, double>>> interval;  // speedup interval
  bool has_band() const {
    return std::any_of(interval.begin(), interval.end(), [](const auto& one) { return one.has_value(); });
  }
};

struct Panel {
  double left, top, width, height;
  Axis x_axis, y_axis;
  double x(double value) const { return left + x_axis.fraction(value) * width; }
  double y(double value) const { return top + height - y_axis.fraction(value) * height; }
};

std::string point(double x, double y) { return fmt::format("{:.2f},{:.2f}", x, y); }

// The axes, grid, ticks and labels of one panel.
std::string axes(const Panel& panel, const std::string& x_label, const std::string& y_label) {
  std::string out = "<g class=\"axes\">\n";
  for (double tick : panel.y_axis.ticks) {
    const double y = panel.y(tick);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\" stroke-width=\"1\"/>\n",
        panel.left, y, panel.left + panel.width, y);
    out += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       panel.left - 8, y + 4, tick_label(tick));
  }
  for (double tick : panel.x_axis.ticks) {
    const double x = panel.x(tick);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\" stroke-width=\"1\"/>\n",
        x, panel.top, x, panel.top + panel.height);
    out += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n", x,
                       panel.top + panel.height + 18, tick_label(tick));
  }
  out += fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n",
      panel.left, panel.top, panel.width, panel.height);
  out += fmt::format("<text class=\"axis-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                     panel.left + panel.width / 2, panel.top + panel.height + 40, svg_escape(x_label));
  const double y_middle = panel.top + panel.height / 2;
  out += fmt::format(
      "<text class=\"axis-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" transform=\"rotate(-90 {:.2f} {:.2f})\">{}</text>\n",
      panel.left - 48, y_middle, panel.left - 48, y_middle, svg_escape(y_label));
  return out + "</g>\n";
}

// Markers on every point of a line of up to 24, else on points at least a twentieth of the
// panel's width apart (and the last), so that the style shows without hiding the line and the
// markers stay evenly spaced on a log axis too.
bool marked(std::size_t i, std::size_t n, double x, double last_marker, double width) {
  return n <= 24 || i + 1 == n || x - last_marker >= width / 20;
}

// The band of one series: along the upper ends, back along the lower ends, over the points that
// have an interval; with a bounds' series its two edges too, in the series' stroke.
std::string band(const Panel& panel, const Series& one, const std::function<double(double, double)>& value) {
  std::string upper, lower, upper_edge, lower_edge;
  for (std::size_t i = 0; i < one.p.size(); ++i) {
    if (!one.interval[i]) continue;
    const std::string here = point(panel.x(one.x[i]), panel.y(value(one.p[i], one.interval[i]->second)));
    upper += upper.empty() ? "M" : " L";
    upper += here;
    if (!upper_edge.empty()) upper_edge += ' ';
    upper_edge += here;
  }
  for (std::size_t i = one.p.size(); i-- > 0;) {
    if (!one.interval[i]) continue;
    const std::string here = point(panel.x(one.x[i]), panel.y(value(one.p[i], one.interval[i]->first)));
    lower += " L";
    lower += here;
    if (!lower_edge.empty()) lower_edge += ' ';
    lower_edge += here;
  }
  if (upper.empty()) return {};
  std::string out = fmt::format(
      "<path class=\"band\" d=\"{}{} Z\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"none\"><title>{}</title></path>\n",
      upper, lower, one.style.colour, one.interval_only ? "0.22" : "0.16",
      svg_escape(one.label + (one.interval_only ? " (lower to upper)" : " interval")));
  if (one.interval_only) {
    for (const std::string& edge : {upper_edge, lower_edge}) {
      out += fmt::format("<polyline class=\"band-edge\" points=\"{}\" fill=\"none\"{}/>\n", edge,
                         stroke_attributes(one.style, 1.5));
    }
  }
  return out;
}

// The curves of one panel; `value` maps (p, speedup) to the panel's quantity.
std::string curves(const Panel& panel, const std::vector<Series>& series, const std::string& clip,
                   const std::function<double(double, double)>& value) {
  std::string out = fmt::format("<g class=\"curves\" clip-path=\"url(#{})\">\n", clip);
  for (const Series& one : series) out += band(panel, one, value);
  for (const Series& one : series) {
    if (one.interval_only) continue;
    // A polyline through the solved points; where a method has a hole (a p it could not
    // solve between two it could), a path with one piece per run, so the hole stays visible.
    std::string points, pieces, markers;
    bool gap = false, broken = false;
    double last_marker = -1e300;
    for (std::size_t i = 0; i < one.p.size(); ++i) {
      if (!std::isfinite(one.speedup[i])) {
        gap = !points.empty();
        continue;
      }
      const double x = panel.x(one.x[i]), y = panel.y(value(one.p[i], one.speedup[i]));
      const std::string here = point(x, y);
      broken = broken || gap;
      pieces += (pieces.empty() || gap) ? (pieces.empty() ? "M" : " M") : " L";
      pieces += here;
      gap = false;
      if (!points.empty()) points += ' ';
      points += here;
      if (marked(i, one.p.size(), x, last_marker, panel.width)) {
        markers += marker_svg(one.style.marker, x, y, one.style.colour) + "\n";
        last_marker = x;
      }
    }
    if (points.empty()) continue;
    const std::string style = "fill=\"none\"" + stroke_attributes(one.style, 2);
    out += "<g class=\"line\">";
    if (broken) {
      out += fmt::format("<path class=\"series\" d=\"{}\" {}><title>{}</title></path>\n", pieces, style,
                         svg_escape(one.label));
    } else {
      out += fmt::format("<polyline class=\"series\" points=\"{}\" {}><title>{}</title></polyline>\n", points, style,
                         svg_escape(one.label));
    }
    out += markers + "</g>\n";
  }
  return out + "</g>\n";
}

// The curves: every whole-program case (machine, swept values) and method. With one
// processor count and one swept variable the x axis is that variable instead of p: a line
// per machine and method across the sizes.
struct Layout {
  bool against_size = false;
  double only_p = 1.0;  // the one processor count, when drawn against the size
};

// The groups of cases that make one line each: every whole-program case, or (against the size)
// every machine.
std::vector<std::vector<std::size_t>> line_groups(const analysis::StudyResult& study, const Layout& layout) {
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    if (layout.against_size && !groups.empty() &&
        study.cases()[groups.back().front()].machine == study.cases()[c].machine &&
        study.cases()[groups.back().front()].program_index == study.cases()[c].program_index) {
      groups.back().push_back(c);
    } else {
      groups.push_back({c});
    }
  }
  return groups;
}

// One line's points, left to right.
void add_points(Series& one, const analysis::StudyResult& study, const std::vector<std::size_t>& group,
                solvers::Method method, const Layout& layout) {
  struct Point {
    double x, p, speedup;
    std::optional<std::pair<double, double>> interval;
  };
  std::vector<Point> points;
  for (std::size_t c : group) {
    for (int p : study.processors()) {
      const analysis::Row& row = study.at(c, p, method);
      points.push_back({layout.against_size ? study.cases()[c].swept.front().second : static_cast<double>(row.p),
                        static_cast<double>(row.p), row.speedup.value_or(std::nan("")),
                        row.speedup_lower && row.speedup_upper
                            ? std::optional<std::pair<double, double>>({*row.speedup_lower, *row.speedup_upper})
                            : std::nullopt});
    }
  }
  // Swept values come in the order the user gave them; a line runs left to right.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  for (const Point& point : points) {
    one.x.push_back(point.x);
    one.p.push_back(point.p);
    one.speedup.push_back(point.speedup);
    one.interval.push_back(point.interval);
  }
}

std::vector<Series> all_series(const analysis::StudyResult& study, const ReportInputs& inputs, const Layout& layout) {
  const std::vector<std::vector<std::size_t>> groups = line_groups(study, layout);
  const std::vector<solvers::Method>& methods = study.methods();
  std::vector<Series> series;
  for (std::size_t n = 0; n < groups.size(); ++n) {
    const analysis::CaseLabel& label = study.cases()[groups[n].front()];
    std::string group_name;
    if (inputs.programs.size() > 1) group_name = label.program;
    if (inputs.machines.size() > 1) group_name += (group_name.empty() ? "" : ", ") + label.machine;
    if (!layout.against_size) {
      for (const auto& [name, value] : label.swept) {
        group_name += fmt::format("{}{}={:g}", group_name.empty() ? "" : ", ", name, value);
      }
    }
    for (std::size_t k = 0; k < methods.size(); ++k) {
      Series one;
      const std::string method_name =
          methods.size() > 1 || group_name.empty() ? std::string(solvers::to_string(methods[k])) : "";
      one.label = group_name.empty()    ? method_name
                  : method_name.empty() ? group_name
                                        : group_name + " · " + method_name;
      // One group: a colour, dash and marker per method; several: a colour per group and a
      // dash and marker per method (while they fit; style_index).
      one.style = line_style(style_index(n, groups.size(), k, methods.size()));
      one.interval_only = solvers::info(methods[k]).speedup_as_interval;
      add_points(one, study, groups[n], methods[k], layout);
      series.push_back(std::move(one));
    }
  }
  return series;
}

// A log2 axis over the data [low, high]: exactly it (x), or widened to powers of two (y).
Axis log_axis(double low, double high, bool to_powers) {
  Axis axis;
  axis.log = true;
  if (!(low > 0.0)) low = 1.0;
  if (!(high > low)) {
    low /= 2;
    high = std::max(high, low * 2) * 2;
  }
  axis.low = to_powers ? std::exp2(std::floor(std::log2(low) + 1e-9)) : low;
  axis.high = to_powers ? std::exp2(std::ceil(std::log2(high) - 1e-9)) : high;
  axis.ticks = log2_ticks(axis.low, axis.high, 10);
  return axis;
}

// The axes: x as analysed (log2 by ChartOptions); speedup from 0 to the highest figure (the
// ideal line is clipped rather than allowed to squash curves far below it), or log2 from the
// power of two below the lowest figure to the one above the highest; efficiency from 0 to at
// least 1.
struct Ranges {
  Axis x, speedup, efficiency;
};

Ranges ranges_of(const std::vector<Series>& series, const analysis::StudyResult& study, const ReportInputs& inputs,
                 const Layout& layout, const ChartOptions& chart) {
  Ranges r;
  double speedup_high = 1, speedup_low = 1, efficiency_high = 1;
  bool integers = true;
  std::vector<double> xs;
  if (layout.against_size) {
    xs = inputs.sweeps.front().values;
    integers = std::all_of(xs.begin(), xs.end(), [](double v) { return v == std::round(v); });
    speedup_high = std::max(speedup_high, layout.only_p);
  } else {
    xs.assign(study.processors().begin(), study.processors().end());
  }
  if (xs.empty()) xs = {1.0};
  for (const Series& one : series) {
    for (std::size_t i = 0; i < one.p.size(); ++i) {
      const double top = one.interval[i] ? std::max(one.speedup[i], one.interval[i]->second) : one.speedup[i];
      const double bottom = one.interval[i] ? std::min(one.speedup[i], one.interval[i]->first) : one.speedup[i];
      if (std::isfinite(bottom) && bottom > 0.0) speedup_low = std::min(speedup_low, bottom);
      if (!std::isfinite(top)) continue;
      speedup_high = std::max(speedup_high, top);
      efficiency_high = std::max(efficiency_high, top / one.p[i]);
    }
  }
  const double x_low = *std::min_element(xs.begin(), xs.end());
  const double x_high = *std::max_element(xs.begin(), xs.end());
  if (chart.log_axes || is_log2_automatic(xs)) {
    r.x = log_axis(x_low, x_high, false);
  } else {
    r.x.low = x_low;
    r.x.high = x_high;
    if (r.x.high <= r.x.low) {
      r.x.low = std::max(0.0, r.x.low - 1);
      r.x.high += 1;
    }
    r.x.ticks = nice_ticks(r.x.low, r.x.high, 8, integers);
  }
  // One more tick when the highest figure would touch the frame: a curve (or the ideal
  // efficiency 1) drawn on the border reads as clipped.
  const auto headroom = [](std::vector<double>& ticks, double high) {
    if (ticks.size() >= 2 && ticks.back() < high * 1.04) ticks.push_back(ticks.back() + (ticks[1] - ticks[0]));
  };
  if (chart.log_axes) {
    r.speedup = log_axis(speedup_low, speedup_high * 1.05, true);
  } else {
    r.speedup.ticks = nice_ticks(0, speedup_high * 1.05, 6, false);
    headroom(r.speedup.ticks, speedup_high);
    r.speedup.low = 0;
    r.speedup.high = r.speedup.ticks.back();
  }
  r.efficiency.ticks = nice_ticks(0, std::min(efficiency_high, 1.5) * 1.02, 5, false);
  headroom(r.efficiency.ticks, std::min(efficiency_high, 1.5));
  r.efficiency.low = 0;
  r.efficiency.high = r.efficiency.ticks.back();
  return r;
}

std::string subtitle_of(const analysis::StudyResult& study, const Layout& layout) {
  std::string method_names;
  for (solvers::Method method : study.methods()) {
    method_names += (method_names.empty() ? "" : ", ") + std::string(solvers::to_string(method));
  }
  return "predicted speedup and efficiency" +
         (layout.against_size ? fmt::format(" on {:g} processors", layout.only_p) : "") + " · " +
         std::string(study.methods().size() == 1 ? "method " : "methods ") + method_names;
}

// The document's opening, clip paths, background, title and subtitle.
std::string opening(double width, double height, const std::string& title, double title_size,
                    const std::string& subtitle, const Panel& speedup_panel, const Panel& efficiency_panel) {
  std::string svg = svg_opening(width, height, title);
  svg += "<defs>\n";
  for (const auto& [id, panel] : {std::pair<const char*, const Panel*>{"clip-speedup", &speedup_panel},
                                  std::pair<const char*, const Panel*>{"clip-efficiency", &efficiency_panel}}) {
    svg += fmt::format(
        "<clipPath id=\"{}\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"/></clipPath>\n", id,
        panel->left, panel->top, panel->width, panel->height);
  }
  svg += "</defs>\n";
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, height);
  svg += fmt::format(
      "<text class=\"title\" x=\"{:.0f}\" y=\"34\" text-anchor=\"middle\" font-size=\"{:g}\" font-weight=\"bold\">{}</text>\n",
      width / 2, title_size, svg_escape(title));
  svg +=
      fmt::format("<text class=\"subtitle\" x=\"{:.0f}\" y=\"58\" text-anchor=\"middle\" fill=\"#444444\">{}</text>\n",
                  width / 2, svg_escape(subtitle));
  return svg;
}

// A reference line y = f(x) across a panel, as a polyline of points evenly spaced along the x
// axis (straight on linear axes and on log-log, curved on log x against linear y).
std::string reference(const Panel& panel, const std::function<double(double)>& f) {
  std::string points;
  constexpr int kSteps = 64;
  for (int i = 0; i <= kSteps; ++i) {
    const double t = static_cast<double>(i) / kSteps;
    const double x = panel.x_axis.log ? panel.x_axis.low * std::pow(panel.x_axis.high / panel.x_axis.low, t)
                                      : panel.x_axis.low + t * (panel.x_axis.high - panel.x_axis.low);
    if (i > 0) points += ' ';
    points += point(panel.x(x), panel.y(f(x)));
  }
  return fmt::format(
      "<polyline class=\"ideal\" points=\"{}\" fill=\"none\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>\n",
      points);
}

// The ideal references: speedup p (or the one p against the size), efficiency 1.
std::string ideal_lines(const Panel& speedup_panel, const Panel& efficiency_panel, const Layout& layout) {
  std::string svg = "<g class=\"reference\" clip-path=\"url(#clip-speedup)\">\n";
  svg += reference(speedup_panel, [&layout](double x) { return layout.against_size ? layout.only_p : x; });
  svg += "</g>\n<g class=\"reference\" clip-path=\"url(#clip-efficiency)\">\n";
  svg += reference(efficiency_panel, [](double) { return 1.0; });
  return svg + "</g>\n";
}

// The legend, right of the panels: a sample of each line (its band, stroke and marker), then the
// reference, then what the bands mean, once per method with a band.
std::string legend(const std::vector<Series>& series, const std::vector<solvers::Method>& methods, double row_height,
                   double legend_font, const Layout& layout) {
  std::string svg = "<g class=\"legend\">\n";
  double y = 100;
  const double x = 712;
  svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" font-weight=\"bold\">Legend</text>\n", x, y);
  y += 22;
  for (const Series& one : series) {
    svg += fmt::format("<g class=\"legend-entry\" font-size=\"{:g}\">", legend_font);
    if (one.has_band()) {
      svg +=
          fmt::format("<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"30\" height=\"{:g}\" fill=\"{}\" fill-opacity=\"{}\"/>",
                      x, y - 4 - std::min(6.0, row_height / 2 - 1), std::min(12.0, row_height - 2), one.style.colour,
                      one.interval_only ? "0.22" : "0.16");
    }
    svg += fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\"{}/>", x, y - 4, x + 30, y - 4,
                       stroke_attributes(one.style, one.interval_only ? 1.5 : 2));
    if (!one.interval_only) svg += marker_svg(one.style.marker, x + 15, y - 4, one.style.colour);
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n", x + 38, y, svg_escape(one.label));
    y += row_height;
  }
  svg += fmt::format(
      "<g class=\"legend-entry\" font-size=\"{:g}\"><line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>"
      "<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n",
      legend_font, x, y - 4, x + 30, y - 4, x + 38, y,
      layout.against_size ? fmt::format("ideal (speedup {:g})", layout.only_p) : "ideal (speedup p)");
  y += 26;
  const auto note = [&](const std::string& text) {
    svg += fmt::format("<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">{}</text>\n",
                       x, y, svg_escape(text));
    y += 14;
  };
  if (series.size() > kDistinctLineStyles) note(fmt::format("styles repeat after {} lines", kDistinctLineStyles));
  for (solvers::Method method : methods) {
    const std::string name{solvers::to_string(method)};
    if (solvers::info(method).speedup_as_interval) {
      note(name + ": a band from the lower to the");
      note("upper speedup the bounds imply");
    } else if (solvers::info(method).interval == solvers::IntervalKind::Confidence95) {
      note(name + ": band = 95% confidence interval");
    } else if (solvers::info(method).interval == solvers::IntervalKind::DiscretisationBracket) {
      note(name + ": band = discretisation bracket");
    }
  }
  return svg + "</g>\n</svg>\n";
}

}  // namespace

std::string render_plot(const analysis::StudyResult& study, const ReportInputs& inputs, const ChartOptions& chart) {
  Layout layout;
  layout.against_size =
      study.processors().size() == 1 && inputs.sweeps.size() == 1 && inputs.sweeps.front().values.size() > 1;
  layout.only_p = study.processors().empty() ? 1.0 : study.processors().front();
  const std::vector<Series> series = all_series(study, inputs, layout);
  const Ranges r = ranges_of(series, study, inputs, layout, chart);

  // The legend sits right of the panels: wider for long labels (about 7.5 px a character at
  // 13 px), its rows closer together when there are many lines.
  std::size_t longest = 18;  // "ideal (speedup p)"; the band notes, at 11 px, fit in 960 px
  for (const Series& one : series) longest = std::max(longest, display_length(one.label));
  const double width = std::max(960.0, 750.0 + 7.5 * static_cast<double>(longest) + 12.0);
  constexpr double kHeight = 820;
  const double row_height = std::clamp(560.0 / static_cast<double>(series.size() + 1), 11.0, 20.0);
  const Panel speedup_panel{90, 90, 600, 320, r.x, r.speedup};
  const Panel efficiency_panel{90, 500, 600, 260, r.x, r.efficiency};

  // About 12 px a character of the 20 px bold title, 9.6 px at 16 px: a long title is set
  // smaller before it is shortened.
  const std::string title = chart_title(inputs, static_cast<std::size_t>((width - 40) / 9.6));
  const double title_size = static_cast<double>(display_length(title)) * 12 <= width - 40 ? 20 : 16;
  const char* log_note = " (log scale)";
  const std::string x_label = fmt::format(
      "{}{}", layout.against_size ? fmt::format("problem size: {}", inputs.sweeps.front().name) : "processors p",
      r.x.log ? log_note : "");
  std::string svg =
      opening(width, kHeight, title, title_size, subtitle_of(study, layout), speedup_panel, efficiency_panel);
  // Weak scaling (a variable of P): the speedup is scaled, T1(W(p)) / T(p), as in the reports.
  const char* speedup_label = !inputs.weak_scaling ? "speedup T(1) / T(p)" : "scaled speedup T1(W(p)) / T(p)";
  svg += axes(speedup_panel, x_label, fmt::format("{}{}", speedup_label, r.speedup.log ? log_note : ""));
  svg += axes(efficiency_panel, x_label, "efficiency (speedup / p)");
  svg += ideal_lines(speedup_panel, efficiency_panel, layout);
  svg += curves(speedup_panel, series, "clip-speedup", [](double, double s) { return s; });
  svg += curves(efficiency_panel, series, "clip-efficiency", [](double p, double s) { return s / p; });
  return svg + legend(series, study.methods(), row_height, std::min(13.0, row_height - 2.0), layout);
}

}  // namespace report
