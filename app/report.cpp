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
  if (name == "jsonl") return Format::Jsonl;
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

// The rows of one case: every reported p, then every method.
struct CaseRows {
  const Row* first = nullptr;
  std::size_t size = 0;
};

std::vector<CaseRows> rows_by_case(const SweepResult& sweep) {
  std::vector<CaseRows> by_case(sweep.cases.size());
  if (sweep.cases.empty()) return by_case;
  const std::size_t per_case = sweep.rows.size() / sweep.cases.size();
  for (std::size_t c = 0; c < sweep.cases.size(); ++c) by_case[c] = {sweep.rows.data() + c * per_case, per_case};
  return by_case;
}

// The case of the whole program that a --loss case (one phase alone) belongs to: cases come as
// the whole program, then each phase alone, for every machine and swept value.
std::size_t whole_program_case(const SweepResult& sweep, std::size_t c) {
  while (c > 0 && !sweep.cases[c].phase.empty()) --c;
  return c;
}

std::string machines_text(const ReportInputs& inputs) {
  std::string text;
  for (const MachineInput& machine : inputs.machines) text += (text.empty() ? "" : ", ") + machine.name;
  return (inputs.machines.size() == 1 ? "machine " : "machines ") + text;
}

std::string heading(const ReportInputs& inputs) {
  std::string out = fmt::format("program {} ({}) on {}", inputs.program_name, inputs.program_file, machines_text(inputs));
  if (!inputs.variables.empty()) out += fmt::format(", {}", variables_text(inputs.variables));
  for (const SweepVariable& sweep : inputs.sweeps) {
    // A long list as its ends: the table shows every value anyway.
    constexpr std::size_t kListed = 12;
    std::string values;
    for (std::size_t i = 0; i < sweep.values.size(); ++i) {
      if (sweep.values.size() > kListed && i == kListed / 2) {
        values += fmt::format(" … ({} values)", sweep.values.size());
        i = sweep.values.size() - kListed / 2;
      }
      values += fmt::format("{}{:g}", values.empty() ? "" : " ", sweep.values[i]);
    }
    out += fmt::format("; {} swept over {}", sweep.name, values);
  }
  return out + "\n";
}

// The columns that tell the cases apart: the machine when there are several, the swept values.
std::vector<std::string> key_header(const ReportInputs& inputs) {
  std::vector<std::string> header;
  if (inputs.machines.size() > 1) header.push_back("machine");
  for (const SweepVariable& sweep : inputs.sweeps) header.push_back(sweep.name);
  return header;
}

std::vector<std::string> key_cells(const ReportInputs& inputs, const CaseLabel& label) {
  std::vector<std::string> cells;
  if (inputs.machines.size() > 1) cells.push_back(label.machine);
  for (const auto& [name, value] : label.swept) cells.push_back(fmt::format("{:g}", value));
  return cells;
}

// Right-aligned columns two spaces apart, at least 4 wide from column `p_column` (the p);
// the first `left` columns (names) left-aligned.
std::string align(const std::vector<std::vector<std::string>>& cells, std::size_t p_column, std::size_t left) {
  std::vector<std::size_t> width;
  for (const auto& line : cells) {
    if (width.size() < line.size()) width.resize(line.size(), 0);
    for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], display_width(line[c]));
  }
  if (width.size() > p_column) width[p_column] = std::max<std::size_t>(width[p_column], 4);
  std::string out;
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string pad(width[c] - display_width(line[c]), ' ');
      const std::string gap = c == 0 ? "" : "  ";
      text += c < left ? gap + line[c] + pad : gap + pad + line[c];
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

// One line per (case, processor count), a group of columns per method: the estimate with its
// error bar (bracket, bound interval or confidence interval), then the speedups. Several
// machines or swept values add key columns in front and a line per case and p.
std::string table(const SweepResult& sweep, const ReportInputs& inputs) {
  std::string out = heading(inputs);
  const std::vector<solvers::Method>& methods = inputs.options.methods;
  const std::vector<std::string> keys = key_header(inputs);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = keys;
  header.push_back("p");
  for (solvers::Method method : methods) {
    switch (method) {
      case solvers::Method::SeriesParallel:
        header.insert(header.end(), {"approx", "bracket of the mean"});
        break;
      case solvers::Method::Bounds: header.push_back("bounds on the exact mean"); break;
      case solvers::Method::MonteCarlo: header.push_back("monte carlo ± 95%"); break;
      case solvers::Method::StateSpace: header.push_back("exact"); break;
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
  const std::vector<CaseRows> by_case = rows_by_case(sweep);
  for (std::size_t c = 0; c < by_case.size(); ++c) {
    const CaseLabel& label = sweep.cases[c];
    if (!label.phase.empty()) continue;
    for (std::size_t first = 0; first < by_case[c].size; first += methods.size()) {
      const Row* rows = by_case[c].first + first;
      std::vector<std::string> line = key_cells(inputs, label);
      line.push_back(std::to_string(rows[0].p));
      for (std::size_t k = 0; k < methods.size(); ++k) {
        const solvers::Result& result = rows[k].result;
        if (!result.solved) {
          line.push_back("-");
          if (result.method == solvers::Method::SeriesParallel) line.push_back("-");
          unsolved_for({std::string{solvers::to_string(result.method)}, result.detail}).push_back(rows[k].p);
          continue;
        }
        switch (result.method) {
          case solvers::Method::SeriesParallel:
            line.push_back(number(result.mean));
            line.push_back(fmt::format("[{}, {}]", number(result.lower), number(result.upper)));
            break;
          case solvers::Method::Bounds:
            line.push_back(fmt::format("[{}, {}]", number(result.lower), number(result.upper)));
            break;
          case solvers::Method::MonteCarlo:
            line.push_back(fmt::format("{} ± {}", number(result.mean), number(result.upper - result.mean)));
            break;
          case solvers::Method::StateSpace: line.push_back(number(result.mean)); break;
        }
      }
      for (std::size_t k = 0; k < methods.size(); ++k) {
        const Row& row = rows[k];
        if (row.result.method == solvers::Method::Bounds) {
          line.push_back(row.speedup_lower && row.speedup_upper
                             ? fmt::format("[{}, {}]", number(*row.speedup_lower), number(*row.speedup_upper))
                             : std::string{"-"});
        } else {
          line.push_back(optional_number(row.speedup));
        }
      }
      line.push_back(optional_number(rows[0].efficiency));
      cells.push_back(std::move(line));
    }
  }
  out += align(cells, keys.size(), inputs.machines.size() > 1 ? 1 : 0);
  for (auto& [what, processors] : unsolved) {
    std::sort(processors.begin(), processors.end());
    processors.erase(std::unique(processors.begin(), processors.end()), processors.end());
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

// The share of the whole program's runtime that one phase alone takes: T_phase(p) / T(p).
std::optional<double> share_of(const Row& phase, const Row& whole) {
  if (!phase.result.solved || !whole.result.solved || !(whole.result.mean > 0.0)) return std::nullopt;
  return phase.result.mean / whole.result.mean;
}

// --loss: per (case, p), the whole program's runtime and each phase alone: its speedup and its
// share of the runtime, by the first method.
std::string loss_table(const SweepResult& sweep, const ReportInputs& inputs) {
  const std::vector<CaseRows> by_case = rows_by_case(sweep);
  const std::size_t methods = inputs.options.methods.size();
  const std::vector<std::string> keys = key_header(inputs);
  std::string out = fmt::format(
      "\nloss analysis (paper section 5), method {}: each phase alone, every other phase costing 0\n",
      solvers::to_string(inputs.options.methods.front()));
  std::vector<std::vector<std::string>> cells;
  for (std::size_t w = 0; w < by_case.size(); ++w) {
    if (!sweep.cases[w].phase.empty()) continue;
    std::vector<std::size_t> parts;
    for (std::size_t c = w + 1; c < by_case.size() && !sweep.cases[c].phase.empty(); ++c) parts.push_back(c);
    if (cells.empty()) {
      std::vector<std::string> header = keys;
      header.insert(header.end(), {"p", "runtime", "speedup"});
      for (std::size_t c : parts) {
        header.push_back("speedup " + sweep.cases[c].phase);
        header.push_back("share " + sweep.cases[c].phase);
      }
      cells.push_back(std::move(header));
    }
    for (std::size_t first = 0; first < by_case[w].size; first += methods) {
      const Row& whole = by_case[w].first[first];
      std::vector<std::string> line = key_cells(inputs, sweep.cases[w]);
      line.push_back(std::to_string(whole.p));
      line.push_back(whole.result.solved ? number(whole.result.mean) : std::string("-"));
      line.push_back(optional_number(whole.speedup));
      for (std::size_t c : parts) {
        const Row& alone = by_case[c].first[first];
        line.push_back(optional_number(alone.speedup));
        line.push_back(optional_number(share_of(alone, whole)));
      }
      cells.push_back(std::move(line));
    }
  }
  out += align(cells, keys.size(), inputs.machines.size() > 1 ? 1 : 0);
  out += "share: the phase alone's runtime / the whole program's. SYNC: every phase free, the barriers alone; "
         "they stay in every phase's case too, so the shares need not add up to 1 (nor do maxima over processors)\n";
  return out;
}

std::string csv_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.17g}", *value) : std::string{};
}

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// One row per (case, p, method): the machine, the swept values, with --loss the phase (empty
// for the whole program) and its share of the whole program's runtime.
std::string csv(const SweepResult& sweep, const ReportInputs& inputs) {
  std::string out = "machine,";
  for (const SweepVariable& variable : inputs.sweeps) out += csv_text(variable.name) + ",";
  if (inputs.loss) out += "phase,share,";
  out += "p,method,mean,lower,upper,speedup,efficiency,speedup_lower,speedup_upper\n";
  const std::vector<CaseRows> by_case = rows_by_case(sweep);
  for (std::size_t c = 0; c < by_case.size(); ++c) {
    const CaseLabel& label = sweep.cases[c];
    const CaseRows& whole = by_case[whole_program_case(sweep, c)];
    for (std::size_t r = 0; r < by_case[c].size; ++r) {
      const Row& row = by_case[c].first[r];
      std::string line = csv_text(label.machine) + ",";
      for (const auto& [name, value] : label.swept) line += fmt::format("{:.17g},", value);
      if (inputs.loss) {
        line += csv_text(label.phase) + "," +
                (label.phase.empty() ? std::string() : csv_number(share_of(row, whole.first[r]))) + ",";
      }
      const bool solved = row.result.solved;
      line += fmt::format("{},{},{},{},{},{},{},{},{}\n", row.p, solvers::to_string(row.result.method),
                          csv_number(solved ? std::optional<double>(row.result.mean) : std::nullopt),
                          csv_number(solved ? std::optional<double>(row.result.lower) : std::nullopt),
                          csv_number(solved ? std::optional<double>(row.result.upper) : std::nullopt),
                          csv_number(row.speedup), csv_number(row.efficiency), csv_number(row.speedup_lower),
                          csv_number(row.speedup_upper));
      out += line;
    }
  }
  return out;
}

nlohmann::ordered_json json_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json swept_json(const std::vector<std::pair<std::string, double>>& swept) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (const auto& [name, value] : swept) object[name] = value;
  return object;
}

nlohmann::ordered_json inputs_json(const ReportInputs& inputs) {
  nlohmann::ordered_json methods = nlohmann::ordered_json::array();
  for (solvers::Method method : inputs.options.methods) methods.push_back(solvers::to_string(method));
  nlohmann::ordered_json machines = nlohmann::ordered_json::array();
  for (const MachineInput& machine : inputs.machines) {
    machines.push_back({{"name", machine.name},
                        {"file", machine.file.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(machine.file)}});
  }
  nlohmann::ordered_json sweeps = nlohmann::ordered_json::object();
  for (const SweepVariable& variable : inputs.sweeps) sweeps[variable.name] = variable.values;
  return {{"program", {{"name", inputs.program_name}, {"file", inputs.program_file}}},
          {"machines", machines},
          {"variables", inputs.variables},
          {"sweep", sweeps},
          {"options",
           {{"processors", inputs.options.processors},
            {"methods", methods},
            {"grid_points", inputs.options.series_parallel.grid.max_points},
            {"tail_mass", inputs.options.series_parallel.grid.tail_mass},
            {"threads", inputs.options.threads},
            {"seed", inputs.options.monte_carlo.seed},
            {"loss", inputs.loss}}}};
}

std::string json(const SweepResult& sweep, const ReportInputs& inputs) {
  nlohmann::ordered_json document;
  document["schema"] = kJsonSchema;
  document["inputs"] = inputs_json(inputs);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  nlohmann::ordered_json loss = nlohmann::ordered_json::array();
  const std::vector<CaseRows> by_case = rows_by_case(sweep);
  for (std::size_t c = 0; c < by_case.size(); ++c) {
    const CaseLabel& label = sweep.cases[c];
    const CaseRows& whole = by_case[whole_program_case(sweep, c)];
    for (std::size_t r = 0; r < by_case[c].size; ++r) {
      const Row& row = by_case[c].first[r];
      const auto figure = [&](double value) {
        return row.result.solved ? json_number(value) : nlohmann::ordered_json(nullptr);
      };
      nlohmann::ordered_json entry = {{"machine", label.machine}, {"sweep", swept_json(label.swept)}};
      if (!label.phase.empty()) entry["phase"] = label.phase;
      entry.update(nlohmann::ordered_json{{"p", row.p},
                                          {"method", solvers::to_string(row.result.method)},
                                          {"mean", figure(row.result.mean)},
                                          {"lower", figure(row.result.lower)},
                                          {"upper", figure(row.result.upper)},
                                          {"speedup", json_number(row.speedup)},
                                          {"efficiency", json_number(row.efficiency)},
                                          {"speedup_lower", json_number(row.speedup_lower)},
                                          {"speedup_upper", json_number(row.speedup_upper)}});
      if (!label.phase.empty()) {
        entry["share"] = json_number(share_of(row, whole.first[r]));
        loss.push_back(std::move(entry));
        continue;
      }
      entry.update(nlohmann::ordered_json{{"detail", row.result.detail},
                                          {"seconds", row.result.statistics.seconds},
                                          {"tree_nodes", row.result.statistics.tree_nodes},
                                          {"represented_tasks", row.result.statistics.represented_tasks}});
      results.push_back(std::move(entry));
    }
  }
  document["results"] = std::move(results);
  if (inputs.loss) document["loss"] = std::move(loss);
  document["seconds"] = sweep.seconds;
  return document.dump(2) + "\n";
}

// JSON Lines as Extra-P's reader takes them (extrap/fileio/file_reader/jsonlines_file_reader.py):
// one object per measurement with "params" (the same names on every line: p and the swept
// variables), "callpath", "metric" and "value". The machine and, with --loss, the phase go into
// the call path (machine->program or machine->program->phase), the method into the metric.
std::string jsonl(const SweepResult& sweep, const ReportInputs& inputs) {
  std::string out;
  const std::vector<CaseRows> by_case = rows_by_case(sweep);
  for (std::size_t c = 0; c < by_case.size(); ++c) {
    const CaseLabel& label = sweep.cases[c];
    std::string callpath = label.machine + "->" + inputs.program_name;
    if (!label.phase.empty()) callpath += "->" + label.phase;
    for (std::size_t r = 0; r < by_case[c].size; ++r) {
      const Row& row = by_case[c].first[r];
      if (!row.result.solved) continue;
      nlohmann::ordered_json params = {{"p", row.p}};
      for (const auto& [name, value] : label.swept) params[name] = value;
      const std::string method{solvers::to_string(row.result.method)};
      const std::pair<std::string, std::optional<double>> metrics[] = {
          {"time", row.result.mean}, {"speedup", row.speedup}, {"efficiency", row.efficiency}};
      for (const auto& [metric, value] : metrics) {
        if (!value) continue;
        const nlohmann::ordered_json line = {
            {"params", params}, {"callpath", callpath}, {"metric", metric + " (" + method + ")"}, {"value", *value}};
        out += line.dump() + "\n";
      }
    }
  }
  return out;
}

}  // namespace

std::string render(const SweepResult& sweep, const ReportInputs& inputs, Format format) {
  switch (format) {
    case Format::Table: return inputs.loss ? table(sweep, inputs) + loss_table(sweep, inputs) : table(sweep, inputs);
    case Format::Csv: return csv(sweep, inputs);
    case Format::Json: return json(sweep, inputs);
    case Format::Jsonl: return jsonl(sweep, inputs);
  }
  return {};
}

std::string render_isoefficiency(const std::vector<IsoefficiencyPoint>& points, const IsoefficiencyOptions& iso,
                                 const ReportInputs& inputs, Format format) {
  const std::vector<int>& counts = inputs.options.processors;
  const auto machine_of = [&](std::size_t k) -> const std::string& { return inputs.machines[k / counts.size()].name; };
  const auto size_text = [](const IsoefficiencyPoint& point) {
    return point.size ? fmt::format("{:.0f}", *point.size) : std::string("-");
  };
  if (format == Format::Csv) {
    std::string out = "machine,p,target," + csv_text(iso.variable) + ",efficiency,mean\n";
    for (std::size_t k = 0; k < points.size(); ++k) {
      const IsoefficiencyPoint& point = points[k];
      out += fmt::format("{},{},{:.17g},{},{:.17g},{:.17g}\n", csv_text(machine_of(k)), point.p, iso.target,
                         point.size ? fmt::format("{:.0f}", *point.size) : std::string(), point.efficiency, point.mean);
    }
    return out;
  }
  if (format == Format::Json) {
    nlohmann::ordered_json document;
    document["schema"] = kJsonSchema;
    document["inputs"] = inputs_json(inputs);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < points.size(); ++k) {
      const IsoefficiencyPoint& point = points[k];
      rows.push_back({{"machine", machine_of(k)},
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
  std::string out = heading(inputs);
  out += fmt::format("isoefficiency {:g}: per p, the smallest {} whose efficiency (approximate model) is at least {:g}\n",
                     iso.target, iso.variable, iso.target);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header;
  if (inputs.machines.size() > 1) header.push_back("machine");
  header.insert(header.end(), {"p", iso.variable, "efficiency", "runtime"});
  cells.push_back(header);
  bool unreached = false;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const IsoefficiencyPoint& point = points[k];
    std::vector<std::string> line;
    if (inputs.machines.size() > 1) line.push_back(machine_of(k));
    line.insert(line.end(), {std::to_string(point.p), size_text(point), fmt::format("{:.3f}", point.efficiency),
                             number(point.mean)});
    unreached = unreached || !point.size;
    cells.push_back(std::move(line));
  }
  out += align(cells, inputs.machines.size() > 1 ? 1 : 0, inputs.machines.size() > 1 ? 1 : 0);
  if (unreached) {
    out += fmt::format("-: no {} up to {:g} (--iso-max) reaches the efficiency; the efficiency shown is at that size\n",
                       iso.variable, iso.max_size);
  }
  return out;
}

}  // namespace app
