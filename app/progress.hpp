// A progress bar on stderr for sweeps that take a while.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>

namespace app {

// Draws "[#####.....] done/total" on one terminal line, only once the work has run for
// `delay` (short sweeps print nothing) and only when `enabled` (the caller passes whether
// stderr is a terminal and the user did not ask for quiet). finish() clears the line.
class ProgressBar {
 public:
  ProgressBar(bool enabled, std::FILE* stream,
              std::chrono::milliseconds delay = std::chrono::milliseconds(1000));
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void update(std::size_t done, std::size_t total);
  void finish();

 private:
  bool enabled_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::milliseconds delay_;
  bool drawn_ = false;
};

}  // namespace app
