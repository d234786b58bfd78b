// Measured runs of a program (docs/calibration.md, "Runs files"): the input of calibration and
// validation. One run per row: its processor count, the values of the variables that vary, the
// measured time and, optionally, which repetition it is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/program.hpp"  // SourceLocation

namespace models {

struct Run {
  std::int64_t p = 1;
  std::vector<double> values;   // one per Runs::variables, in that order
  double time = 0.0;            // microseconds when the file gives a unit, else as written
  std::int64_t repetition = 0;  // 0: the file has no repetition column
  SourceLocation location;      // the row
};

struct Runs {
  std::string file;
  std::vector<std::string> variables;              // the header's columns besides p, time, repetition
  std::vector<SourceLocation> variable_locations;  // where each is named in the header
  SourceLocation header;                           // the header line (refusals of the whole file point there)
  bool has_unit = false;                           // a `# unit:` line converted the times to µs
  bool has_repetition = false;
  std::vector<Run> runs;
};

}  // namespace models
