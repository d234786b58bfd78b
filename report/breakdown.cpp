#include "report/breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "analysis/prediction.hpp"
#include "report/text.hpp"

namespace report::report_breakdown {

namespace {

using namespace report_text;

// The parts in the order every report gives them, with their names.
std::array<std::pair<const char*, const analysis::Share*>, 4> parts_of(const analysis::Breakdown& split) {
  return {{{"computation", &split.computation},
           {"communication", &split.communication},
           {"synchronisation", &split.synchronisation},
           {"idle", &split.idle}}};
}

std::string share_text(const analysis::Share& share, const TimeUnit& unit) {
  return figure_text(share.estimate, share.lower, share.upper, unit);
}

std::string prediction_text(const analysis::Prediction& prediction, const TimeUnit& unit) {
  return prediction_figure_text(prediction, unit);
}

std::optional<double> in_unit(const std::optional<double>& value, const TimeUnit& unit) {
  return value ? std::optional<double>(unit.of(*value)) : std::nullopt;
}

}  // namespace

std::optional<analysis::Breakdown> of(const analysis::StudyResult& study, std::size_t case_index, int p) {
  const auto& busy = study.processor_time(case_index, p);
  if (!busy) return std::nullopt;
  const auto prediction = analysis::predict(study, case_index, p);
  if (!prediction) return std::nullopt;
  return analysis::split(*busy, p, *prediction);
}

std::string table_block(const analysis::StudyResult& study, const ReportInputs& inputs) {
  if (!inputs.request.breakdown) return {};
  const TimeUnit& unit = inputs.time_unit;
  std::string out = fmt::format(
      "\nwhere the time goes: the prediction per processor, T = (T_comp + T_comm + T_sync + T_idle) / p, in {}\n",
      unit.symbol);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = key_header(inputs);
  header.insert(header.end(), {"p", "prediction", "from", "computation", "communication", "synchronisation", "idle"});
  cells.push_back(std::move(header));
  bool missing = false;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!study.cases()[c].phase.empty()) continue;
    for (int p : study.processors()) {
      std::vector<std::string> line = key_cells(inputs, study.cases()[c]);
      line.push_back(std::to_string(p));
      const auto prediction = analysis::predict(study, c, p);
      const auto split = of(study, c, p);
      line.push_back(prediction ? prediction_text(*prediction, unit) : "-");
      line.push_back(prediction ? prediction_source(*prediction) : std::string("-"));
      if (split) {
        for (const auto& [name, share] : parts_of(*split)) line.push_back(share_text(*share, unit));
      } else {
        missing = true;
        line.insert(line.end(), 4, "-");
      }
      cells.push_back(std::move(line));
    }
  }
  out += align(cells, key_header(inputs).size(), name_columns(inputs));
  out +=
      "computation: the tasks' processor time / p\n"
      "communication: sends, receives and results on the processors / p (a message in flight keeps no\n"
      "  processor busy: waiting for it is idle time)\n"
      "synchronisation: barriers and contention every processor waits through, + contention on one / p\n"
      "idle: the prediction minus the three (imbalance, waiting for messages and jobs), with its interval\n";
  if (missing) {
    out += "-: no prediction, or no exact model at this p (over --max-exact-tasks or the memory budget)\n";
  }
  return out;
}

std::string csv_header(const ReportInputs& inputs) {
  if (!inputs.request.breakdown) return {};
  std::string out;
  for (const char* name : {"computation", "communication", "synchronisation", "idle"}) {
    out += fmt::format(",{0}_{1},{0}_lower_{1},{0}_upper_{1}", name, inputs.time_unit.name);
  }
  return out;
}

std::string csv_fields(const analysis::StudyResult& study, std::size_t case_index, int p, bool prediction,
                       const ReportInputs& inputs) {
  if (!inputs.request.breakdown) return {};
  const auto split = prediction ? of(study, case_index, p) : std::nullopt;
  if (!split) return std::string(12, ',');
  std::string out;
  for (const auto& [name, share] : parts_of(*split)) {
    out += fmt::format(",{},{},{}", csv_number(in_unit(share->estimate, inputs.time_unit)),
                       csv_number(inputs.time_unit.of(share->lower)), csv_number(inputs.time_unit.of(share->upper)));
  }
  return out;
}

nlohmann::ordered_json json_field(const analysis::StudyResult& study, std::size_t case_index, int p,
                                  const ReportInputs& inputs) {
  const auto split = of(study, case_index, p);
  if (!split) return nullptr;
  nlohmann::ordered_json entry = nlohmann::ordered_json::object();
  for (const auto& [name, share] : parts_of(*split)) {
    const auto estimate = in_unit(share->estimate, inputs.time_unit);
    entry[name] = {{"estimate", estimate ? nlohmann::ordered_json(*estimate) : nlohmann::ordered_json(nullptr)},
                   {"lower", inputs.time_unit.of(share->lower)},
                   {"upper", inputs.time_unit.of(share->upper)}};
  }
  return entry;
}

}  // namespace report::report_breakdown
