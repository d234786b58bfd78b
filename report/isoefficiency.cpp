// --isoefficiency's report: per machine and p, the size that holds the target efficiency.
#include <fmt/format.h>

#include "report/report.hpp"
#include "report/data.hpp"
#include "report/text.hpp"

namespace report {

namespace {

using namespace report_text;
using analysis::IsoefficiencyPoint;

std::string size_text(const IsoefficiencyPoint& point) {
  if (!point.size) return "-";
  if (!point.machine_constant) return fmt::format("{:.0f}", *point.size);
  return fmt::format("{} {:.6g}{}", point.holds == IsoefficiencyPoint::Holds::AtMost ? "≤" : "≥", *point.size,
                     point.whole_range ? " *" : "");
}

const char* holds_text(const IsoefficiencyPoint& point) {
  return point.holds == IsoefficiencyPoint::Holds::AtMost ? "at most" : "at least";
}

bool over_constant(const std::vector<IsoefficiencyPoint>& points) {
  return !points.empty() && points.front().machine_constant;
}

std::string iso_csv(const std::vector<IsoefficiencyPoint>& points, const analysis::IsoefficiencyOptions& iso,
                    const ReportInputs& inputs) {
  const bool constant = over_constant(points);
  std::string out = "machine,p,target," + csv_text(iso.variable) + ",efficiency,mean" +
                    (constant ? ",holds,range_low,range_high,whole_range\n" : "\n");
  for (const IsoefficiencyPoint& point : points) {
    const std::string size = !point.size ? std::string()
                             : constant  ? fmt::format("{:.17g}", *point.size)
                                         : fmt::format("{:.0f}", *point.size);
    out += fmt::format("{},{},{:.17g},{},{:.17g},{:.17g}", csv_text(inputs.machines[point.machine_index].name), point.p,
                       iso.target, size, point.efficiency, point.mean);
    if (constant) {
      out += fmt::format(",{},{:.17g},{:.17g},{}", holds_text(point), point.range_low, point.range_high,
                         point.whole_range ? "true" : "false");
    }
    out += "\n";
  }
  return out;
}

std::string iso_json(const std::vector<IsoefficiencyPoint>& points, const analysis::IsoefficiencyOptions& iso,
                     const ReportInputs& inputs) {
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["inputs"] = report_data::inputs_json(inputs);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const IsoefficiencyPoint& point : points) {
    rows.push_back({{"machine", inputs.machines[point.machine_index].name},
                    {"p", point.p},
                    {"size", point.size ? nlohmann::ordered_json(*point.size) : nlohmann::ordered_json(nullptr)},
                    {"efficiency", point.efficiency},
                    {"mean", point.mean},
                    {"evaluations", point.evaluations}});
    if (point.machine_constant) {
      rows.back()["holds"] = holds_text(point);
      rows.back()["range"] = {point.range_low, point.range_high};
      rows.back()["whole_range"] = point.whole_range;
    }
  }
  document["isoefficiency"] = {{"target", iso.target},
                               {"variable", iso.variable},
                               {"over", over_constant(points) ? "machine constant" : "program variable"},
                               {"method", "approx"},
                               {"max_size", iso.max_size},
                               {"points", rows}};
  return document.dump(2) + "\n";
}

std::string iso_table(const std::vector<IsoefficiencyPoint>& points, const analysis::IsoefficiencyOptions& iso,
                      const ReportInputs& inputs) {
  const bool several = inputs.machines.size() > 1;
  std::string out = heading(inputs);
  const bool constant = over_constant(points);
  if (constant) {
    out += fmt::format(
        "isoefficiency {:g} over the machine constant {}: per p, the bound on {} within which the "
        "efficiency (approximate model) is at least {:g}, to a relative {:g}\n",
        iso.target, iso.variable, iso.variable, iso.target, iso.relative_precision);
  } else {
    out += fmt::format(
        "isoefficiency {:g}: per p, the smallest {} whose efficiency (approximate model) is at least {:g}\n",
        iso.target, iso.variable, iso.target);
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header;
  if (several) header.push_back("machine");
  header.insert(header.end(), {"p", iso.variable, "efficiency", "runtime"});
  if (constant) header.push_back("searched");
  cells.push_back(header);
  bool unreached = false, whole = false;
  for (const IsoefficiencyPoint& point : points) {
    std::vector<std::string> line;
    if (several) line.push_back(inputs.machines[point.machine_index].name);
    line.insert(line.end(), {std::to_string(point.p), size_text(point), fmt::format("{:.3f}", point.efficiency),
                             number(point.mean)});
    if (constant) line.push_back(fmt::format("[{:.6g}, {:.6g}]", point.range_low, point.range_high));
    unreached = unreached || !point.size;
    whole = whole || point.whole_range;
    cells.push_back(std::move(line));
  }
  out += align(cells, several ? 1 : 0, several ? 1 : 0);
  if (constant) {
    if (unreached) {
      out += fmt::format(
          "-: no {} in the range searched reaches the efficiency; the efficiency shown is at the end "
          "where it is highest\n",
          iso.variable);
    }
    if (whole) out += "*: every value searched reaches the efficiency; the bound shown is the range's end\n";
    return out;
  }
  if (unreached) {
    out += fmt::format("-: no {} up to {:g} (--iso-max) reaches the efficiency; the efficiency shown is at that size\n",
                       iso.variable, iso.max_size);
  }
  return out;
}

}  // namespace

std::string render_isoefficiency(const std::vector<IsoefficiencyPoint>& points,
                                 const analysis::IsoefficiencyOptions& iso, const ReportInputs& inputs, Format format) {
  if (format == Format::Csv) return iso_csv(points, iso, inputs);
  if (format == Format::Json) return iso_json(points, iso, inputs);
  return iso_table(points, iso, inputs);
}

}  // namespace report
