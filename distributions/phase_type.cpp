#include "distributions/phase_type.hpp"
#include "distributions/boost_math_errors.hpp"
#include "distributions/errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <boost/math/special_functions/gamma.hpp>

#include "distributions/internal.hpp"

namespace distributions::detail {

// exp(T y) = e^{-L y} exp(L y P) with P = I + T/L >= 0 (uniformisation). With L y <= 1/2 the
// Taylor series of exp(L y P) has non-negative terms (no cancellation); squaring non-negative
// matrices is also cancellation-free, so exp(T x) is accurate entrywise even when tiny.
Matrix phase_type_exponential(const PhaseType& d, double x) {
  const std::size_t n = d.size;
  double uniformisation_rate = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    uniformisation_rate = std::max(uniformisation_rate, -d.subgenerator[i * n + i]);
  }
  int squarings = 0;
  double y = x;
  while (uniformisation_rate * y > 0.5) {
    y *= 0.5;
    ++squarings;
  }
  Matrix p(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      p(i, j) = (i == j ? 1.0 : 0.0) + d.subgenerator[i * n + j] / uniformisation_rate;
      if (p(i, j) < 0.0) p(i, j) = 0.0;  // rounding of 1 - |t_ii|/L
    }
  }
  const double ly = uniformisation_rate * y;
  Matrix result = Matrix::identity(n);
  Matrix term = Matrix::identity(n);
  for (int k = 1; k < 40; ++k) {
    term = term * p;
    const double factor = ly / k;
    term.scale(factor);
    result.add(term);
    if (term.max_abs() < 1e-18 * result.max_abs()) break;
  }
  result.scale(std::exp(-ly));
  for (int s = 0; s < squarings; ++s) result = result * result;
  return result;
}

double phase_type_survival(const PhaseType& d, double x) {
  if (x < 0.0) return 1.0;
  const Matrix e = phase_type_exponential(d, x);
  double total = 0.0;
  for (std::size_t i = 0; i < d.size; ++i) {
    double row = 0.0;
    for (std::size_t j = 0; j < d.size; ++j) row += e(i, j);
    total += d.alpha[i] * row;
  }
  return std::clamp(total, 0.0, 1.0);
}

PhaseType hypoexponential_as_phase_type(const Hypoexponential& d) {
  const std::size_t n = d.rates.size();
  PhaseType ph{n, std::vector<double>(n, 0.0), std::vector<double>(n * n, 0.0), 0.0};
  ph.alpha[0] = 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    ph.subgenerator[i * n + i] = -d.rates[i];
    if (i + 1 < n) ph.subgenerator[i * n + i + 1] = d.rates[i];
  }
  return ph;
}

// First two moments of a phase-type: m1 = (-T)^{-1} 1, m2 = (-T)^{-1} m1.
std::pair<double, double> phase_type_moments(const PhaseType& d) {
  const std::size_t n = d.size;
  Matrix minus_t(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) minus_t(i, j) = -d.subgenerator[i * n + j];
  }
  const std::vector<double> m1 = solve(minus_t, std::vector<double>(n, 1.0));
  const std::vector<double> m2 = solve(minus_t, m1);
  double first = 0.0;
  double second = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    first += d.alpha[i] * m1[i];
    second += 2.0 * d.alpha[i] * m2[i];
  }
  return {first, second};
}

bool all_rates_equal(const std::vector<double>& rates) {
  return std::all_of(rates.begin(), rates.end(), [&](double r) { return r == rates.front(); });
}

namespace {

// Survival of a long chain of stages: uniformisation on the bidiagonal chain, O(stages) per
// Poisson term.
double long_hypoexponential_survival(const Hypoexponential& d, double x) {
  if (x <= 0.0) return 1.0;
  const std::size_t n = d.rates.size();
  const double rate = *std::max_element(d.rates.begin(), d.rates.end());
  const double lx = rate * x;
  const auto terms = static_cast<std::size_t>(lx + 12.0 * std::sqrt(lx) + 40.0);
  if (terms > 20'000'000) {
    throw InvalidDistribution("hypoexponential: cdf at x=" + format_number(x) + " needs too many uniformisation terms");
  }
  // v_j = P^j 1, P = I + T/rate; survival = sum_j Poisson(j; lx) * v_j[0].
  std::vector<double> v(n, 1.0);
  std::vector<double> next(n);
  double total = 0.0;
  for (std::size_t j = 0; j <= terms; ++j) {
    const double jd = static_cast<double>(j);
    const double weight = std::exp(-lx + jd * std::log(lx) - std::lgamma(jd + 1.0));
    total += weight * v[0];
    for (std::size_t i = 0; i < n; ++i) {
      const double stay = 1.0 - d.rates[i] / rate;
      next[i] = stay * v[i] + (i + 1 < n ? d.rates[i] / rate * v[i + 1] : 0.0);
    }
    std::swap(v, next);
  }
  return std::clamp(total, 0.0, 1.0);
}

}  // namespace

double hypoexponential_survival(const Hypoexponential& d, double x) {
  if (x <= 0.0) return 1.0;
  if (d.max_of_exponentials_rate > 0.0) {
    // 1 - (1 - e^{-r x})^p, computed as -expm1(p log1p(-e^{-r x})).
    const double p = static_cast<double>(d.rates.size());
    return -std::expm1(p * std::log1p(-std::exp(-d.max_of_exponentials_rate * x)));
  }
  if (all_rates_equal(d.rates)) {
    return boost::math::gamma_q(static_cast<double>(d.rates.size()), d.rates.front() * x, kTypedErrors);
  }
  if (d.rates.size() <= 64) return phase_type_survival(hypoexponential_as_phase_type(d), x);
  return long_hypoexponential_survival(d, x);
}

}  // namespace distributions::detail
