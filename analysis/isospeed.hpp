// Isospeed scalability after Sun and Zhu (docs/scaling.md): per processor count, the work that
// keeps the average speed per processor, W / (p T), and the scalability
// ψ(p, p') = p' W(p) / (p W(p')) between any two counts.
//
// The work measure is the program's total mean task work in µs at RTFactor 1: the sum of the
// means of every task as the PDL writes them, before the machine's RTFactor. The model gives it
// as T(n, 1) / RTFactor, since one processor runs every task in series and pays no message,
// barrier or contention (docs/semantics.md). The average speed a = W / (p T) is then in work
// units per µs per processor, and a · RTFactor = T(n, 1) / (p T(n, p)) is the efficiency: Sun
// and Zhu's a·τ, the fraction of one processor's speed that each of the p keeps.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/study.hpp"

namespace analysis {

struct IsospeedOptions {
  std::string variable;  // the program variable that sets the problem size
  // The average speed to hold, as a fraction a·RTFactor of one processor's speed, in (0, 1];
  // empty: the speed of the smallest processor count at the variable's bound value (--set or
  // its default).
  std::optional<double> fraction;
  double max_size = IsoefficiencyOptions{}.max_size;  // the search's largest size
  solvers::SeriesParallelOptions series_parallel = IsoefficiencyOptions{}.series_parallel;

  bool IsValid(std::string* why) const;
};

struct IsospeedPoint {
  std::size_t machine_index = 0;
  int p = 1;
  std::optional<double> size;  // the variable's value; empty when none up to max_size holds the speed
  double work = 0.0;           // W at `size` (at max_size when not reached), µs at RTFactor 1
  double speed = 0.0;          // W / (p T): work units per µs per processor
  double mean = 0.0;           // T(size, p) of the approximate model, µs
  int evaluations = 0;         // sizes tried
};

struct IsospeedResult {
  // Per machine: the average speed held (work units per µs per processor) and its fraction
  // a·RTFactor of one processor's speed.
  std::vector<double> speed;
  std::vector<double> fraction;
  std::vector<IsospeedPoint> points;  // by machine, then by processor count
};

// ψ(p, p') = p' W / (p W'), `from` at p with work W and `to` at p' with W'; empty when either
// has no size.
std::optional<double> isospeed_scalability(const IsospeedPoint& from, const IsospeedPoint& to);

// For every machine and processor count, the smallest size (searched as --isoefficiency
// searches, isoefficiency.hpp) whose average speed is at least the held one. With a base (no
// fraction given) the smallest processor count keeps the bound size itself. A value that
// cannot be bound, or a variable without a value for the base, is a Binding failure.
Outcome<IsospeedResult> run_isospeed(const std::vector<MachineInput>& machines, const std::vector<int>& processors,
                                     const IsospeedOptions& options, int threads);

}  // namespace analysis
