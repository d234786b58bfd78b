// --isoefficiency's report: per machine and p, the size that holds the target efficiency.
#include <fmt/format.h>

#include "app/report.hpp"
#include "app/report_data.hpp"
#include "app/report_text.hpp"

namespace app {

namespace {

using namespace report_text;
using analysis::IsoefficiencyPoint;

std::string size_text(const IsoefficiencyPoint& point) {
  return point.size ? fmt::format("{:.0f}", *point.size) : std::string("-");
}

std::string iso_csv(const std::vector<IsoefficiencyPoint>& points, const analysis::IsoefficiencyOptions& iso,
                    const ReportInputs& inputs) {
  std::string out = "machine,p,target," + csv_text(iso.variable) + ",efficiency,mean\n";
  for (const IsoefficiencyPoint& point : points) {
    out += fmt::format("{},{},{:.17g},{},{:.17g},{:.17g}\n", csv_text(inputs.machines[point.machine_index].name),
                       point.p, iso.target, point.size ? fmt::format("{:.0f}", *point.size) : std::string(),
                       point.efficiency, point.mean);
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
  }
  document["isoefficiency"] = {{"target", iso.target},
                               {"variable", iso.variable},
                               {"method", "approx"},
                               {"max_size", iso.max_size},
                               {"points", rows}};
  return document.dump(2) + "\n";
}

std::string iso_table(const std::vector<IsoefficiencyPoint>& points, const analysis::IsoefficiencyOptions& iso,
                      const ReportInputs& inputs) {
  const bool several = inputs.machines.size() > 1;
  std::string out = heading(inputs);
  out += fmt::format("isoefficiency {:g}: per p, the smallest {} whose efficiency (approximate model) is at least {:g}\n",
                     iso.target, iso.variable, iso.target);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header;
  if (several) header.push_back("machine");
  header.insert(header.end(), {"p", iso.variable, "efficiency", "runtime"});
  cells.push_back(header);
  bool unreached = false;
  for (const IsoefficiencyPoint& point : points) {
    std::vector<std::string> line;
    if (several) line.push_back(inputs.machines[point.machine_index].name);
    line.insert(line.end(), {std::to_string(point.p), size_text(point), fmt::format("{:.3f}", point.efficiency),
                             number(point.mean)});
    unreached = unreached || !point.size;
    cells.push_back(std::move(line));
  }
  out += align(cells, several ? 1 : 0, several ? 1 : 0);
  if (unreached) {
    out += fmt::format("-: no {} up to {:g} (--iso-max) reaches the efficiency; the efficiency shown is at that size\n",
                       iso.variable, iso.max_size);
  }
  return out;
}

}  // namespace

std::string render_isoefficiency(const std::vector<IsoefficiencyPoint>& points,
                                 const analysis::IsoefficiencyOptions& iso, const ReportInputs& inputs,
                                 Format format) {
  if (format == Format::Csv) return iso_csv(points, iso, inputs);
  if (format == Format::Json) return iso_json(points, iso, inputs);
  return iso_table(points, iso, inputs);
}

}  // namespace app
