#include "app/progress.hpp"

#include <string>

namespace app {

ProgressBar::ProgressBar(bool enabled, std::FILE* stream, std::chrono::milliseconds delay)
    : enabled_(enabled), stream_(stream), start_(std::chrono::steady_clock::now()), delay_(delay) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_ || total == 0) return;
  if (std::chrono::steady_clock::now() - start_ < delay_) return;
  constexpr std::size_t kWidth = 40;
  const std::size_t filled = done * kWidth / total;
  std::string bar(filled, '#');
  bar.append(kWidth - filled, '.');
  std::fprintf(stream_, "\r[%s] %zu/%zu", bar.c_str(), done, total);
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fprintf(stream_, "\r%*s\r", 60, "");
  std::fflush(stream_);
  drawn_ = false;
}

}  // namespace app
