// FFT kernels: linear convolution and the cyclic convolution power on a window.
//
// FFTW's planner is not thread-safe, its execution is: plan creation and destruction are
// serialised by one mutex, execution runs concurrently. Plans use FFTW_ESTIMATE (no timing
// runs), but even so a plan computes its size's twiddle factors and hashes the problem: with a
// plan per call that was a fifth of the bounds' time on the README's command (perf: sincos and
// fftw_md5). So each thread keeps its plans, with their buffers, by size.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <fftw3.h>

#include "distributions/lattice.hpp"

namespace distributions::detail {

namespace {

std::mutex& fftw_planner_mutex() {
  // The one global this library has: FFTW's planner lock. Never destroyed, so that a thread's
  // plan cache may be destroyed at any point of the process' exit.
  static std::mutex* const planner_mutex = new std::mutex;
  return *planner_mutex;
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

// `count` (1 or 2) transforms of `size` for the calling thread: a convolution needs two at once.
// Only small transforms are kept, those whose planning costs as much as their execution: a
// thread keeps plans of at most kCachedBytes of buffers between them (the grids' sizes are few,
// 74 plans on the README's command), and a thread that meets more starts over rather than hold
// them all — before it hands out any of the call's transforms, so none is freed while in use.
// Larger convolutions (over kLargestCachedBytes) are made for the call and freed after it
// (`scratch`): a sweep over p meets a new size at nearly every p, and keeping megabytes it never
// reuses made a 1024-p sweep of 10^5 columns 12% slower. An FFT power's sizes come from a short
// list (power_fft_size) and are always kept (`any_size`): planning a 32,768-point pair per call
// (its twiddle factors' sines and cosines) cost as much as the power itself.
constexpr std::size_t kCachedBytes = std::size_t{4} << 20;
constexpr std::size_t kLargestCachedBytes = std::size_t{256} << 10;
std::size_t buffer_bytes(std::size_t size) { return size * sizeof(double) + (size / 2 + 1) * sizeof(fftw_complex); }

std::array<RealFft*, 2> thread_ffts(std::size_t size, int count, std::array<std::unique_ptr<RealFft>, 2>& scratch,
                                    bool any_size = false) {
  struct Cache {
    std::map<std::pair<std::size_t, int>, std::unique_ptr<RealFft>> plans;
    std::size_t bytes = 0;
  };
  thread_local Cache cache;
  std::array<RealFft*, 2> out{nullptr, nullptr};
  const std::size_t bytes = buffer_bytes(size);
  if (bytes > kLargestCachedBytes && (!any_size || bytes > kCachedBytes / 4)) {
    for (int slot = 0; slot < count; ++slot) out[slot] = (scratch[slot] = std::make_unique<RealFft>(size)).get();
    return out;
  }
  std::size_t missing = 0;
  for (int slot = 0; slot < count; ++slot) missing += cache.plans.contains({size, slot}) ? 0 : bytes;
  if (cache.bytes + missing > kCachedBytes) {
    cache.plans.clear();
    cache.bytes = 0;
  }
  for (int slot = 0; slot < count; ++slot) {
    auto found = cache.plans.find({size, slot});
    if (found == cache.plans.end()) {
      found = cache.plans.emplace(std::make_pair(size, slot), std::make_unique<RealFft>(size)).first;
      cache.bytes += bytes;
    }
    out[slot] = found->second.get();
  }
  return out;
}

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

// The smallest 2^k or 3 * 2^k >= n: two sizes per octave, so that an FFT power's plans are
// reused across a sweep (the cycle may be longer than the window: a longer cycle wraps less).
std::size_t power_fft_size(std::size_t n) {
  std::size_t size = 1;
  while (size < n) size *= 2;
  if (size % 4 == 0 && size / 4 * 3 >= n) return size / 4 * 3;
  return size;
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

// z^n for every z of the spectrum, by repeated squaring: about 2 log2 n complex products per
// frequency, where the polar form (hypot, log, exp, atan2, sincos) cost a third of the
// quantiles' time. Both round to about n units in the last place relative to |z|^n. A
// frequency with |z|^n below 1e-290 is set to 0 first: then no intermediate power is subnormal
// (slow), and what is dropped is 10^275 times below the transform's own round-off. Blocks of
// kBlock frequencies stay in the first-level cache through all the squarings.
void raise_spectrum(std::complex<double>* spectrum, std::size_t count, std::int64_t n) {
  constexpr double kSmallest = 1e-290;
  constexpr std::size_t kBlock = 256;
  const double smallest_square = std::exp(2.0 * std::log(kSmallest) / static_cast<double>(n));
  std::array<double, kBlock> base_re{}, base_im{}, power_re{}, power_im{};
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t block = std::min(kBlock, count - start);
    for (std::size_t k = 0; k < block; ++k) {
      const double re = spectrum[start + k].real();
      const double im = spectrum[start + k].imag();
      const bool negligible = re * re + im * im < smallest_square;
      base_re[k] = negligible ? 0.0 : re;
      base_im[k] = negligible ? 0.0 : im;
      power_re[k] = 1.0;
      power_im[k] = 0.0;
    }
    for (std::uint64_t bits = static_cast<std::uint64_t>(n);;) {
      if ((bits & 1U) != 0) {
        for (std::size_t k = 0; k < kBlock; ++k) {
          const double re = power_re[k] * base_re[k] - power_im[k] * base_im[k];
          power_im[k] = power_re[k] * base_im[k] + power_im[k] * base_re[k];
          power_re[k] = re;
        }
      }
      bits >>= 1;
      if (bits == 0) break;
      for (std::size_t k = 0; k < kBlock; ++k) {
        const double re = base_re[k] * base_re[k] - base_im[k] * base_im[k];
        base_im[k] = 2.0 * base_re[k] * base_im[k];
        base_re[k] = re;
      }
    }
    for (std::size_t k = 0; k < block; ++k) spectrum[start + k] = {power_re[k], power_im[k]};
  }
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
  std::array<std::unique_ptr<RealFft>, 2> scratch;
  const std::array<RealFft*, 2> transforms = thread_ffts(size, 2, scratch);
  RealFft& fa = *transforms[0];
  RealFft& fb = *transforms[1];
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

FftResult convolution_power_window(std::span<const double> pmf, std::int64_t n, std::int64_t first, std::size_t size) {
  const std::size_t fft_size = power_fft_size(size);
  std::array<std::unique_ptr<RealFft>, 2> scratch;
  RealFft& f = *thread_ffts(fft_size, 1, scratch, true)[0];
  std::fill(f.real(), f.real() + fft_size, 0.0);
  // Wrapping the input onto the cycle is exact: the power of the cyclic transform is the
  // cyclic image of the linear power.
  for (std::size_t j = 0; j < pmf.size(); ++j) f.real()[j % fft_size] += pmf[j];
  f.forward();
  raise_spectrum(f.spectrum(), f.spectrum_size(), n);
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
