// A solver's progress as it passes it to ScaledModels::report_progress (solver.hpp): the
// fraction of its work done, for a progress display only. Reporting never changes a figure:
// the solvers count what they have done, they do not decide anything by it.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>

namespace solvers {

// Takes the fraction of the work done, in [0, 1]; empty when nobody listens.
using ProgressFunction = std::function<void(double)>;

// What a solver calls with its fraction done. The fractions passed on are clamped to [0, 1]
// and never fall (a Monte Carlo run in precision mode may plan more samples than it
// thought, which lowers its count's share). Safe to call from any thread; one call at a time
// is passed on. With an `interval` (by default kInterval), calls come at most that often,
// except the last one (finish()), so a solver may call it as often as it likes, and a call
// that finds another under way is dropped (the next one carries a larger fraction anyway);
// with interval 0 every call is passed on, waiting for one under way (for a few steps, each
// of which should show). Does nothing when `report` is empty.
class ProgressReporter {
 public:
  static constexpr std::chrono::milliseconds kInterval{5};

  explicit ProgressReporter(const ProgressFunction& report, std::chrono::milliseconds interval = kInterval)
      : report_(report), interval_(interval) {}
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  bool active() const { return static_cast<bool>(report_); }

  void operator()(double fraction) {
    if (!report_) return;
    const bool every = interval_.count() == 0;
    std::unique_lock<std::mutex> guard(lock_, std::defer_lock);
    if (every)
      guard.lock();
    else if (!guard.try_lock())
      return;
    const auto now = std::chrono::steady_clock::now();
    if (!every && now - last_time_ < interval_) return;
    pass_on(fraction, now);
  }

  // The work is done: passes on 1 (waiting for a call under way).
  void finish() {
    if (!report_) return;
    std::lock_guard<std::mutex> guard(lock_);
    pass_on(1.0, std::chrono::steady_clock::now());
  }

 private:
  void pass_on(double fraction, std::chrono::steady_clock::time_point now) {
    last_ = std::max(last_, std::clamp(fraction, 0.0, 1.0));  // a NaN leaves last_ as it was
    last_time_ = now;
    report_(last_);
  }

  const ProgressFunction& report_;
  std::chrono::milliseconds interval_;
  std::mutex lock_;
  double last_ = 0.0;
  std::chrono::steady_clock::time_point last_time_{};
};

// The part [from, to] of a whole: a fraction f of the part is from + f (to - from) of the
// whole. Empty when `whole` is.
inline ProgressFunction progress_part(const ProgressFunction& whole, double from, double to) {
  if (!whole) return {};
  return [&whole, from, to](double fraction) { whole(from + std::clamp(fraction, 0.0, 1.0) * (to - from)); };
}

}  // namespace solvers
