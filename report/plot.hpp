// --plot FILE.svg: the speedup and efficiency curves of a study as an SVG chart for a report;
// and what every chart of pdl-scale shares (plot_common.cpp): the line styles, markers, axes,
// ticks and title, so that another chart (plot_tail.cpp, a breakdown chart) draws the same way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/study.hpp"
#include "report/report.hpp"

namespace report {

// What the command line says about the charts' axes.
struct ChartOptions {
  // --log-axes: the x axis (p, or the swept size) on a log2 scale whatever its values, and the
  // speedup axis on a log2 scale too. Without it the x axis is log2 only when its values are
  // all powers of two and at least three (is_log2_automatic), the others linear.
  bool log_axes = false;
};

// Two panels over p, speedup above and efficiency below: one line per (machine or swept
// value, method), each with its own style (line_style), markers on its points; every interval
// (approx's bracket, mc's confidence interval) a translucent band around its line, and the
// bounds a band alone (they have no estimate); the ideal speedup (p) and efficiency (1) dashed
// grey for reference; axes by ChartOptions, a legend and a title (chart_title). The --loss
// cases are not drawn. A self-contained SVG 1.1 document (no scripts, no external fonts).
std::string render_plot(const analysis::StudyResult& study, const ReportInputs& inputs, const ChartOptions& chart);

// ---- shared by the charts (plot_common.cpp) ------------------------------------------------

// A point marker's shape.
enum class Marker { Circle, Square, Triangle, Diamond, InvertedTriangle, Cross };

struct LineStyle {
  std::string_view colour;  // "#rrggbb"
  std::string_view dash;    // an SVG stroke-dasharray, empty for a solid line
  Marker marker;
};

// 8 colours (Okabe and Ito's colour-blind-safe palette, its yellow replaced by a dark red) ×
// 6 (dash, marker) pairs: solid with circles, dashed with squares, dotted with triangles,
// dash-dot with diamonds, long dashes with inverted triangles, dash-dot-dot with crosses.
// Style i has colour i mod 8 and pair (i div 8) mod 6: the first kDistinctLineStyles are
// pairwise different, after which they repeat.
inline constexpr std::size_t kLineColours = 8;
inline constexpr std::size_t kDistinctLineStyles = 48;
LineStyle line_style(std::size_t index);

// The style index of the line of `group` (a machine, swept value) and `kind` (a method) among
// `groups` × `kinds` lines: with one group, kind k's colour and dash and marker k (style 9k);
// with at most 8 groups and 6 kinds, the group's colour and the kind's dash and marker (a
// legend read by colour and by dash); else the lines numbered in order (group-major).
// Distinct for every line while groups × kinds <= kDistinctLineStyles.
std::size_t style_index(std::size_t group, std::size_t groups, std::size_t kind, std::size_t kinds);

// ` stroke="…" stroke-width="…"` and the dash (if any) of a line of this style.
std::string stroke_attributes(const LineStyle& style, double width);
// A marker of `shape` centred on (x, y), filled (or, a cross, stroked) in `colour`, as one SVG
// element of class "marker <shape>".
std::string marker_svg(Marker shape, double x, double y, std::string_view colour);
std::string_view marker_name(Marker shape);

// One axis: the values at its two ends, linear or log2, and its ticks.
struct Axis {
  double low = 0, high = 1;
  bool log = false;  // log2: equal distances for equal ratios
  std::vector<double> ticks;
  // Where `value` lies between the ends, 0 at low and 1 at high (outside for values outside;
  // a value <= 0 on a log axis far below it).
  double fraction(double value) const;
};

// True when the values are all powers of two (1, 2, 4, ...) and at least three distinct.
bool is_log2_automatic(const std::vector<double>& values);
// The ticks of a log2 axis over [low, high]: the powers of two within it, every second or
// fourth one (1, 4, 16, ... or 1, 16, 256, ...) when there would be more than `most`.
std::vector<double> log2_ticks(double low, double high, int most);

// Round tick values covering [low, high]: steps of 1, 2, 2.5 or 5 times a power of ten, about
// `target` of them; integers only when `integers`.
std::vector<double> nice_ticks(double low, double high, int target, bool integers);

// Text for SVG content and attributes: & < > " escaped.
std::string svg_escape(const std::string& text);
// An SVG document's opening, shared by the charts: the XML declaration, the <svg> element of
// width x height with the charts' fonts, and its <title>.
std::string svg_opening(double width, double height, const std::string& title);
// A tick's label: whole values without decimals, others as {:g}.
std::string tick_label(double value);
// Characters on screen: "·" is two bytes of UTF-8 but one character.
std::size_t display_length(const std::string& text);

// A chart's title: the program's file name, the machines and the size, e.g. "neighbor.pdl on
// cluster and smp, columns = 10..160 (5 values), iterations = 2". Swept variables first (their
// values, or first..last when more than four), then those bound to an expression of P, then the
// others. Longer than `most` characters, it is shortened step by step: swept values as
// first..last, the variables neither swept nor of P dropped ("+N variables"), the machines
// counted ("3 machines"), and at last cut with "…".
std::string chart_title(const ReportInputs& inputs, std::size_t most);

// ---- the drawing of a chart of one panel (the tail and validation charts) ----------------

// A panel's rectangle in the document and the axes that place values in it.
struct PlotArea {
  double left, top, width, height;
  Axis x_axis, y_axis;
  double x(double value) const { return left + x_axis.fraction(value) * width; }
  double y(double value) const { return top + height - y_axis.fraction(value) * height; }
};

// The dashed grey stroke of a reference line (the tail chart's p95 = mean; the speedup chart's
// ideal lines look the same), as attributes.
inline constexpr std::string_view kReferenceStroke =
    " stroke=\"#888888\" stroke-width=\"1.5\" stroke-dasharray=\"4,4\"";

// The opening of a chart of one panel: svg_opening, the panel's clip path `clip_id`, a white
// background, the title (bold, `title_size` px) and the subtitle under it.
std::string one_panel_opening(double width, double height, const std::string& title, double title_size,
                              const std::string& subtitle, std::string_view clip_id, const PlotArea& area);
// The panel of a one-panel chart over p (the tail and sensitivity charts): its place in the
// document; the legend is right of it.
inline constexpr double kOnePanelLeft = 90, kOnePanelTop = 80, kOnePanelWidth = 560, kOnePanelHeight = 340;
// A light grey grid line across the panel at a tick of its y axis, or up it at one of its x axis.
std::string grid_line_across(const PlotArea& area, double y_tick);
std::string grid_line_up(const PlotArea& area, double x_tick);
// A tick's label, left of the panel (y axis) or under it (x axis).
std::string y_tick_label(const PlotArea& area, double tick);
std::string x_tick_label(const PlotArea& area, double tick);
// The p axis of a one-panel chart over the study's processor counts: log2 or linear as the
// speedup chart's (ChartOptions::log_axes, or every p a power of two).
Axis p_axis(const analysis::StudyResult& study, const ChartOptions& chart);
// The panel's border.
std::string area_frame(const PlotArea& area);
// An axis' label, centred along its side of the panel: the x axis' `below` px under the
// panel's bottom edge, the y axis' turned a quarter, `left_of` px left of its left edge.
std::string x_axis_label(const PlotArea& area, double below, const std::string& text);
std::string y_axis_label(const PlotArea& area, double left_of, const std::string& text);

// A row of a legend: `sample` (a line, a marker, both) and then `label` at (text_x, y).
std::string legend_entry(double font_size, const std::string& sample, double text_x, double y,
                         const std::string& label);
// A legend's sample of a line from x1 to x2 at height y; `attributes` give its stroke.
std::string legend_line(double x1, double x2, double y, std::string_view attributes);

// A one-panel chart's axes over p: grid, ticks, frame, "processors p" (with "(log scale)") under
// it and `y_label` left of it.
std::string p_axes_svg(const PlotArea& area, const std::string& y_label);
// One series of a one-panel chart: its polyline (titled `label`) through `points` (x, y) and its
// markers, on every point up to 24, else on points a twentieth of the width apart and the last.
std::string series_svg(const PlotArea& area, const LineStyle& style, const std::string& label,
                       const std::vector<std::pair<double, double>>& points);
// The rows of a one-panel chart's legend from (x, *y) down, one per (style, label), each a line
// sample with its marker; *y ends below the last row.
std::string series_legend_rows(const std::vector<std::pair<LineStyle, std::string>>& series, double x, double* y,
                               double row_height);
// The note under a legend whose styles repeat (more than kDistinctLineStyles series).
std::string repeated_styles_note(std::size_t series, double x, double y);

}  // namespace report
