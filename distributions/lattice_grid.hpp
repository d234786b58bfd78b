// Helpers shared by the files of the numerical grids (lattice.cpp, lattice_discretise.cpp,
// lattice_operations.cpp): positions, normalisation, accurate cumulative forms, rebinning and
// a common grid for several lattices. Library-internal.
#pragma once

#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

#include "distributions/representation.hpp"

namespace distributions::detail {

// Grid positions computed in floating point are snapped to the nearest grid point when within
// this fraction of a step; the (unsafe) move is at most kSnap * step per unit mass, which is
// added to the slack.
constexpr double kSnap = 1e-9;

inline double total_of(std::span<const double> pmf) { return std::accumulate(pmf.begin(), pmf.end(), 0.0); }

inline double span_of(const Numerical& n) {
  return n.lower.size() > 1 ? static_cast<double>(n.lower.size() - 1) * n.step : 0.0;
}

inline double position(const Numerical& n, std::size_t i) { return n.origin + static_cast<double>(i) * n.step; }

inline double last_position(const Numerical& n) { return position(n, n.lower.size() - 1); }

inline Numerical single_point(double x, double slack) { return Numerical{x, 0.0, {1.0}, {1.0}, slack}; }

// Scales both lattices to total 1; the mass this moves (round-off) and extra_noise_mass go
// into the slack.
void normalise(Numerical& n, double extra_noise_mass);

// Accurate cumulative forms of a pmf: cdf[i] = sum_{j<=i} pmf[j] (accurate where small) and
// survival[i] = sum_{j>i} pmf[j] (accurate where small).
struct Cumulative {
  std::vector<double> cdf;
  std::vector<double> survival;
};
Cumulative cumulative_of(std::span<const double> pmf);
// The pmf back from accurate (cdf, survival) pairs.
std::vector<double> pmf_from(const Cumulative& c);

// Moves a lattice (source positions origin + i*step) onto the grid (to_origin, to_step) of
// out.size() points: mass goes to the grid point at or below (round_up == false, for lower
// lattices) or at or above (round_up == true, for upper lattices).
void rebin_into(std::span<const double> pmf, double origin, double step, double to_origin, double to_step,
                bool round_up, std::vector<double>& out);
// Both lattices of n onto the grid (to_origin, to_step) of size points, each the safe way.
Numerical rebin(const Numerical& n, double to_origin, double to_step, std::size_t size);

struct CommonGrid {
  double origin;
  double step;
  std::size_t size;
};
// One grid for several lattices, of at most 4 max_points points.
CommonGrid common_grid(std::span<const Numerical* const> parts, std::size_t max_points);

}  // namespace distributions::detail
