// Progress on stderr for sweeps that take a while: a bar on a terminal, lines elsewhere (--progress).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace app {

// Draws "[#####.....] 3.4/11 models, 12 s, about 25 s left" on one terminal line, only once
// the work has run for `delay` (short runs print nothing) and only when `enabled` (the caller
// passes whether stderr is a terminal and the user did not ask for quiet). `done` may be
// fractional: a model under way counts the share its solver reported. The time left is the
// elapsed time scaled by what remains at the rate so far, shown once a tenth of a model is
// done. finish() clears the line.
//
// With `lines` (--progress off a terminal: a log, a batch job), the same figures are printed as
// a line of their own, "pdl-scale: progress: 3.4/11 models, 12 s, about 25 s left", every
// `delay`, and finish() prints the last one.
class ProgressBar {
 public:
  static constexpr std::chrono::milliseconds kBarDelay{1000};      // before the bar is drawn
  static constexpr std::chrono::milliseconds kLineInterval{3000};  // between lines

  ProgressBar(bool enabled, std::FILE* stream, std::chrono::milliseconds delay = kBarDelay, bool lines = false);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void update(double done, std::size_t total);
  void finish();

 private:
  bool enabled_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::milliseconds delay_;
  bool lines_;
  bool drawn_ = false;
  std::size_t width_ = 0;   // the longest line drawn, cleared by the next one
  double next_line_ = 0.0;  // lines: the elapsed seconds of the next line
  std::string last_;        // lines: the figures of the last update
};

}  // namespace app
