// pdl-fit FILE: the moments of a measured-data file (the format of NUMERICAL, docs/pdl.md) and
// the best fitting Erlang, general Erlang, hyperexponential and phase-type distributions, each
// as a PDL line ready to paste, best first. Exit status 0, 2 for bad input or usage, 1 for an
// internal failure.
#include "models/measurements.hpp"
#include "pdl/measurements.hpp"
#include "tools/fit.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <iostream>
#include <string>

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitInternal = 1;
constexpr int kExitInput = 2;

int run(const std::string& file, std::ostream& out, std::ostream& err) {
  const pdl::MeasurementsResult read = pdl::read_measurements(file);
  if (!read.read_error.empty()) {
    err << fmt::format("pdl-fit: error: cannot read '{}': {}\n", file, read.read_error);
    return kExitInput;
  }
  err << pdl::format(read.diagnostics);
  if (!read.measurements) return kExitInput;
  const models::Measurements& m = *read.measurements;
  const models::SampleSummary s = models::summarise(m.values, m.weights);
  const bool histogram = !m.weights.empty();

  out << fmt::format("{}: {} {}{}\n", file, s.count, histogram ? "histogram rows" : "samples",
                     histogram ? fmt::format(" (total weight {}, effective n {:.1f})", fitting::number(s.total_weight),
                                             s.effective_count)
                               : "");
  out << fmt::format("unit: {}\n", m.unit.empty() ? "none given (the program's time unit)"
                                                   : "microseconds (the file's values are in " + m.unit + ")");
  out << fmt::format("mean {}  variance {}  cv {}  (cv^2 {})  min {}  max {}\n\n", fitting::number(s.mean),
                     fitting::number(s.variance), fitting::number(s.cv), fitting::number(s.cv * s.cv),
                     fitting::number(s.minimum), fitting::number(s.maximum));

  const fitting::Fits fits = fitting::fit_all(m.values, m.weights);
  const double critical = 1.36 / std::sqrt(s.effective_count);
  out << fmt::format("Fits, best first. D is the Kolmogorov-Smirnov distance between the data and the fit; "
                     "with {} {}, D above {} rejects the fit at the 5% level.\n\n",
                     histogram ? "an effective n of" : "n =", histogram ? fmt::format("{:.1f}", s.effective_count)
                                                                       : std::to_string(s.count),
                     fitting::number(critical));
  int rank = 0;
  for (const fitting::Fit& fit : fits.fits) {
    out << fmt::format("{}. {}  D = {:.4f}{}\n   {}\n   SUBTASK RUNTIME IS {};\n\n", ++rank, fit.family, fit.ks,
                       fit.ks > critical ? "  (rejected at 5%)" : "", fit.detail, fit.pdl);
  }
  for (const fitting::Skipped& skipped : fits.skipped) {
    out << fmt::format("not fitted: {}: {}\n", skipped.family, skipped.reason);
  }
  return kExitSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pdl-fit: moments and best fitting PDL distributions of measured runtimes.\n"
               "FILE has one runtime per line or 'value weight' rows, '#' comments and optional units "
               "(docs/pdl.md, \"Measured data files\")."};
  std::string file;
  app.add_option("FILE", file, "the measured-data file")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? kExitSuccess : kExitInput;
  }
  try {
    return run(file, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "pdl-fit: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
}
