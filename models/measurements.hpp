// Measured runtimes, as NUMERICAL('file') brings them into the model (docs/pdl.md,
// "Measured data files"). pdl::read_measurements turns a data file into these values at check
// time; models::measured_distribution turns them into a distribution when the model is
// scaled. The data flows one way: text -> Measurements (held by the checked model) ->
// distribution.
#pragma once

#include "distributions/distribution.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace models {

// How the distribution is built from the measurements (NUMERICAL's optional second argument).
enum class Smoothing {
  Empirical,  // the measured values as point masses (distributions::from_samples / from_histogram)
  Smoothed,   // a kernel density around the values, with their mean and variance
  Tail,       // the values up to their 90% quantile, a fitted generalised Pareto tail beyond
};
const char* to_string(Smoothing smoothing);  // "EMPIRICAL", "SMOOTHED", "TAIL"

struct Measurements {
  std::string file;             // the file that was read ($ARCH replaced, relative to the program)
  std::string machine;          // the machine name that replaced $ARCH
  std::vector<double> values;   // runtimes in the program's time unit (microseconds if the file had units)
  std::vector<double> weights;  // empty: one sample per value; else the histogram weight of each value
  std::string unit;             // the unit the file gave ("ns", "us", "ms", "s"), empty when none
  friend bool operator==(const Measurements&, const Measurements&) = default;
};

// Microseconds per unit: "ns" 1e-3, "us" (also "µs", "μs") 1, "ms" 1e3, "s" 1e6; std::nullopt
// for anything else. Units are case-sensitive ("MS" is not a unit: megasiemens or a typo).
std::optional<double> microseconds_per(std::string_view unit);

// Weighted moments of the values (weights 1 for samples).
struct SampleSummary {
  std::size_t count = 0;         // rows (samples or histogram rows)
  double total_weight = 0.0;     // count for samples
  double effective_count = 0.0;  // Kish's (sum w)^2 / sum w^2; count for samples
  double mean = 0.0;
  double variance = 0.0;  // population variance (divides by the total weight)
  double cv = 0.0;        // sqrt(variance) / mean; 0 when the mean is 0
  double minimum = 0.0;
  double maximum = 0.0;
};
SampleSummary summarise(const std::vector<double>& values, const std::vector<double>& weights);

// Half-width w of the triangular kernel on [-w, w] used by Smoothing::Smoothed: Silverman's
// rule of thumb h = 0.9 min(sd, IQR/1.34) n^(-1/5) (n the effective count) for the kernel's
// standard deviation, w = sqrt(6) h (a triangular kernel on [-w, w] has sd w/sqrt(6)), capped
// at the smallest value so that the smoothed law never puts mass below 0. 0 means no
// smoothing (all values equal, or the smallest is 0).
double kernel_half_width(const std::vector<double>& values, const std::vector<double>& weights);

// The distribution of the measurements (docs/distributions.md, "Measured distributions").
// Empirical: from_samples(values) or from_histogram(values, weights). Smoothed: the empirical
// law plus a centred triangular noise on [-w, w] (shift(empirical, -w) + U(0, w) + U(0, w)),
// shrunk towards the mean by a = sd / sqrt(sd^2 + w^2/6) so that it keeps the data's mean and
// variance (a kernel density with Jones' variance correction); the grid operations keep the
// bracket. Tail: the values up to the threshold of models::fit_tail as point masses, weight
// 1 - share, mixed with u + GPD(xi, sigma), weight share (a shifted PARETO(1/xi, sigma/xi), or
// u + EXPONENTIAL for xi = 0); throws std::invalid_argument where fit_tail refuses (the check
// refuses the program first).
distributions::Distribution measured_distribution(const Measurements& measurements, Smoothing smoothing,
                                                  const distributions::GridOptions& grid = {});

}  // namespace models
