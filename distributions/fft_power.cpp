// FFT kernels: linear convolution and the cyclic convolution power on a window.
//
// FFTW's planner is not thread-safe, its execution is: plan creation and destruction are
// serialised by one mutex, execution runs concurrently. Plans use FFTW_ESTIMATE (no timing
// runs), so creating one per call costs microseconds and keeps the code free of plan caches.
#include <algorithm>
#include <cmath>
#include <complex>
#include <mutex>
#include <stdexcept>

#include <fftw3.h>

#include "distributions/lattice.hpp"

namespace distributions::detail {

namespace {

std::mutex& fftw_planner_mutex() {
  static std::mutex planner_mutex;  // the one global this library has: FFTW's planner lock
  return planner_mutex;
}

// A real <-> half-complex transform pair of one size with its own buffers.
class RealFft {
 public:
  explicit RealFft(std::size_t size) : size_(size) {
    real_ = fftw_alloc_real(size);
    spectrum_ = fftw_alloc_complex(size / 2 + 1);
    if (real_ == nullptr || spectrum_ == nullptr) {
      release_buffers();
      throw std::bad_alloc();
    }
    const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    const int n = static_cast<int>(size);
    forward_ = fftw_plan_dft_r2c_1d(n, real_, spectrum_, FFTW_ESTIMATE);
    backward_ = fftw_plan_dft_c2r_1d(n, spectrum_, real_, FFTW_ESTIMATE);
  }
  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;
  ~RealFft() {
    {
      const std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      fftw_destroy_plan(forward_);
      fftw_destroy_plan(backward_);
    }
    release_buffers();
  }

  double* real() { return real_; }
  std::complex<double>* spectrum() { return reinterpret_cast<std::complex<double>*>(spectrum_); }
  std::size_t spectrum_size() const { return size_ / 2 + 1; }
  void forward() { fftw_execute(forward_); }
  // Unnormalised inverse: multiply by 1/size afterwards.
  void backward() { fftw_execute(backward_); }

 private:
  void release_buffers() {
    if (real_ != nullptr) fftw_free(real_);
    if (spectrum_ != nullptr) fftw_free(spectrum_);
  }
  std::size_t size_;
  double* real_ = nullptr;
  fftw_complex* spectrum_ = nullptr;
  fftw_plan forward_ = nullptr;
  fftw_plan backward_ = nullptr;
};

// Sizes 2^a 3^b 5^c 7^d are fast for FFTW; the smallest one >= n.
std::size_t fast_fft_size(std::size_t n) {
  std::size_t best = 1;
  while (best < n) best *= 2;
  for (std::size_t p7 = 1; p7 < best; p7 *= 7) {
    for (std::size_t p5 = p7; p5 < best; p5 *= 5) {
      for (std::size_t p3 = p5; p3 < best; p3 *= 3) {
        std::size_t candidate = p3;
        while (candidate < n) candidate *= 2;
        best = std::min(best, candidate);
      }
    }
  }
  return best;
}

FftResult clamp_negatives(std::vector<double> values) {
  double clamped = 0.0;
  for (double& v : values) {
    if (v < 0.0) {
      clamped -= v;
      v = 0.0;
    }
  }
  return {std::move(values), clamped};
}

}  // namespace

FftResult convolve(std::span<const double> a, std::span<const double> b) {
  const std::size_t result_size = a.size() + b.size() - 1;
  // Direct summation is exact up to rounding and has no negatives; use it while cheap.
  if (std::min(a.size(), b.size()) <= 48 || a.size() * b.size() <= (std::size_t{1} << 16)) {
    std::vector<double> result(result_size, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] == 0.0) continue;
      for (std::size_t j = 0; j < b.size(); ++j) result[i + j] += a[i] * b[j];
    }
    return {std::move(result), 0.0};
  }
  const std::size_t size = fast_fft_size(result_size);
  RealFft fa(size);
  RealFft fb(size);
  std::fill(fa.real(), fa.real() + size, 0.0);
  std::fill(fb.real(), fb.real() + size, 0.0);
  std::copy(a.begin(), a.end(), fa.real());
  std::copy(b.begin(), b.end(), fb.real());
  fa.forward();
  fb.forward();
  for (std::size_t k = 0; k < fa.spectrum_size(); ++k) fa.spectrum()[k] *= fb.spectrum()[k];
  fa.backward();
  const double inverse_size = 1.0 / static_cast<double>(size);
  std::vector<double> result(fa.real(), fa.real() + result_size);
  for (double& v : result) v *= inverse_size;
  return clamp_negatives(std::move(result));
}

FftResult convolution_power_window(std::span<const double> pmf, std::int64_t n,
                                   std::int64_t first, std::size_t size) {
  const std::size_t fft_size = fast_fft_size(size);
  RealFft f(fft_size);
  std::fill(f.real(), f.real() + fft_size, 0.0);
  // Wrapping the input onto the cycle is exact: the power of the cyclic transform is the
  // cyclic image of the linear power.
  for (std::size_t j = 0; j < pmf.size(); ++j) f.real()[j % fft_size] += pmf[j];
  f.forward();
  const double power = static_cast<double>(n);
  for (std::size_t k = 0; k < f.spectrum_size(); ++k) {
    const std::complex<double> z = f.spectrum()[k];
    const double magnitude = std::abs(z);
    if (magnitude == 0.0) {
      f.spectrum()[k] = 0.0;
      continue;
    }
    // Polar form: |z|^n underflows gracefully to 0 where the characteristic function is small.
    const double new_magnitude = std::exp(power * std::log(magnitude));
    const double angle = std::fmod(power * std::arg(z), 2.0 * 3.14159265358979323846);
    f.spectrum()[k] = std::polar(new_magnitude, angle);
  }
  f.backward();
  const double inverse_size = 1.0 / static_cast<double>(fft_size);
  std::vector<double> result(size);
  const auto cycle = static_cast<std::int64_t>(fft_size);
  for (std::size_t i = 0; i < size; ++i) {
    const std::int64_t absolute = first + static_cast<std::int64_t>(i);
    const std::int64_t slot = ((absolute % cycle) + cycle) % cycle;
    result[i] = f.real()[slot] * inverse_size;
  }
  return clamp_negatives(std::move(result));
}

}  // namespace distributions::detail
