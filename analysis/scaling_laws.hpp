// Reference curves of a speedup curve: the Karp–Flatt serial fraction per p, and Amdahl's and
// Gustafson's laws, each with the serial fraction that makes it pass through the model's
// speedup at the smallest p >= 2 (docs/scaling.md).
#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace analysis {

// The experimentally determined serial fraction of Karp and Flatt,
// e(p) = (1/S − 1/p) / (1 − 1/p): the fraction α of the one-processor time for which Amdahl's
// law gives the speedup S on p processors. Empty for p < 2 or S <= 0.
std::optional<double> karp_flatt(double speedup, int p);
// Gustafson's serial fraction s = (p − S) / (p − 1): the fraction of the p-processor time for
// which Gustafson's law gives the (scaled) speedup S. Empty for p < 2.
std::optional<double> gustafson_fraction(double speedup, int p);
// Amdahl's law, a fixed problem whose fraction α of the one-processor time is serial:
// S(p) = 1 / (α + (1 − α)/p).
double amdahl(double alpha, int p);
// Gustafson's law, a problem scaled with p whose p-processor run spends the fraction s of its
// time in serial work: S(p) = p − s (p − 1).
double gustafson(double s, int p);

struct ScalingLawsRow {
  int p = 1;
  std::optional<double> speedup;     // the model's, as given
  std::optional<double> karp_flatt;  // e(p), p >= 2
  std::optional<double> amdahl;      // Amdahl's law at ScalingLaws::amdahl_alpha
  std::optional<double> gustafson;   // Gustafson's law at ScalingLaws::gustafson_alpha
};

struct ScalingLaws {
  // The smallest p >= 2 with a speedup (0: none), and there the Karp–Flatt fraction e(p) (the
  // α of Amdahl's curve) and Gustafson's fraction (p − S)/(p − 1): each law then meets the
  // model's speedup at alpha_p.
  int alpha_p = 0;
  std::optional<double> amdahl_alpha;
  std::optional<double> gustafson_alpha;
  std::vector<ScalingLawsRow> rows;  // in the order given
};

// The laws along one speedup curve, given as (p, speedup) with p ascending.
ScalingLaws scaling_laws(const std::vector<std::pair<int, std::optional<double>>>& speedups);

}  // namespace analysis
