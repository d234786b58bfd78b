// Isoefficiency: per processor count, the problem size that holds a target efficiency of the
// approximate model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

struct IsoefficiencyOptions {
  double target = 0.8;  // in (0, 1]
  // The program variable that sets the problem size, or a constant of the machine (ts, tw).
  std::string variable;
  double min_size = 1;    // a program variable: the search is over the integers in [min_size, max_size]
  double max_size = 1e9;  // in [min_size, 1e15]
  // A machine constant: the search is over the reals in [constant_min, constant_max], by
  // default [v / 1000, 1000 v] for the constant's value v in the machine file (which must then be
  // > 0); both ends > 0, the search bisects on a log scale to `relative_precision`.
  std::optional<double> constant_min;
  std::optional<double> constant_max;
  double relative_precision = 1e-6;  // in [1e-12, 0.1]
  // Means only: no distribution is kept (as in Request).
  solvers::SeriesParallelOptions series_parallel = [] {
    solvers::SeriesParallelOptions options;
    options.keep_distribution = false;
    return options;
  }();

  bool IsValid(std::string* why) const;
};

struct IsoefficiencyPoint {
  std::size_t machine_index = 0;
  int p = 1;
  std::optional<double> size;  // empty when no size up to the limit reaches the target
  double efficiency = 0.0;     // at `size` (at the limit when not reached)
  double mean = 0.0;           // T(size, p) of the approximate model
  int evaluations = 0;         // sizes tried
  // A machine constant (`size` is then its value): the range searched and which side of `size`
  // holds the target. AtMost: the efficiency falls as the constant grows (a cost such as t_w),
  // and `size` is the largest value that holds; AtLeast: it rises, and `size` is the smallest.
  // When both ends of the range hold, `size` is the end on the side that holds and
  // `whole_range` is set; when neither does, `size` is empty and the figures are at the end
  // with the higher efficiency.
  enum class Holds { AtLeast, AtMost };
  bool machine_constant = false;
  Holds holds = Holds::AtLeast;  // a problem size: the first crossing from below
  double range_low = 0.0;
  double range_high = 0.0;
  bool whole_range = false;
};

// The efficiency T(n, 1) / (p T(n, p)) of the approximate model at one binding, and T(n, p).
// Throws scaling::ScalingError for values invalid once bound.
std::pair<double, double> approximate_efficiency(const models::Program& program, const models::Machine& machine,
                                                 const models::Environment& environment, int p,
                                                 const solvers::SeriesParallelOptions& options);

// For every machine and every processor count of `processors`, the size that holds the
// efficiency, by machine then by p. The variable must be a variable of every program or a
// constant of every machine (a Binding or InvalidValue failure otherwise); a machine
// constant is searched as IsoefficiencyPoint describes, by bisection on log(value) between the
// ends of its range until they are within `relative_precision`. Searched by doubling from min_size until the target
// holds, then bisection between the last size that failed and the first that held. Efficiency is not always monotone in
// the size (a block distribution of n units over p processors is balanced only when p divides n), so the result is a
// size that holds the target whose predecessor does not, found from below: the smallest such size in all the cases
// where efficiency grows with the size. Runs on the study's parallel driver with `threads` workers (0: every core).
Outcome<std::vector<IsoefficiencyPoint>> run_isoefficiency(const std::vector<MachineInput>& machines,
                                                           const std::vector<int>& processors,
                                                           const IsoefficiencyOptions& options, int threads);

}  // namespace analysis
