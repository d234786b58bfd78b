#include "analysis/scaling_laws.hpp"

#include <cmath>

namespace analysis {

std::optional<double> karp_flatt(double speedup, int p) {
  if (p < 2 || !(speedup > 0.0)) return std::nullopt;
  const double inverse_p = 1.0 / static_cast<double>(p);
  const double e = (1.0 / speedup - inverse_p) / (1.0 - inverse_p);
  if (!std::isfinite(e)) return std::nullopt;
  return e;
}

std::optional<double> gustafson_fraction(double speedup, int p) {
  if (p < 2 || !std::isfinite(speedup)) return std::nullopt;
  return (static_cast<double>(p) - speedup) / static_cast<double>(p - 1);
}

double amdahl(double alpha, int p) { return 1.0 / (alpha + (1.0 - alpha) / static_cast<double>(p)); }

double gustafson(double s, int p) { return static_cast<double>(p) - s * static_cast<double>(p - 1); }

ScalingLaws scaling_laws(const std::vector<std::pair<int, std::optional<double>>>& speedups) {
  ScalingLaws laws;
  for (const auto& [p, speedup] : speedups) {
    ScalingLawsRow row;
    row.p = p;
    row.speedup = speedup;
    if (speedup) row.karp_flatt = karp_flatt(*speedup, p);
    if (row.karp_flatt && laws.alpha_p == 0) {
      laws.alpha_p = p;
      laws.amdahl_alpha = row.karp_flatt;
      laws.gustafson_alpha = gustafson_fraction(*speedup, p);
    }
    laws.rows.push_back(row);
  }
  for (ScalingLawsRow& row : laws.rows) {
    // A negative α (a superlinear speedup at alpha_p) can make Amdahl's denominator vanish.
    if (laws.amdahl_alpha && *laws.amdahl_alpha + (1.0 - *laws.amdahl_alpha) / row.p > 0.0) {
      row.amdahl = amdahl(*laws.amdahl_alpha, row.p);
    }
    if (laws.gustafson_alpha) row.gustafson = gustafson(*laws.gustafson_alpha, row.p);
  }
  return laws;
}

}  // namespace analysis
