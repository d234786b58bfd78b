#include "app/report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace app {

std::optional<Format> format_from_string(std::string_view name) {
  if (name == "table") return Format::Table;
  if (name == "csv") return Format::Csv;
  if (name == "json") return Format::Json;
  return std::nullopt;
}

namespace {

// Enough digits to see the bracket, never scientific notation for ordinary runtimes.
std::string number(double value) {
  if (std::abs(value) >= 1e9 || (value != 0.0 && std::abs(value) < 1e-3)) return fmt::format("{:.6g}", value);
  return fmt::format("{:.3f}", value);
}

std::string optional_number(const std::optional<double>& value) {
  return value ? number(*value) : std::string{"-"};
}

// Characters on screen: "±" is two bytes of UTF-8 but one column.
std::size_t display_width(const std::string& text) {
  std::size_t columns = 0;
  for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
  return columns;
}

std::string variables_text(const std::map<std::string, double>& variables) {
  std::string text;
  for (const auto& [name, value] : variables) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{}={:g}", name, value);
  }
  return text;
}

// One line per processor count, a group of columns per method: the estimate with its error
// bar (bracket, bound interval or confidence interval), then the speedups.
std::string table(const SweepResult& sweep, const ReportInputs& inputs) {
  std::string out = fmt::format("program {} ({}) on machine {}", inputs.program_name,
                                inputs.program_file, inputs.machine_name);
  if (!inputs.variables.empty()) out += fmt::format(", {}", variables_text(inputs.variables));
  out += "\n";
  const std::vector<solvers::Method>& methods = inputs.options.methods;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{"p"};
  for (solvers::Method method : methods) {
    switch (method) {
      case solvers::Method::Approximate:
        header.insert(header.end(), {"approx", "bracket of the mean"});
        break;
      case solvers::Method::Bounds: header.push_back("bounds on the exact mean"); break;
      case solvers::Method::MonteCarlo: header.push_back("monte carlo ± 95%"); break;
      case solvers::Method::Exact: header.push_back("exact"); break;
    }
  }
  for (solvers::Method method : methods) {
    header.push_back(methods.size() == 1 ? std::string{"speedup"}
                                         : "speedup " + std::string{solvers::to_string(method)});
  }
  header.push_back("efficiency");
  cells.push_back(header);
  // (method, reason) -> the processor counts it was not solved for, in order of first p.
  std::vector<std::pair<std::pair<std::string, std::string>, std::vector<int>>> unsolved;
  auto unsolved_for = [&unsolved](std::pair<std::string, std::string> what) -> std::vector<int>& {
    for (auto& [known, processors] : unsolved) {
      if (known == what) return processors;
    }
    return unsolved.emplace_back(std::move(what), std::vector<int>{}).second;
  };
  for (std::size_t first = 0; first < sweep.rows.size(); first += methods.size()) {
    std::vector<std::string> line{std::to_string(sweep.rows[first].p)};
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const solvers::Result& result = sweep.rows[first + k].result;
      if (!result.solved) {
        line.push_back("-");
        if (result.method == solvers::Method::Approximate) line.push_back("-");
        unsolved_for({std::string{solvers::to_string(result.method)}, result.detail})
            .push_back(sweep.rows[first + k].p);
        continue;
      }
      switch (result.method) {
        case solvers::Method::Approximate:
          line.push_back(number(result.mean));
          line.push_back(fmt::format("[{}, {}]", number(result.lower), number(result.upper)));
          break;
        case solvers::Method::Bounds:
          line.push_back(fmt::format("[{}, {}]", number(result.lower), number(result.upper)));
          break;
        case solvers::Method::MonteCarlo:
          line.push_back(fmt::format("{} ± {}", number(result.mean), number(result.upper - result.mean)));
          break;
        case solvers::Method::Exact: line.push_back(number(result.mean)); break;
      }
    }
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const Row& row = sweep.rows[first + k];
      if (row.result.method == solvers::Method::Bounds) {
        line.push_back(row.speedup_lower && row.speedup_upper
                           ? fmt::format("[{}, {}]", number(*row.speedup_lower), number(*row.speedup_upper))
                           : std::string{"-"});
      } else {
        line.push_back(optional_number(row.speedup));
      }
    }
    line.push_back(optional_number(sweep.rows[first].efficiency));
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(header.size(), 0);
  width[0] = 4;
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
  }
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) {
      text += std::string(width[c] - display_width(line[c]) + (c == 0 ? 0 : 2), ' ') + line[c];
    }
    out += text + "\n";
  }
  for (const auto& [what, processors] : unsolved) {
    std::string list;
    for (std::size_t i = 0; i < processors.size(); ++i) {
      // Runs of consecutive counts as ranges: "2-64" rather than 63 numbers.
      std::size_t j = i;
      while (j + 1 < processors.size() && processors[j + 1] == processors[j] + 1) ++j;
      if (!list.empty()) list += ", ";
      list += j > i ? fmt::format("{}-{}", processors[i], processors[j]) : std::to_string(processors[i]);
      i = j;
    }
    out += fmt::format("{} not computed for p = {}: {}\n", what.first, list, what.second);
  }
  return out;
}

std::string csv_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.17g}", *value) : std::string{};
}

std::string csv(const SweepResult& sweep) {
  std::string out = "p,method,mean,lower,upper,speedup,efficiency,speedup_lower,speedup_upper\n";
  for (const Row& row : sweep.rows) {
    const bool solved = row.result.solved;
    out += fmt::format("{},{},{},{},{},{},{},{},{}\n", row.p, solvers::to_string(row.result.method),
                       csv_number(solved ? std::optional<double>(row.result.mean) : std::nullopt),
                       csv_number(solved ? std::optional<double>(row.result.lower) : std::nullopt),
                       csv_number(solved ? std::optional<double>(row.result.upper) : std::nullopt),
                       csv_number(row.speedup),
                       csv_number(row.efficiency), csv_number(row.speedup_lower),
                       csv_number(row.speedup_upper));
  }
  return out;
}

nlohmann::ordered_json json_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string json(const SweepResult& sweep, const ReportInputs& inputs) {
  nlohmann::ordered_json methods = nlohmann::ordered_json::array();
  for (solvers::Method method : inputs.options.methods) methods.push_back(solvers::to_string(method));
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["inputs"] = {
      {"program", {{"name", inputs.program_name}, {"file", inputs.program_file}}},
      {"machine",
       {{"name", inputs.machine_name},
        {"file", inputs.machine_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(inputs.machine_file)}}},
      {"variables", inputs.variables},
      {"options",
       {{"processors", inputs.options.processors},
        {"methods", methods},
        {"grid_points", inputs.options.series_parallel.grid.max_points},
        {"tail_mass", inputs.options.series_parallel.grid.tail_mass},
        {"threads", inputs.options.threads}}}};
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const Row& row : sweep.rows) {
    const auto figure = [&](double value) {
      return row.result.solved ? json_number(value) : nlohmann::ordered_json(nullptr);
    };
    results.push_back({{"p", row.p},
                       {"method", solvers::to_string(row.result.method)},
                       {"mean", figure(row.result.mean)},
                       {"lower", figure(row.result.lower)},
                       {"upper", figure(row.result.upper)},
                       {"speedup", json_number(row.speedup)},
                       {"efficiency", json_number(row.efficiency)},
                       {"speedup_lower", json_number(row.speedup_lower)},
                       {"speedup_upper", json_number(row.speedup_upper)},
                       {"detail", row.result.detail},
                       {"seconds", row.result.statistics.seconds},
                       {"tree_nodes", row.result.statistics.tree_nodes},
                       {"represented_tasks", row.result.statistics.represented_tasks}});
  }
  document["results"] = std::move(results);
  document["seconds"] = sweep.seconds;
  return document.dump(2) + "\n";
}

}  // namespace

std::string render(const SweepResult& sweep, const ReportInputs& inputs, Format format) {
  switch (format) {
    case Format::Table: return table(sweep, inputs);
    case Format::Csv: return csv(sweep);
    case Format::Json: return json(sweep, inputs);
  }
  return {};
}

}  // namespace app
