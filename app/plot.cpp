#include "app/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "solvers/solver.hpp"

namespace app {

std::vector<double> nice_ticks(double low, double high, int target, bool integers) {
  if (!(high > low)) high = low + 1.0;
  const double raw = (high - low) / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= raw) break;
  }
  if (integers) step = std::max(1.0, std::round(step));
  std::vector<double> ticks;
  const double first = std::ceil(low / step - 1e-9) * step;
  for (double value = first; value <= high + 1e-9 * step; value += step) {
    ticks.push_back(std::abs(value) < 1e-12 * step ? 0.0 : value);
    if (ticks.size() > 100) break;  // never: the step covers the range in about `target`
  }
  return ticks;
}

std::string svg_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string tick_label(double value) {
  if (value == std::round(value)) return fmt::format("{:.0f}", value);
  return fmt::format("{:g}", value);
}

namespace {

// Characters on screen: "·" is two bytes of UTF-8 but one character.
std::size_t display_length(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

// Colour-blind-safe (Okabe and Ito), dark enough on white.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

// A dash pattern per method, by its place in solvers::all_methods().
const char* dash_of(solvers::Method method) {
  constexpr const char* kDashes[] = {"", "7,4", "2,3", "10,3,2,3", "1,2", "6,2,1,2"};
  const auto methods = solvers::all_methods();
  const auto at = static_cast<std::size_t>(std::find(methods.begin(), methods.end(), method) - methods.begin());
  return kDashes[at % std::size(kDashes)];
}

// Bounds and confidence intervals are drawn as shaded bands; a discretisation bracket is too
// narrow to see.
bool has_band(solvers::Method method) {
  const solvers::IntervalKind kind = solvers::info(method).interval;
  return kind == solvers::IntervalKind::BoundPair || kind == solvers::IntervalKind::Confidence95;
}

// One curve: a (machine, swept values) case and a method.
struct Series {
  std::string label;
  std::string colour;
  std::string dash;
  bool band = false;  // bounds and Monte Carlo: their interval shaded
  std::vector<double> x;  // where the points are drawn: p, or the swept value
  std::vector<double> p;
  std::vector<double> speedup;
  std::vector<std::optional<std::pair<double, double>>> interval;  // speedup interval
};

struct Panel {
  double left, top, width, height;
  double x_low, x_high, y_low, y_high;
  double x(double value) const { return left + (value - x_low) / (x_high - x_low) * width; }
  double y(double value) const { return top + height - (value - y_low) / (y_high - y_low) * height; }
};

std::string point(double x, double y) { return fmt::format("{:.2f},{:.2f}", x, y); }

// The axes, grid, ticks and labels of one panel.
std::string axes(const Panel& panel, const std::vector<double>& x_ticks, const std::vector<double>& y_ticks,
                 const std::string& x_label, const std::string& y_label) {
  std::string out = "<g class=\"axes\">\n";
  for (double tick : y_ticks) {
    const double y = panel.y(tick);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#e0e0e0\" stroke-width=\"1\"/>\n",
        panel.left, y, panel.left + panel.width, y);
    out += fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       panel.left - 8, y + 4, tick_label(tick));
  }
  for (double tick : x_ticks) {
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

// The curves of one panel; `value` maps (p, speedup) to the panel's quantity.
std::string curves(const Panel& panel, const std::vector<Series>& series, const std::string& clip,
                   const std::function<double(double, double)>& value) {
  std::string out = fmt::format("<g class=\"curves\" clip-path=\"url(#{})\">\n", clip);
  for (const Series& one : series) {
    if (!one.band) continue;
    // The band: along the upper ends, back along the lower ends, over the points that have one.
    std::string upper, lower;
    for (std::size_t i = 0; i < one.p.size(); ++i) {
      if (!one.interval[i]) continue;
      upper += upper.empty() ? "M" : " L";
      upper += point(panel.x(one.x[i]), panel.y(value(one.p[i], one.interval[i]->second)));
    }
    for (std::size_t i = one.p.size(); i-- > 0;) {
      if (!one.interval[i]) continue;
      lower += " L" + point(panel.x(one.x[i]), panel.y(value(one.p[i], one.interval[i]->first)));
    }
    if (upper.empty()) continue;
    out += fmt::format("<path class=\"band\" d=\"{}{} Z\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"><title>{}</title></path>\n",
                       upper, lower, one.colour, svg_escape(one.label + " interval"));
  }
  for (const Series& one : series) {
    // A polyline through the solved points; where a method has a hole (a p it could not
    // solve between two it could), a path with one piece per run, so the hole stays visible.
    std::string points, pieces;
    bool gap = false, broken = false;
    for (std::size_t i = 0; i < one.p.size(); ++i) {
      if (!std::isfinite(one.speedup[i])) {
        gap = !points.empty();
        continue;
      }
      const std::string here = point(panel.x(one.x[i]), panel.y(value(one.p[i], one.speedup[i])));
      broken = broken || gap;
      pieces += (pieces.empty() || gap) ? (pieces.empty() ? "M" : " M") : " L";
      pieces += here;
      gap = false;
      if (!points.empty()) points += ' ';
      points += here;
    }
    if (points.empty()) continue;
    const std::string style = fmt::format(
        "fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}", one.colour,
        one.dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", one.dash));
    if (broken) {
      out += fmt::format("<path class=\"series\" d=\"{}\" {}><title>{}</title></path>\n", pieces, style, svg_escape(one.label));
    } else {
      out += fmt::format("<polyline class=\"series\" points=\"{}\" {}><title>{}</title></polyline>\n", points, style,
                         svg_escape(one.label));
    }
    if (one.p.size() <= 24) {
      for (std::size_t i = 0; i < one.p.size(); ++i) {
        if (!std::isfinite(one.speedup[i])) continue;
        out += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"2.5\" fill=\"{}\"/>\n", panel.x(one.x[i]),
                           panel.y(value(one.p[i], one.speedup[i])), one.colour);
      }
    }
  }
  return out + "</g>\n";
}

}  // namespace

namespace {

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
  // One group: a colour per method. Several: a colour per group and a dash per method.
  const bool colour_by_method = groups.size() == 1;
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
      one.label = group_name.empty() ? method_name : method_name.empty() ? group_name : group_name + " · " + method_name;
      one.colour = kColours[(colour_by_method ? k : n) % std::size(kColours)];
      const bool bound_pair = solvers::info(methods[k]).interval == solvers::IntervalKind::BoundPair;
      one.dash = !colour_by_method || bound_pair ? dash_of(methods[k]) : "";
      one.band = has_band(methods[k]);
      add_points(one, study, groups[n], methods[k], layout);
      series.push_back(std::move(one));
    }
  }
  return series;
}

// The ranges: x as analysed; speedup from 0 to the highest figure (the ideal line is clipped
// rather than allowed to squash curves far below it), efficiency from 0 to at least 1.
struct Ranges {
  double x_low = 1, x_high = 1;
  std::vector<double> x_ticks, speedup_ticks, efficiency_ticks;
};

Ranges ranges_of(const std::vector<Series>& series, const analysis::StudyResult& study, const ReportInputs& inputs,
                 const Layout& layout) {
  Ranges r;
  double speedup_high = 1, efficiency_high = 1;
  bool integers = true;
  if (layout.against_size) {
    const std::vector<double>& values = inputs.sweeps.front().values;
    r.x_low = *std::min_element(values.begin(), values.end());
    r.x_high = *std::max_element(values.begin(), values.end());
    integers = std::all_of(values.begin(), values.end(), [](double v) { return v == std::round(v); });
    speedup_high = std::max(speedup_high, layout.only_p);
  } else if (!study.processors().empty()) {
    r.x_low = study.processors().front();
    r.x_high = study.processors().back();
  }
  for (const Series& one : series) {
    for (std::size_t i = 0; i < one.p.size(); ++i) {
      const double top = one.interval[i] ? std::max(one.speedup[i], one.interval[i]->second) : one.speedup[i];
      if (!std::isfinite(top)) continue;
      speedup_high = std::max(speedup_high, top);
      efficiency_high = std::max(efficiency_high, top / one.p[i]);
    }
  }
  if (r.x_high <= r.x_low) {
    r.x_low = std::max(0.0, r.x_low - 1);
    r.x_high += 1;
  }
  r.x_ticks = nice_ticks(r.x_low, r.x_high, 8, integers);
  r.speedup_ticks = nice_ticks(0, speedup_high * 1.05, 6, false);
  r.efficiency_ticks = nice_ticks(0, std::min(efficiency_high, 1.5) * 1.02, 5, false);
  // One more tick when the highest figure would touch the frame: a curve (or the ideal
  // efficiency 1) drawn on the border reads as clipped.
  const auto headroom = [](std::vector<double>& ticks, double high) {
    if (ticks.size() >= 2 && ticks.back() < high * 1.04) ticks.push_back(ticks.back() + (ticks[1] - ticks[0]));
  };
  headroom(r.speedup_ticks, speedup_high);
  headroom(r.efficiency_ticks, std::min(efficiency_high, 1.5));
  return r;
}

std::string subtitle_of(const analysis::StudyResult& study, const ReportInputs& inputs) {
  std::string machines;
  for (const MachineInput& machine : inputs.machines) machines += (machines.empty() ? "" : ", ") + machine.name;
  std::string subtitle = (inputs.machines.size() == 1 ? "machine " : "machines ") + machines;
  std::string variables;
  for (const auto& [name, value] : inputs.variables) {
    variables += fmt::format("{}{}={:g}", variables.empty() ? "" : ", ", name, value);
  }
  if (!variables.empty()) subtitle += " · " + variables;
  std::string method_names;
  for (solvers::Method method : study.methods()) {
    method_names += (method_names.empty() ? "" : ", ") + std::string(solvers::to_string(method));
  }
  return subtitle + " · " + std::string(study.methods().size() == 1 ? "method " : "methods ") + method_names;
}

// The document's opening, clip paths, background, title and subtitle.
std::string opening(double width, double height, const std::string& title, const std::string& subtitle,
                    const Panel& speedup_panel, const Panel& efficiency_panel) {
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n",
      width, height);
  svg += fmt::format("<title>{}</title>\n", svg_escape(title));
  svg += "<defs>\n";
  for (const auto& [id, panel] : {std::pair<const char*, const Panel*>{"clip-speedup", &speedup_panel},
                                  std::pair<const char*, const Panel*>{"clip-efficiency", &efficiency_panel}}) {
    svg += fmt::format("<clipPath id=\"{}\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"/></clipPath>\n", id,
                       panel->left, panel->top, panel->width, panel->height);
  }
  svg += "</defs>\n";
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, height);
  svg += fmt::format("<text class=\"title\" x=\"{:.0f}\" y=\"34\" text-anchor=\"middle\" font-size=\"20\" font-weight=\"bold\">{}</text>\n",
                     width / 2, svg_escape(title));
  svg += fmt::format("<text class=\"subtitle\" x=\"{:.0f}\" y=\"58\" text-anchor=\"middle\" fill=\"#444444\">{}</text>\n",
                     width / 2, svg_escape(subtitle));
  return svg;
}

// The ideal references: speedup p (or the one p against the size), efficiency 1.
std::string ideal_lines(const Panel& speedup_panel, const Panel& efficiency_panel, const Ranges& r,
                        const Layout& layout) {
  std::string svg = "<g class=\"reference\" clip-path=\"url(#clip-speedup)\">\n";
  svg += fmt::format("<line class=\"ideal\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>\n",
                     speedup_panel.x(r.x_low), speedup_panel.y(layout.against_size ? layout.only_p : r.x_low),
                     speedup_panel.x(r.x_high), speedup_panel.y(layout.against_size ? layout.only_p : r.x_high));
  svg += "</g>\n<g class=\"reference\" clip-path=\"url(#clip-efficiency)\">\n";
  svg += fmt::format("<line class=\"ideal\" x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>\n",
                     efficiency_panel.x(r.x_low), efficiency_panel.y(1), efficiency_panel.x(r.x_high), efficiency_panel.y(1));
  return svg + "</g>\n";
}

// The legend, right of the panels: a sample of each line (and band), then the reference, then
// what the bands mean, once per kind of band drawn.
std::string legend(const std::vector<Series>& series, const std::vector<solvers::Method>& methods, double row_height,
                   double legend_font, const Layout& layout) {
  std::string svg = "<g class=\"legend\">\n";
  double y = 100;
  const double x = 712;
  svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" font-weight=\"bold\">Legend</text>\n", x, y);
  y += 22;
  for (const Series& one : series) {
    svg += fmt::format("<g class=\"legend-entry\" font-size=\"{:g}\">", legend_font);
    if (one.band) {
      svg += fmt::format("<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"30\" height=\"12\" fill=\"{}\" fill-opacity=\"0.18\"/>", x,
                         y - 10, one.colour);
    }
    svg += fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"{}\" stroke-width=\"2\"{}/>", x, y - 4,
                       x + 30, y - 4, one.colour,
                       one.dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", one.dash));
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n", x + 38, y, svg_escape(one.label));
    y += row_height;
  }
  svg += fmt::format(
      "<g class=\"legend-entry\" font-size=\"{:g}\"><line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\" stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"/>"
      "<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n",
      legend_font, x, y - 4, x + 30, y - 4, x + 38, y,
      layout.against_size ? fmt::format("ideal (speedup {:g})", layout.only_p) : "ideal (speedup p)");
  y += 28;
  for (solvers::IntervalKind kind : {solvers::IntervalKind::BoundPair, solvers::IntervalKind::Confidence95}) {
    for (solvers::Method method : methods) {
      if (solvers::info(method).interval != kind) continue;
      const std::string name{solvers::info(method).name};
      if (kind == solvers::IntervalKind::BoundPair) {
        svg += fmt::format("<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">{}: shaded between the</text>\n", x, y, name);
        svg += fmt::format("<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">speedups the bounds imply</text>\n", x, y + 14);
        y += 34;
      } else {
        svg += fmt::format("<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">{}: shaded 95% confidence</text>\n", x, y, name);
      }
    }
  }
  return svg + "</g>\n</svg>\n";
}

}  // namespace

std::string render_plot(const analysis::StudyResult& study, const ReportInputs& inputs) {
  Layout layout;
  layout.against_size = study.processors().size() == 1 && inputs.sweeps.size() == 1 &&
                        inputs.sweeps.front().values.size() > 1;
  layout.only_p = study.processors().empty() ? 1.0 : study.processors().front();
  const std::vector<Series> series = all_series(study, inputs, layout);
  const Ranges r = ranges_of(series, study, inputs, layout);

  // The legend sits right of the panels: wider for long labels (about 7.5 px a character at
  // 13 px), its rows closer together when there are many lines.
  std::size_t longest = 18;  // "ideal (speedup p)" and the band notes
  for (const Series& one : series) longest = std::max(longest, display_length(one.label));
  const double width = std::max(960.0, 750.0 + 7.5 * static_cast<double>(longest) + 12.0);
  constexpr double kHeight = 820;
  const double row_height = std::clamp(560.0 / static_cast<double>(series.size() + 1), 11.0, 20.0);
  const Panel speedup_panel{90, 90, 600, 320, r.x_low, r.x_high, 0, r.speedup_ticks.back()};
  const Panel efficiency_panel{90, 500, 600, 260, r.x_low, r.x_high, 0, r.efficiency_ticks.back()};

  std::string title = fmt::format("Predicted speedup and efficiency of {}", inputs.program_name);
  if (layout.against_size) title += fmt::format(" on {:g} processors", layout.only_p);
  const std::string x_label =
      layout.against_size ? "problem size: " + inputs.sweeps.front().name : std::string("processors p");
  std::string svg = opening(width, kHeight, title, subtitle_of(study, inputs), speedup_panel, efficiency_panel);
  svg += axes(speedup_panel, r.x_ticks, r.speedup_ticks, x_label, "speedup T(1) / T(p)");
  svg += axes(efficiency_panel, r.x_ticks, r.efficiency_ticks, x_label, "efficiency (speedup / p)");
  svg += ideal_lines(speedup_panel, efficiency_panel, r, layout);
  svg += curves(speedup_panel, series, "clip-speedup", [](double, double s) { return s; });
  svg += curves(efficiency_panel, series, "clip-efficiency", [](double p, double s) { return s / p; });
  return svg + legend(series, study.methods(), row_height, std::min(13.0, row_height - 2.0), layout);
}

}  // namespace app
