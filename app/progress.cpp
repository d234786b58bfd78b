#include "app/progress.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace app {

ProgressBar::ProgressBar(bool enabled, std::FILE* stream, std::chrono::milliseconds delay, bool lines)
    : enabled_(enabled),
      stream_(stream),
      start_(std::chrono::steady_clock::now()),
      delay_(delay),
      lines_(lines),
      next_line_(std::chrono::duration<double>(delay).count()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(double done, std::size_t total) {
  if (!enabled_ || total == 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < std::chrono::duration<double>(delay_).count()) return;
  constexpr std::size_t kWidth = 40;
  const double share = std::clamp(done / static_cast<double>(total), 0.0, 1.0);
  std::string figures = fmt::format("{:.1f}/{} models, {:.0f} s", done, total, elapsed);
  if (done >= 0.1 && share < 1.0) figures += fmt::format(", about {:.0f} s left", elapsed * (1.0 - share) / share);
  if (lines_) {
    last_ = figures;
    if (elapsed < next_line_) return;
    std::fprintf(stream_, "pdl-scale: progress: %s\n", figures.c_str());
    std::fflush(stream_);
    next_line_ = elapsed + std::chrono::duration<double>(delay_).count();
    drawn_ = true;
    return;
  }
  const auto filled = static_cast<std::size_t>(share * kWidth);
  const std::string line = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] " + figures;
  std::fprintf(stream_, "\r%-*s", static_cast<int>(width_), line.c_str());
  width_ = std::max(width_, line.size());
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  if (lines_) {
    std::fprintf(stream_, "pdl-scale: progress: %s, done\n", last_.c_str());
    std::fflush(stream_);
    drawn_ = false;
    return;
  }
  std::fprintf(stream_, "\r%*s\r", static_cast<int>(width_), "");
  std::fflush(stream_);
  drawn_ = false;
}

}  // namespace app
