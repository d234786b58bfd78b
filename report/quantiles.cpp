#include "report/quantiles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/text.hpp"
#include "solvers/solver.hpp"

namespace report::report_quantiles {

namespace {

using namespace report_text;

const std::vector<double>& levels_of(const ReportInputs& inputs) { return inputs.request.solver_options.quantiles; }

// An end of an interval as the table shows it: "-" where the samples are too few to give one
// (no infinity is printed).
std::string end_text(double value) { return std::isfinite(value) ? number(value) : std::string{"-"}; }

nlohmann::ordered_json json_end(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

std::string csv_end(double value) { return std::isfinite(value) ? csv_number(value) : std::string{}; }

// What a method's quantile interval is, in the block's legend.
std::string interval_words(solvers::Method method) {
  switch (solvers::info(method).interval) {
    case solvers::IntervalKind::DiscretisationBracket:
      return "the approximate model's quantile, bracketed by its grid's lower and upper lattices";
    case solvers::IntervalKind::Confidence95:
      return "the order statistic of the first n samples, with a distribution-free 95% confidence interval";
    case solvers::IntervalKind::BoundPair:
    case solvers::IntervalKind::ExactOrProven: break;
  }
  return "an interval";
}

// The header of the quantiles' table: the key columns, p, the method, n where a method samples,
// then a column per level.
std::vector<std::string> quantile_header(const ReportInputs& inputs, bool sampled) {
  std::vector<std::string> header = key_header(inputs);
  header.insert(header.end(), {"p", "method"});
  if (sampled) header.emplace_back("n");
  for (double level : levels_of(inputs)) header.push_back(level_name(level));
  return header;
}

// A line of the quantiles' table: a case, its p and one method's quantiles ("-" where it has none).
std::vector<std::string> quantile_line(const ReportInputs& inputs, const analysis::CaseLabel& label, int p,
                                       solvers::Method method, const solvers::Result& result, bool sampled) {
  const TimeUnit& unit = inputs.time_unit;
  const std::vector<double>& levels = levels_of(inputs);
  std::vector<std::string> line = key_cells(inputs, label);
  line.push_back(std::to_string(p));
  line.emplace_back(solvers::to_string(method));
  const bool has = result.solved() && result.quantiles.size() == levels.size();
  if (sampled) {
    line.push_back(has && result.quantiles.front().samples > 0 ? std::to_string(result.quantiles.front().samples)
                                                               : std::string{"-"});
  }
  for (std::size_t k = 0; k < levels.size(); ++k) {
    if (!has) {
      line.emplace_back("-");
      continue;
    }
    const solvers::Quantile& q = result.quantiles[k];
    line.push_back(fmt::format("{} [{}, {}]", number(unit.of(q.estimate)), end_text(unit.of(q.lower)),
                               end_text(unit.of(q.upper))));
  }
  return line;
}

// The table of the methods `with` quantiles: a line per whole-program case, p and method.
std::string quantile_table(const analysis::StudyResult& study, const ReportInputs& inputs,
                           const std::vector<solvers::Method>& with) {
  // The sample count column only where a method samples.
  const bool sampled = std::any_of(with.begin(), with.end(), [](solvers::Method method) {
    return solvers::info(method).interval == solvers::IntervalKind::Confidence95;
  });
  std::vector<std::vector<std::string>> cells;
  cells.push_back(quantile_header(inputs, sampled));
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) {
      for (solvers::Method method : with) {
        cells.push_back(quantile_line(inputs, study.cases()[c], p, method, study.at(c, p, method).result, sampled));
      }
    }
  }
  return align(cells, key_header(inputs).size(), name_columns(inputs));
}

}  // namespace

std::string level_name(double level) { return fmt::format("q{:.10g}", level * 100.0); }

std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs) {
  const std::vector<double>& levels = levels_of(inputs);
  if (levels.empty()) return {};
  std::vector<solvers::Method> with, without;
  for (solvers::Method method : study.methods())
    (solvers::info(method).gives_quantiles ? with : without).push_back(method);
  std::string out = "\nruntime quantiles";
  if (with.empty()) {
    out += ": none of the methods run gives quantiles (approx and mc do; ";
  } else {
    out += fmt::format(": estimate [interval], in {}\n", inputs.time_unit.symbol);
    for (solvers::Method method : with)
      out += fmt::format("  {}: {}\n", solvers::to_string(method), interval_words(method));
    out += quantile_table(study, inputs, with);
    if (without.empty()) return out;
    out += "no quantiles from ";
  }
  for (std::size_t k = 0; k < without.size(); ++k) {
    out += (k == 0 ? "" : ", ") + std::string{solvers::to_string(without[k])};
  }
  out += with.empty() ? ": they compute the mean only)\n" : ": they compute the mean only\n";
  return out;
}

std::string csv_header(const ReportInputs& inputs) {
  std::string out;
  for (double level : levels_of(inputs)) {
    const std::string name = level_name(level);
    out += fmt::format(",{0}_{1},{0}_lower_{1},{0}_upper_{1}", name, inputs.time_unit.name);
  }
  return out;
}

std::string csv_fields(const ReportInputs& inputs, const solvers::Result& result) {
  const std::vector<double>& levels = levels_of(inputs);
  std::string out;
  const bool has = result.solved() && result.quantiles.size() == levels.size();
  for (std::size_t k = 0; k < levels.size(); ++k) {
    if (!has) {
      out += ",,,";
      continue;
    }
    const solvers::Quantile& q = result.quantiles[k];
    out += fmt::format(",{},{},{}", csv_number(inputs.time_unit.of(q.estimate)), csv_end(inputs.time_unit.of(q.lower)),
                       csv_end(inputs.time_unit.of(q.upper)));
  }
  return out;
}

nlohmann::ordered_json json_field(const solvers::Result& result, const ReportInputs& inputs) {
  const TimeUnit& unit = inputs.time_unit;
  if (!result.solved() || !solvers::info(result.method).gives_quantiles) return nullptr;
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const solvers::Quantile& q : result.quantiles) {
    nlohmann::ordered_json entry = {{"level", q.level},
                                    {"estimate", unit.of(q.estimate)},
                                    {"lower", json_end(unit.of(q.lower))},
                                    {"upper", json_end(unit.of(q.upper))}};
    if (q.samples > 0) entry["samples"] = q.samples;
    array.push_back(std::move(entry));
  }
  return array;
}

}  // namespace report::report_quantiles
