// A small dense square matrix for phase-type computations (library-internal).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace distributions::detail {

class Matrix {
 public:
  explicit Matrix(std::size_t n) : n_(n), a_(n * n, 0.0) {}
  static Matrix identity(std::size_t n) {
    Matrix m(n);
    for (std::size_t i = 0; i < n; ++i) m(i, i) = 1.0;
    return m;
  }
  std::size_t size() const { return n_; }
  double& operator()(std::size_t i, std::size_t j) { return a_[i * n_ + j]; }
  double operator()(std::size_t i, std::size_t j) const { return a_[i * n_ + j]; }

  friend Matrix operator*(const Matrix& x, const Matrix& y) {
    const std::size_t n = x.n_;
    Matrix r(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < n; ++k) {
        const double xik = x(i, k);
        if (xik == 0.0) continue;
        for (std::size_t j = 0; j < n; ++j) r.a_[i * n + j] += xik * y.a_[k * n + j];
      }
    }
    return r;
  }
  void scale(double factor) {
    for (double& v : a_) v *= factor;
  }
  void add(const Matrix& other) {
    for (std::size_t i = 0; i < a_.size(); ++i) a_[i] += other.a_[i];
  }
  double max_abs() const {
    double m = 0.0;
    for (double v : a_) m = std::max(m, std::abs(v));
    return m;
  }

 private:
  std::size_t n_;
  std::vector<double> a_;
};

// Solves m x = b by Gaussian elimination with partial pivoting.
inline std::vector<double> solve(Matrix m, std::vector<double> b) {
  const std::size_t n = m.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r) {
      if (std::abs(m(r, col)) > std::abs(m(pivot, col))) pivot = r;
    }
    if (m(pivot, col) == 0.0) throw std::invalid_argument("phase_type: singular subgenerator");
    if (pivot != col) {
      for (std::size_t j = 0; j < n; ++j) std::swap(m(pivot, j), m(col, j));
      std::swap(b[pivot], b[col]);
    }
    for (std::size_t r = col + 1; r < n; ++r) {
      const double factor = m(r, col) / m(col, col);
      if (factor == 0.0) continue;
      for (std::size_t j = col; j < n; ++j) m(r, j) -= factor * m(col, j);
      b[r] -= factor * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j) s -= m(i, j) * x[j];
    x[i] = s / m(i, i);
  }
  return x;
}

}  // namespace distributions::detail
