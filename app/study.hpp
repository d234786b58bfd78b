// Studies beyond one speedup curve: problem-size sweeps (--sweep), the loss analysis of the
// paper's section 5 (--loss) and isoefficiency (--isoefficiency). Plain functions over the
// checked model; the sweep over p (sweep.hpp) does the solving.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace app {

// One --sweep NAME=LIST: the values in the order given, without repeats.
struct SweepVariable {
  std::string name;
  std::vector<double> values;
};

// At most this many values per --sweep, and configurations (their cross product) in all.
inline constexpr std::size_t kMaxSweepValues = 10'000;

// Parses "name=LIST". LIST is comma-separated items, each
//   v          a number
//   a..b       a, a+1, ..., up to b
//   a..b:s     a, a+s, a+2s, ..., up to b (s > 0)
//   a..b*f     a, a*f, a*f^2, ..., up to b (f > 1, a > 0)
// e.g. "columns=10,20,40..160*2" is 10, 20, 40, 80, 160. On failure returns nullopt and sets
// *error to a message that quotes the option.
std::optional<SweepVariable> parse_sweep(const std::string& text, std::string* error);

// Every combination of the swept values (the cross product, the first variable slowest), as
// name/value pairs in the order of `variables`; one empty combination when there is none.
std::vector<std::vector<std::pair<std::string, double>>> sweep_combinations(
    const std::vector<SweepVariable>& variables);

// The names of the program's phases that the execution pattern runs, in order of first use.
std::vector<std::string> pattern_phases(const models::Program& program);

// The name --loss gives the case where every phase is free and only the barriers (SYNC) cost:
// SYNC is a keyword, so no phase has this name.
inline constexpr const char* kBarriersOnly = "SYNC";

// True when the execution pattern has a SYNC.
bool pattern_has_sync(const models::Program& program);

// The program with every phase except `kept` made free: runtimes DETERMINISTIC(0) and
// communication volumes 0 (so no message either). Barriers (SYNC) still cost what the machine
// says. This is the paper's loss analysis (section 5): "the execution time of all program
// phases not considered should be set to deterministic runtimes with mean value 0".
models::Program with_only_phase(const models::Program& program, const std::string& kept);

// --isoefficiency: for one processor count, the problem size that holds the efficiency.
struct IsoefficiencyPoint {
  int p = 1;
  std::optional<double> size;  // empty when no size up to the limit reaches the target
  double efficiency = 0.0;     // at `size` (at the limit when not reached)
  double mean = 0.0;           // T(size, p) of the approximate model
  int evaluations = 0;         // sizes tried
};

struct IsoefficiencyOptions {
  double target = 0.8;        // in (0, 1]
  std::string variable;       // the program variable that sets the problem size
  double min_size = 1;        // the search is over the integers in [min_size, max_size]
  double max_size = 1e9;
  solvers::SeriesParallelOptions series_parallel;
};

// The efficiency T(n, 1) / (p T(n, p)) of the approximate model with the variable at n.
// `bind_at(n)` returns the environment with the variable (and everything derived from it) at n.
// Searched by doubling from min_size until the target holds, then bisection between the last
// size that failed and the first that held. Efficiency is not always monotone in the size (a
// block distribution of n units over p processors is balanced only when p divides n), so the
// result is a size that holds the target whose predecessor does not, found from below: the
// smallest such size in all the cases where efficiency grows with the size. Throws
// scaling::ScalingError when the model is invalid at a size tried.
template <typename BindAt>
IsoefficiencyPoint isoefficiency_point(const models::Program& program, const models::Machine& machine,
                                       const BindAt& bind_at, int p, const IsoefficiencyOptions& options);

// The efficiency of the approximate model at one size and p (T(n,1) / (p T(n,p))) and T(n,p).
std::pair<double, double> approximate_efficiency(const models::Program& program, const models::Machine& machine,
                                                 const models::Environment& environment, int p,
                                                 const solvers::SeriesParallelOptions& options);

template <typename BindAt>
IsoefficiencyPoint isoefficiency_point(const models::Program& program, const models::Machine& machine,
                                       const BindAt& bind_at, int p, const IsoefficiencyOptions& options) {
  IsoefficiencyPoint point;
  point.p = p;
  auto holds = [&](double size, double* efficiency, double* mean) {
    ++point.evaluations;
    const auto [e, t] = approximate_efficiency(program, machine, bind_at(size), p, options.series_parallel);
    *efficiency = e;
    *mean = t;
    return e >= options.target;
  };
  double efficiency = 0.0, mean = 0.0;
  double low = options.min_size;  // the last size known to fail, once one has
  if (holds(low, &efficiency, &mean)) {
    point.size = low;
    point.efficiency = efficiency;
    point.mean = mean;
    return point;
  }
  double high = low;
  double high_efficiency = 0.0, high_mean = 0.0;
  while (true) {
    if (high >= options.max_size) {
      point.efficiency = efficiency;
      point.mean = mean;
      return point;  // not reached
    }
    low = high;
    high = std::min(options.max_size, std::max(high * 2, high + 1));
    if (holds(high, &high_efficiency, &high_mean)) break;
    efficiency = high_efficiency;
    mean = high_mean;
  }
  // low fails, high holds: bisect over the integers between them.
  while (high - low > 1) {
    const double middle = std::floor((low + high) / 2);
    double e = 0.0, t = 0.0;
    if (holds(middle, &e, &t)) {
      high = middle;
      high_efficiency = e;
      high_mean = t;
    } else {
      low = middle;
    }
  }
  point.size = high;
  point.efficiency = high_efficiency;
  point.mean = high_mean;
  return point;
}

}  // namespace app
