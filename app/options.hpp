// What the command line asked for, parsed by main.cpp with CLI11 and executed by the app
// library (commands.cpp), so that the commands are testable without a process.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace app {

// Exit statuses (DESIGN.md section 7).
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;  // a bug: an exception escaped
inline constexpr int kExitInput = 2;     // bad usage or bad input: diagnostics say why

struct Options {
  std::string file;                 // the PDL program
  std::optional<std::string> machine_file;  // --machine; the ideal machine when absent
  std::vector<std::string> sets;    // --set name=value, repeatable
  bool check = false;               // --check
  bool dump = false;                // --dump
};

// Parses "name=value" strings; on failure returns nullopt and sets *error.
std::optional<std::map<std::string, double>> parse_sets(const std::vector<std::string>& sets, std::string* error);

}  // namespace app
