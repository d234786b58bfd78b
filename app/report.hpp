// The sweep's results as a person reads them (a table) and as programs read them (CSV, JSON).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <optional>

#include "app/sweep.hpp"

namespace app {

enum class Format { Table, Csv, Json };
std::optional<Format> format_from_string(std::string_view name);  // "table", "csv", "json"

// What was analysed, echoed in every report so that a result file explains itself.
struct ReportInputs {
  std::string program_name;
  std::string program_file;
  std::string machine_name;
  std::string machine_file;  // empty for the built-in ideal machine
  std::map<std::string, double> variables;  // every program variable with its bound value
  SweepOptions options;
};

// The version of the JSON layout; bumped whenever a field changes meaning or disappears.
inline constexpr std::string_view kJsonSchema = "pdl-scale/1";

std::string render(const SweepResult& sweep, const ReportInputs& inputs, Format format);

}  // namespace app
