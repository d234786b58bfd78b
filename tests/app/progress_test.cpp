// The progress bar as a terminal shows it: fractional models, elapsed time and time left.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "app/progress.hpp"

namespace {

std::string written(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(static_cast<char>(c));
  return text;
}

TEST(ProgressBar, ShowsModelsUnderWayAndTheTimeLeft) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    app::ProgressBar bar(true, file, std::chrono::milliseconds(0));
    bar.update(0.5, 2);
    const std::string text = written(file);
    EXPECT_NE(text.find("[" + std::string(10, '#') + std::string(30, '.') + "] 0.5/2 models, 0 s, about 0 s left"),
              std::string::npos)
        << text;
  }
  // Destroyed: the line is cleared (spaces, then a carriage return).
  const std::string text = written(file);
  EXPECT_EQ(text.back(), '\r');
  std::fclose(file);
}

TEST(ProgressBar, PrintsNothingWhenDisabledOrBeforeItsDelay) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    app::ProgressBar off(false, file, std::chrono::milliseconds(0));
    off.update(1.0, 2);
    app::ProgressBar later(true, file, std::chrono::hours(1));
    later.update(1.0, 2);
  }
  EXPECT_EQ(written(file), "");
  std::fclose(file);
}

}  // namespace
