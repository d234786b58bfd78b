#include "report/isospeed.hpp"

#include <fmt/format.h>

#include "report/data.hpp"
#include "report/text.hpp"

namespace report {

namespace {

using namespace report_text;
using analysis::IsospeedPoint;

std::string size_text(const IsospeedPoint& point) {
  return point.size ? fmt::format("{:.0f}", *point.size) : std::string("-");
}

// The points of one machine, in the order of p.
std::vector<IsospeedPoint> of_machine(const analysis::IsospeedResult& result, std::size_t m) {
  std::vector<IsospeedPoint> points;
  for (const IsospeedPoint& point : result.points) {
    if (point.machine_index == m) points.push_back(point);
  }
  return points;
}

std::string psi_text(const std::optional<double>& psi) { return psi ? fmt::format("{:.5f}", *psi) : std::string("-"); }

std::string isospeed_csv(const analysis::IsospeedResult& result, const analysis::IsospeedOptions& options,
                         const ReportInputs& inputs) {
  std::string out = "machine,p," + csv_text(options.variable) + ",work,speed,fraction,mean,psi_from_first\n";
  for (std::size_t m = 0; m < inputs.machines.size(); ++m) {
    const std::vector<IsospeedPoint> points = of_machine(result, m);
    for (const IsospeedPoint& point : points) {
      out += fmt::format("{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", csv_text(inputs.machines[m].name), point.p,
                         point.size ? fmt::format("{:.0f}", *point.size) : std::string(), point.work, point.speed,
                         result.fraction[m], point.mean,
                         csv_number(analysis::isospeed_scalability(points.front(), point)));
    }
  }
  return out;
}

std::string isospeed_json(const analysis::IsospeedResult& result, const analysis::IsospeedOptions& options,
                          const ReportInputs& inputs) {
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["inputs"] = report_data::inputs_json(inputs);
  nlohmann::ordered_json machines = nlohmann::ordered_json::array();
  for (std::size_t m = 0; m < inputs.machines.size(); ++m) {
    const std::vector<IsospeedPoint> points = of_machine(result, m);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    nlohmann::ordered_json psi = nlohmann::ordered_json::array();
    for (const IsospeedPoint& point : points) {
      rows.push_back({{"p", point.p},
                      {"size", point.size ? nlohmann::ordered_json(*point.size) : nlohmann::ordered_json(nullptr)},
                      {"work", point.work},
                      {"speed", point.speed},
                      {"mean", point.mean},
                      {"evaluations", point.evaluations}});
      nlohmann::ordered_json line = nlohmann::ordered_json::array();
      for (const IsospeedPoint& to : points) {
        const auto value = to.p >= point.p ? analysis::isospeed_scalability(point, to) : std::nullopt;
        line.push_back(value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr));
      }
      psi.push_back(std::move(line));
    }
    machines.push_back({{"machine", inputs.machines[m].name},
                        {"speed", result.speed[m]},
                        {"fraction", result.fraction[m]},
                        {"points", rows},
                        {"psi", psi}});
  }
  document["isospeed"] = {{"variable", options.variable},    {"base", options.fraction ? "fraction" : "smallest p"},
                          {"work_unit", "us at RTFactor 1"}, {"method", "approx"},
                          {"max_size", options.max_size},    {"machines", machines}};
  return document.dump(2) + "\n";
}

std::string isospeed_table(const analysis::IsospeedResult& result, const analysis::IsospeedOptions& options,
                           const ReportInputs& inputs) {
  std::string out = heading(inputs);
  out += fmt::format(
      "isospeed: per p, the smallest {} whose average speed per processor a = W/(p T)\n"
      "(approximate model) is at least the speed held; W: total mean task work (us at RTFactor 1)\n",
      options.variable);
  bool unreached = false;
  for (std::size_t m = 0; m < inputs.machines.size(); ++m) {
    const std::vector<IsospeedPoint> points = of_machine(result, m);
    if (points.empty()) continue;
    out += fmt::format("{}machine {}: a = {:.6g} work/us per processor ({:.4f} of one processor's speed){}:\n",
                       m > 0 ? "\n" : "", inputs.machines[m].name, result.speed[m], result.fraction[m],
                       options.fraction ? std::string()
                                        : fmt::format(",\nthe speed of p = {} at {} = {}", points.front().p,
                                                      options.variable, size_text(points.front())));
    std::vector<std::vector<std::string>> cells;
    cells.push_back({"p", options.variable, "W", "a", "runtime", fmt::format("psi({},p)", points.front().p)});
    for (const IsospeedPoint& point : points) {
      cells.push_back({std::to_string(point.p), size_text(point), number(point.work),
                       fmt::format("{:.4f}", point.speed), number(point.mean),
                       psi_text(analysis::isospeed_scalability(points.front(), point))});
      unreached = unreached || !point.size;
    }
    out += align(cells, 0, 0);
    // Sun and Zhu's table: ψ(p, p') = p' W(p) / (p W(p')) for p <= p'.
    out += "scalability psi(p, p') = p' W(p) / (p W(p')), p down, p' across:\n";
    std::vector<std::vector<std::string>> psi{{"p"}};
    for (const IsospeedPoint& to : points) psi.front().push_back(std::to_string(to.p));
    for (const IsospeedPoint& from : points) {
      std::vector<std::string> line{std::to_string(from.p)};
      for (const IsospeedPoint& to : points) {
        line.push_back(to.p >= from.p ? psi_text(analysis::isospeed_scalability(from, to)) : std::string());
      }
      psi.push_back(std::move(line));
    }
    out += align(psi, 0, 0);
  }
  if (unreached) {
    out += fmt::format(
        "-: no {} up to {:g} (--iso-max) reaches the speed; W, a and the runtime shown are at that "
        "size\n",
        options.variable, options.max_size);
  }
  return out;
}

}  // namespace

std::string render_isospeed(const analysis::IsospeedResult& result, const analysis::IsospeedOptions& options,
                            const ReportInputs& inputs, Format format) {
  if (format == Format::Csv) return isospeed_csv(result, options, inputs);
  if (format == Format::Json) return isospeed_json(result, options, inputs);
  return isospeed_table(result, options, inputs);
}

}  // namespace report
