#include "tools/fit_command.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <iostream>
#include <vector>

#include "models/measurements.hpp"
#include "pdl/measurements.hpp"
#include "tools/fit.hpp"

namespace fitting {

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitInput = 2;

}  // namespace

int fit_report(const std::string& file, std::string_view command, std::ostream& out, std::ostream& err) {
  const pdl::MeasurementsResult read = pdl::read_measurements(file);
  if (!read.read_error.empty()) {
    err << fmt::format("{}: error: cannot read '{}': {}\n", command, file, read.read_error);
    return kExitInput;
  }
  err << pdl::format(read.diagnostics);
  if (!read.measurements) return kExitInput;
  const models::Measurements& m = *read.measurements;
  const models::SampleSummary s = models::summarise(m.values, m.weights);
  const bool histogram = !m.weights.empty();

  out << fmt::format(
      "{}: {} {}{}\n", file, s.count, histogram ? "histogram rows" : "samples",
      histogram ? fmt::format(" (total weight {}, effective n {:.1f})", number(s.total_weight), s.effective_count)
                : "");
  out << fmt::format("unit: {}\n", m.unit.empty() ? "none given (the program's time unit)"
                                                  : "microseconds (the file's values are in " + m.unit + ")");
  out << fmt::format("mean {}  variance {}  cv {}  (cv^2 {})  min {}  max {}\n\n", number(s.mean), number(s.variance),
                     number(s.cv), number(s.cv * s.cv), number(s.minimum), number(s.maximum));

  const Fits fits = fit_all(m.values, m.weights);
  const double critical = 1.36 / std::sqrt(s.effective_count);
  out << fmt::format(
      "Fits, best first. D is the Kolmogorov-Smirnov distance between the data and the fit; "
      "with {} {}, D above {} rejects the fit at the 5% level.\n\n",
      histogram ? "an effective n of" : "n =",
      histogram ? fmt::format("{:.1f}", s.effective_count) : std::to_string(s.count), number(critical));
  int rank = 0;
  for (const Fit& fit : fits.fits) {
    out << fmt::format("{}. {}  D = {:.4f}{}\n   {}\n   SUBTASK RUNTIME IS {};\n\n", ++rank, fit.family, fit.ks,
                       fit.ks > critical ? "  (rejected at 5%)" : "", fit.detail, fit.pdl);
  }
  for (const Skipped& skipped : fits.skipped) {
    out << fmt::format("not fitted: {}: {}\n", skipped.family, skipped.reason);
  }
  return kExitSuccess;
}

int fit_main(std::string_view command, int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{fmt::format("{}: moments and best fitting PDL distributions of measured runtimes.\n"
                           "FILE has one runtime per line or 'value weight' rows, '#' comments and optional units "
                           "(docs/pdl.md, \"Measured data files\").",
                           command),
               std::string(command)};
  std::string file;
  app.add_option("FILE", file, "the measured-data file")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      app.exit(e, out, err);
      return kExitSuccess;
    }
    err << fmt::format("{}: error: {}\n", command, e.what());
    return kExitInput;
  }
  return fit_report(file, command, out, err);
}

}  // namespace fitting
