// The figures of --sensitivity (analysis/sensitivity.hpp) as a study keeps them: per (case, p),
// each constant's elasticity with its interval and its tolerances.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "solvers/solver.hpp"

namespace analysis {

// Where a constant is declared.
enum class ConstantOwner {
  Program,        // VARIABLE of the program (--set, --sweep)
  Machine,        // VARIABLE of the machine file (a constant such as ts)
  RuntimeFactor,  // RTFactor, the machine's runtime factor
};

// "program", "machine", "rtfactor": CSV and JSON.
const char* to_string(ConstantOwner owner);

// How one constant's elasticity was computed.
enum class ElasticityKind {
  Exact,        // central difference of exact means: [lower, upper] spans the one-sided slopes
  Paired,       // Monte Carlo with common random numbers: a 95% confidence interval
  Approximate,  // the approximate model's means: the interval from their discretisation brackets
};

// "exact", "confidence", "approximate": CSV and JSON.
const char* to_string(ElasticityKind kind);

struct ConstantSensitivity {
  std::string name;
  ConstantOwner owner = ConstantOwner::Program;
  double value = 0.0;  // x, as bound in the case
  // e, with an interval that contains it (ElasticityKind says in what sense); empty, with
  // `why_not`, where it could not be computed.
  std::optional<double> elasticity;
  double lower = 0.0;
  double upper = 0.0;
  ElasticityKind kind = ElasticityKind::Exact;
  // The model takes this constant in whole numbers only (a count, a problem size): its
  // differences are over x - 1 and x + 1 and its tolerances are whole values over x.
  bool whole_steps = false;
  // Per SensitivityOptions::growths: the largest factor f found with T(f x) <= (1 + growth) T(x)
  // (to SensitivityOptions::factor_precision); empty when T does not grow that much for any f up
  // to max_factor (`unbounded`) or when it could not be searched (`why_not`).
  std::array<std::optional<double>, 2> tolerances;
  std::array<bool, 2> unbounded{false, false};
  std::string why_not;
};

// The sensitivities of one (case, p) whose prediction has a figure to differentiate.
struct SensitivityRow {
  std::size_t case_index = 0;
  int p = 1;
  solvers::Method method = solvers::Method::SeriesParallel;  // the prediction's method
  double time = 0.0;                                         // T(x) as that method computes it
  std::vector<ConstantSensitivity> constants;                // program, RTFactor, machine order
  std::string why_not;  // non-empty: no elasticity at this p (e.g. only bounds are known)
};

// How large |e| surely is: the end of its interval nearest 0 (0 when the interval holds 0; -1
// without an elasticity). A whole-number constant's one-sided slopes can differ by far, and a
// Monte Carlo figure carries its noise: the ranking goes by what the interval guarantees.
double surely(const ConstantSensitivity& constant);

// The constants of a row taken continuously (not whole_steps: a count's difference over x +- 1 is
// no derivative, and a size's jumps where it stops dividing evenly among p) ranked by surely(),
// largest first (those without an elasticity last; equal ones in declaration order).
std::vector<const ConstantSensitivity*> ranked(const SensitivityRow& row);

// Where the leading constant of a case (the first of ranked(), with surely() > 0) changes along
// p: the p from which `name` leads, the first entry at the smallest p with one.
struct LeadingConstant {
  int from_p = 1;
  std::string name;
};
std::vector<LeadingConstant> leading_constants(const std::vector<SensitivityRow>& rows, std::size_t case_index);

}  // namespace analysis
