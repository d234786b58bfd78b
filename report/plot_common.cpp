// What the charts share: styles, markers, axes, ticks, escapes, the title and the drawing of a
// chart of one panel (plot.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "report/plot.hpp"

namespace report {

namespace {

// Okabe and Ito's colour-blind-safe palette without its yellow (too light for a line on white),
// with Paul Tol's wine in its place; the first lines get the most distinct colours.
constexpr std::string_view kColours[kLineColours] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                     "#E69F00", "#56B4E9", "#000000", "#882255"};

struct DashAndMarker {
  std::string_view dash;
  Marker marker;
};
// A dash and a marker together: a line too short to show its dash still shows its marker.
constexpr DashAndMarker kDashesAndMarkers[] = {
    {"", Marker::Circle},
    {"8,4", Marker::Square},
    {"2,3", Marker::Triangle},
    {"8,3,2,3", Marker::Diamond},
    {"16,5", Marker::InvertedTriangle},
    {"10,3,2,3,2,3", Marker::Cross},
};
static_assert(kLineColours * std::size(kDashesAndMarkers) == kDistinctLineStyles);

}  // namespace

LineStyle line_style(std::size_t index) {
  const DashAndMarker& pair = kDashesAndMarkers[(index / kLineColours) % std::size(kDashesAndMarkers)];
  return {kColours[index % kLineColours], pair.dash, pair.marker};
}

std::size_t style_index(std::size_t group, std::size_t groups, std::size_t kind, std::size_t kinds) {
  if (groups == 1 && kinds <= std::size(kDashesAndMarkers)) return kind * (kLineColours + 1);
  if (groups <= kLineColours && kinds <= std::size(kDashesAndMarkers)) return group + kLineColours * kind;
  return group * kinds + kind;
}

std::string stroke_attributes(const LineStyle& style, double width) {
  std::string out = fmt::format(" stroke=\"{}\" stroke-width=\"{:g}\"", style.colour, width);
  if (!style.dash.empty()) out += fmt::format(" stroke-dasharray=\"{}\"", style.dash);
  return out;
}

std::string_view marker_name(Marker shape) {
  switch (shape) {
    case Marker::Circle: return "circle";
    case Marker::Square: return "square";
    case Marker::Triangle: return "triangle";
    case Marker::Diamond: return "diamond";
    case Marker::InvertedTriangle: return "inverted-triangle";
    case Marker::Cross: return "cross";
  }
  return "circle";
}

std::string marker_svg(Marker shape, double x, double y, std::string_view colour) {
  const std::string_view name = marker_name(shape);
  switch (shape) {
    case Marker::Circle:
      return fmt::format("<circle class=\"marker {}\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3.5\" fill=\"{}\"/>", name, x, y,
                         colour);
    case Marker::Square:
      return fmt::format(
          "<rect class=\"marker {}\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"6.4\" height=\"6.4\" fill=\"{}\"/>", name,
          x - 3.2, y - 3.2, colour);
    case Marker::Triangle:
      return fmt::format("<path class=\"marker {}\" d=\"M{:.2f},{:.2f} L{:.2f},{:.2f} L{:.2f},{:.2f} Z\" fill=\"{}\"/>",
                         name, x, y - 4.5, x + 4.2, y + 3, x - 4.2, y + 3, colour);
    case Marker::Diamond:
      return fmt::format(
          "<path class=\"marker {}\" d=\"M{:.2f},{:.2f} L{:.2f},{:.2f} L{:.2f},{:.2f} L{:.2f},{:.2f} Z\" fill=\"{}\"/>",
          name, x, y - 4.6, x + 4.2, y, x, y + 4.6, x - 4.2, y, colour);
    case Marker::InvertedTriangle:
      return fmt::format("<path class=\"marker {}\" d=\"M{:.2f},{:.2f} L{:.2f},{:.2f} L{:.2f},{:.2f} Z\" fill=\"{}\"/>",
                         name, x, y + 4.5, x + 4.2, y - 3, x - 4.2, y - 3, colour);
    case Marker::Cross:
      return fmt::format(
          "<path class=\"marker {}\" d=\"M{:.2f},{:.2f} L{:.2f},{:.2f} M{:.2f},{:.2f} L{:.2f},{:.2f}\" "
          "fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
          name, x - 3.6, y - 3.6, x + 3.6, y + 3.6, x - 3.6, y + 3.6, x + 3.6, y - 3.6, colour);
  }
  return {};
}

double Axis::fraction(double value) const {
  if (!log) return (value - low) / (high - low);
  if (!(value > 0.0)) return -1e3;  // clipped by the panel
  return (std::log2(value) - std::log2(low)) / (std::log2(high) - std::log2(low));
}

bool is_log2_automatic(const std::vector<double>& values) {
  std::set<double> distinct;
  for (double value : values) {
    if (!(value >= 1.0) || std::exp2(std::round(std::log2(value))) != value) return false;
    distinct.insert(value);
  }
  return distinct.size() >= 3;
}

std::vector<double> log2_ticks(double low, double high, int most) {
  const int first = static_cast<int>(std::ceil(std::log2(low) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log2(high) + 1e-9));
  int stride = 1;
  while ((last - first) / stride + 1 > std::max(2, most)) stride *= 2;
  std::vector<double> ticks;
  // Exponents on multiples of the stride: 1, 4, 16, ... rather than 2, 8, 32, ...
  for (int e = first; e <= last; ++e) {
    if (e % stride == 0) ticks.push_back(std::exp2(e));
  }
  return ticks;
}

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

std::size_t display_length(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

namespace {

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return out;
}

std::string swept_values(const analysis::SweepVariable& sweep, bool short_form) {
  const std::vector<double>& values = sweep.values;
  if (values.size() == 1) return fmt::format("{} = {:g}", sweep.name, values.front());
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  const std::string range = fmt::format("{} = {:g}..{:g} ({} values)", sweep.name, *low, *high, values.size());
  if (values.size() > 4) return range;
  std::vector<double> sorted = values;  // in the order of the axis, not of the command line
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (double value : sorted) out += fmt::format("{}{:g}", out.empty() ? "" : ", ", value);
  const std::string list = fmt::format("{} = {}", sweep.name, out);
  return short_form && range.size() < list.size() ? range : list;
}

}  // namespace

std::string svg_opening(double width, double height, const std::string& title) {
  return fmt::format(
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
             "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
             "font-size=\"13\">\n",
             width, height) +
         fmt::format("<title>{}</title>\n", svg_escape(title));
}

std::string chart_title(const ReportInputs& inputs, std::size_t most) {
  // Several programs (pdl-scale a.pdl b.pdl): their labels, which are unique file names.
  std::vector<std::string> programs;
  if (inputs.programs.size() > 1) {
    for (const ProgramInput& one : inputs.programs) programs.push_back(one.label);
  } else {
    programs.push_back(std::filesystem::path(inputs.program_file).filename().string());
  }
  std::vector<std::string> machines;
  // The built-in machine (no file) is named "ideal", which reads as an adjective in a title.
  for (const MachineInput& machine : inputs.machines) {
    machines.push_back(machine.file.empty() ? "the " + machine.name + " machine" : machine.name);
  }
  for (int level = 0;; ++level) {
    std::vector<std::string> size;
    for (const analysis::SweepVariable& sweep : inputs.sweeps) size.push_back(swept_values(sweep, level >= 1));
    for (const auto& [name, expression] : inputs.per_processor_variables) size.push_back(name + " = " + expression);
    std::size_t others = 0;
    for (const auto& [name, value] : inputs.variables) {
      if (inputs.per_processor_variables.contains(name)) continue;
      ++others;
      if (level < 2) size.push_back(fmt::format("{} = {:g}", name, value));
    }
    if (level >= 2 && others > 0) size.push_back(fmt::format("+{} variable{}", others, others == 1 ? "" : "s"));
    const std::string on =
        level >= 3 && machines.size() > 1 ? fmt::format("{} machines", machines.size()) : listed(machines);
    const std::string program =
        level >= 3 && programs.size() > 1 ? fmt::format("{} programs", programs.size()) : listed(programs);
    std::string title = program + " on " + on;
    for (const std::string& item : size) title += ", " + item;
    if (display_length(title) <= most || level >= 3) {
      if (display_length(title) <= most) return title;
      // Cut on a character boundary (UTF-8 continuation bytes are 10xxxxxx).
      std::size_t end = 0, shown = 0;
      while (end < title.size() && shown + 1 < most) {
        ++end;
        while (end < title.size() && (static_cast<unsigned char>(title[end]) & 0xC0) == 0x80) ++end;
        ++shown;
      }
      return title.substr(0, end) + "…";
    }
  }
}

std::string one_panel_opening(double width, double height, const std::string& title, double title_size,
                              const std::string& subtitle, std::string_view clip_id, const PlotArea& area) {
  std::string svg = svg_opening(width, height, title);
  svg += fmt::format(
      "<defs><clipPath id=\"{}\"><rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"/>"
      "</clipPath></defs>\n",
      clip_id, area.left, area.top, area.width, area.height);
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", width, height);
  svg += fmt::format(
      "<text class=\"title\" x=\"{:.0f}\" y=\"34\" text-anchor=\"middle\" font-size=\"{:g}\" "
      "font-weight=\"bold\">{}</text>\n",
      width / 2, title_size, svg_escape(title));
  svg +=
      fmt::format("<text class=\"subtitle\" x=\"{:.0f}\" y=\"56\" text-anchor=\"middle\" fill=\"#444444\">{}</text>\n",
                  width / 2, svg_escape(subtitle));
  return svg;
}

std::string grid_line_across(const PlotArea& area, double y_tick) {
  return fmt::format("<line x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{2:.2f}\" y2=\"{1:.2f}\" stroke=\"#e0e0e0\"/>\n",
                     area.left, area.y(y_tick), area.left + area.width);
}

std::string grid_line_up(const PlotArea& area, double x_tick) {
  return fmt::format("<line x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{0:.2f}\" y2=\"{2:.2f}\" stroke=\"#e0e0e0\"/>\n",
                     area.x(x_tick), area.top, area.top + area.height);
}

std::string y_tick_label(const PlotArea& area, double tick) {
  return fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                     area.left - 8, area.y(tick) + 4, tick_label(tick));
}

std::string x_tick_label(const PlotArea& area, double tick) {
  return fmt::format("<text class=\"tick-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                     area.x(tick), area.top + area.height + 18, tick_label(tick));
}

Axis p_axis(const analysis::StudyResult& study, const ChartOptions& chart) {
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
  return x_axis;
}

std::string area_frame(const PlotArea& area) {
  return fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"none\" stroke=\"#333333\"/>\n",
      area.left, area.top, area.width, area.height);
}

std::string x_axis_label(const PlotArea& area, double below, const std::string& text) {
  return fmt::format("<text class=\"axis-label\" x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\">{}</text>\n",
                     area.left + area.width / 2, area.top + area.height + below, svg_escape(text));
}

std::string y_axis_label(const PlotArea& area, double left_of, const std::string& text) {
  return fmt::format(
      "<text class=\"axis-label\" x=\"{0:.2f}\" y=\"{1:.2f}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 {0:.2f} {1:.2f})\">{2}</text>\n",
      area.left - left_of, area.top + area.height / 2, svg_escape(text));
}

std::string legend_entry(double font_size, const std::string& sample, double text_x, double y,
                         const std::string& label) {
  return fmt::format("<g class=\"legend-entry\" font-size=\"{:g}\">{}<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text></g>\n",
                     font_size, sample, text_x, y, svg_escape(label));
}

std::string legend_line(double x1, double x2, double y, std::string_view attributes) {
  return fmt::format("<line x1=\"{:.0f}\" y1=\"{:.0f}\" x2=\"{:.0f}\" y2=\"{:.0f}\"{}/>", x1, y, x2, y, attributes);
}

std::string series_svg(const PlotArea& area, const LineStyle& style, const std::string& label,
                       const std::vector<std::pair<double, double>>& points) {
  std::string drawn;
  for (const auto& [x, y] : points) drawn += fmt::format("{:.2f},{:.2f} ", area.x(x), area.y(y));
  if (!drawn.empty()) drawn.pop_back();
  std::string svg;
  if (points.size() > 1) {
    svg += fmt::format("<polyline class=\"series\" points=\"{}\" fill=\"none\"{}><title>{}</title></polyline>\n", drawn,
                       stroke_attributes(style, 2), svg_escape(label));
  }
  double last_marker = -1e300;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double x = area.x(points[i].first);
    if (points.size() > 24 && i + 1 != points.size() && x - last_marker < area.width / 20) continue;
    svg += marker_svg(style.marker, x, area.y(points[i].second), style.colour) + "\n";
    last_marker = x;
  }
  return svg;
}

std::string series_legend_rows(const std::vector<std::pair<LineStyle, std::string>>& series, double x, double* y,
                               double row_height) {
  std::string svg;
  const double font = std::min(13.0, row_height - 2.0);
  for (const auto& [style, label] : series) {
    const std::string sample = legend_line(x, x + 30, *y - 4, stroke_attributes(style, 2)) +
                               marker_svg(style.marker, x + 15, *y - 4, style.colour);
    svg += legend_entry(font, sample, x + 38, *y, label);
    *y += row_height;
  }
  return svg;
}

std::string repeated_styles_note(std::size_t series, double x, double y) {
  if (series <= kDistinctLineStyles) return {};
  return fmt::format(
      "<text class=\"note\" x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"11\" fill=\"#444444\">styles repeat "
      "after {} lines</text>\n",
      x, y, kDistinctLineStyles);
}

std::string p_axes_svg(const PlotArea& area, const std::string& y_label) {
  std::string svg = "<g class=\"axes\">\n";
  for (double tick : area.y_axis.ticks) svg += grid_line_across(area, tick) + y_tick_label(area, tick);
  for (double tick : area.x_axis.ticks) svg += grid_line_up(area, tick) + x_tick_label(area, tick);
  svg += area_frame(area);
  svg += x_axis_label(area, 40, fmt::format("processors p{}", area.x_axis.log ? " (log scale)" : ""));
  svg += y_axis_label(area, 52, y_label);
  return svg + "</g>\n";
}

}  // namespace report
