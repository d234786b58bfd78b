// Measured-data files, the input of NUMERICAL('file') and of pdl-fit (docs/pdl.md, "Measured
// data files"):
//
//   # unit: us            optional, before the first value: the unit of every value
//   12.5                  one runtime per line (samples) ...
//   13.1 us               ... optionally with its unit ...
//   14.0 3                ... or `value weight` rows (a histogram), never both in one file
//
// `#` starts a comment; blank lines are ignored. Units are ns, us (µs), ms, s; values with
// units are converted to microseconds. A file either gives units (in a header or on every
// value, always the same one) or none.
#pragma once

#include "models/measurements.hpp"
#include "pdl/diagnostic.hpp"
#include "pdl/file_reader.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pdl {

struct MeasurementsResult {
  // Set exactly when the file was read and has no errors. Its `file` is the name given;
  // `machine` is left empty for the caller.
  std::optional<models::Measurements> measurements;
  // Problems inside the file, "file:line:col: error: ..." with the line and a caret.
  std::vector<Diagnostic> diagnostics;
  // Why the file could not be read at all (missing, a directory, unreadable, too large), without
  // a position; empty when it was read.
  std::string read_error;
};

// Parses the text of a data file named `filename` (used in the diagnostics).
MeasurementsResult parse_measurements(const std::string& text, const std::string& filename);

// Reads the file at `path` (with `read`: from disk unless the caller shares its reads) and
// parses it.
MeasurementsResult read_measurements(const std::string& path, const FileReader& read = read_file);

}  // namespace pdl
