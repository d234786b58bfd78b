// Fuzzes the measured-data parser (NUMERICAL files, pdl-fit): any bytes through
// pdl::parse_measurements, then the distributions built from what it accepts and pdl-fit's fits. Nothing may
// crash, hang or read out of bounds, and accepted data must be finite and >= 0.
#include "models/measurements.hpp"
#include "pdl/measurements.hpp"
#include "tools/fit.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const pdl::MeasurementsResult result = pdl::parse_measurements(text, "fuzz.txt");
  (void)pdl::format(result.diagnostics);
  if (!result.measurements) {
    if (result.diagnostics.empty()) std::abort();  // rejected without a reason
    return 0;
  }
  for (double v : result.measurements->values) {
    if (!std::isfinite(v) || v < 0.0) std::abort();
  }
  for (const auto smoothing : {models::Smoothing::Empirical, models::Smoothing::Smoothed}) {
    const distributions::Distribution d = models::measured_distribution(*result.measurements, smoothing);
    if (!std::isfinite(distributions::mean(d))) std::abort();
  }
  (void)fitting::fit_all(result.measurements->values, result.measurements->weights);
  return 0;
}
