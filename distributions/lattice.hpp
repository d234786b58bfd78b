// Operations on numerical grids: pairs of lattice pmfs (lower, upper) on one uniform grid
// that bracket the truth in the usual stochastic order, plus a transport slack.
// Library-internal; docs/distributions.md explains why every step keeps the bracket.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "distributions/distribution.hpp"
#include "distributions/representation.hpp"

namespace distributions::detail {

// Mean and variance of one lattice pmf (normalised by its total).
double lattice_mean(std::span<const double> pmf, double origin, double step);
double lattice_variance(std::span<const double> pmf, double origin, double step);

// Any distribution as a grid (closed forms are discretised between their tail quantiles).
Numerical to_numerical(const Distribution& d, const GridOptions& options);
Numerical discretise_closed(const Node& node, const GridOptions& options);
// Point masses at arbitrary positions, normalised (from_samples, from_histogram).
Numerical lattice_from_points(std::span<const double> values, std::span<const double> weights,
                              const GridOptions& options);

// Removes negligible tails (mass <= tail_mass on each side, unsafe moves into the slack) and
// coarsens by an integer factor until at most max_points remain.
void compact(Numerical& n, const GridOptions& options);

Numerical lattice_series(const Numerical& a, const Numerical& b, const GridOptions& options);
Numerical lattice_series_power(const Numerical& a, std::int64_t n, const GridOptions& options);
Numerical lattice_max(const Numerical& a, const Numerical& b, const GridOptions& options);
Numerical lattice_max_power(const Numerical& a, std::int64_t p, const GridOptions& options);
Numerical lattice_min(const Numerical& a, const Numerical& b, const GridOptions& options);
Numerical lattice_mixture(std::span<const double> weights, std::span<const Numerical> parts,
                          const GridOptions& options);

// ---- FFT kernels (fft_power.cpp) ----
struct FftResult {
  std::vector<double> pmf;
  double clamped_mass;  // total of negative values set to 0 (a measure of round-off)
};
// Linear convolution of two pmfs (direct for small sizes, FFTW otherwise).
FftResult convolve(std::span<const double> a, std::span<const double> b);
// The n-fold convolution power of pmf (indices 0..N-1) read on the window [first, first+size)
// of the result's indices, computed with one FFT of length size (mass outside the window wraps).
FftResult convolution_power_window(std::span<const double> pmf, std::int64_t n, std::int64_t first, std::size_t size);

}  // namespace distributions::detail
