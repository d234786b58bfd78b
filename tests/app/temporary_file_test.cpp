// The temporary file of a write is removed on every way out: its destructor, and SIGINT,
// SIGTERM or SIGHUP while it exists (the handler, run directly and in a process it kills).
#include "app/temporary_file.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// The child of a "threadsafe" death test is a new process that runs the test again from the
// start: it finds its parent's directory in this variable, so that both look at one directory.
constexpr const char* kParentsDirectory = "PDL_SCALE_TEST_TEMPORARY_DIRECTORY";

class TemporaryFile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* parents = std::getenv(kParentsDirectory)) {
      directory_ = parents;
      in_death_test_child_ = true;
      return;
    }
    directory_ = fs::temp_directory_path() / ("pdl-scale-temporary-" + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  void TearDown() override {
    if (!in_death_test_child_) fs::remove_all(directory_);
  }

  std::size_t files() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(directory_), fs::directory_iterator()));
  }

  fs::path directory_;
  bool in_death_test_child_ = false;
};

// The three signals at their default actions for the test, whatever the test runner inherited
// (a background job of a non-interactive shell starts with SIGINT ignored), restored after.
class DefaultActions {
 public:
  DefaultActions() {
    for (int k = 0; k < 3; ++k) previous_[k] = std::signal(kSignals[k], SIG_DFL);
  }
  ~DefaultActions() {
    for (int k = 0; k < 3; ++k) std::signal(kSignals[k], previous_[k]);
  }
  DefaultActions(const DefaultActions&) = delete;
  DefaultActions& operator=(const DefaultActions&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  void (*previous_[3])(int) = {};
};

// What the handler sees of a signal's disposition.
void (*handler_of(int signal_number))(int) {
  struct sigaction action {};
  sigaction(signal_number, nullptr, &action);
  return action.sa_handler;
}

TEST_F(TemporaryFile, IsHiddenAndNamedAfterItsTarget) {
  int error = 0;
  const app::TemporaryFile temporary = app::TemporaryFile::create(directory_.string(), "report.txt", &error);
  ASSERT_TRUE(temporary.valid()) << std::strerror(error);
  const std::string name = fs::path(temporary.path()).filename().string();
  EXPECT_TRUE(std::regex_match(name, std::regex(R"(\.report\.txt\.[A-Za-z0-9]{6})"))) << name;
  EXPECT_EQ(app::pending_temporary(), temporary.path());
}

TEST_F(TemporaryFile, IsRemovedWhenNotRenamed) {
  {
    int error = 0;
    const app::TemporaryFile temporary = app::TemporaryFile::create(directory_.string(), "report.txt", &error);
    ASSERT_TRUE(temporary.valid()) << std::strerror(error);
    EXPECT_EQ(files(), 1u);
  }
  EXPECT_EQ(files(), 0u);
  EXPECT_FALSE(app::pending_temporary().has_value());
}

TEST_F(TemporaryFile, IsForgottenOnceRenamed) {
  const std::string target = (directory_ / "report.txt").string();
  {
    int error = 0;
    app::TemporaryFile temporary = app::TemporaryFile::create(directory_.string(), "report.txt", &error);
    ASSERT_TRUE(temporary.valid()) << std::strerror(error);
    ASSERT_EQ(temporary.close_and_rename_over(target), 0);
    EXPECT_FALSE(app::pending_temporary().has_value());
  }
  EXPECT_TRUE(fs::exists(target));  // the destructor removes nothing once renamed
  EXPECT_EQ(files(), 1u);
}

// The handler's work, run directly.
TEST_F(TemporaryFile, TheSignalCleanupRemovesThePendingFile) {
  int error = 0;
  const app::TemporaryFile temporary = app::TemporaryFile::create(directory_.string(), "chart.svg", &error);
  ASSERT_TRUE(temporary.valid()) << std::strerror(error);
  ASSERT_EQ(files(), 1u);
  app::remove_pending_temporary();
  EXPECT_EQ(files(), 0u);
  EXPECT_FALSE(app::pending_temporary().has_value());
  app::remove_pending_temporary();  // twice is harmless
}

// Only while the file exists are the signals caught; a signal the process ignores (nohup's
// SIGHUP) stays ignored.
TEST_F(TemporaryFile, TheHandlersLastAsLongAsTheFile) {
  const DefaultActions defaults;
  const auto previous_hup = std::signal(SIGHUP, SIG_IGN);
  ASSERT_EQ(handler_of(SIGTERM), SIG_DFL);
  {
    int error = 0;
    const app::TemporaryFile temporary = app::TemporaryFile::create(directory_.string(), "report.txt", &error);
    ASSERT_TRUE(temporary.valid()) << std::strerror(error);
    EXPECT_NE(handler_of(SIGTERM), SIG_DFL);
    EXPECT_NE(handler_of(SIGINT), SIG_DFL);
    EXPECT_EQ(handler_of(SIGHUP), SIG_IGN);
  }
  EXPECT_EQ(handler_of(SIGTERM), SIG_DFL);
  EXPECT_EQ(handler_of(SIGINT), SIG_DFL);
  EXPECT_EQ(handler_of(SIGHUP), SIG_IGN);
  std::signal(SIGHUP, previous_hup);
}

// The whole path in a child process: the signal arrives while the file is being written; the
// child dies of that very signal and leaves no file.
TEST_F(TemporaryFile, ASignalDuringTheWriteLeavesNoFileAndEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const DefaultActions defaults;
  ::setenv(kParentsDirectory, directory_.c_str(), 1);
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    const std::string directory = directory_.string();
    EXPECT_EXIT(
        {
          int error = 0;
          const app::TemporaryFile temporary = app::TemporaryFile::create(directory, "report.txt", &error);
          if (!temporary.valid()) std::_Exit(3);
          if (::write(temporary.fd(), "part of a rep", 13) != 13) std::_Exit(4);
          std::raise(signal_number);
          std::_Exit(5);  // not reached: the signal ends the process
        },
        ::testing::KilledBySignal(signal_number), "")
        << strsignal(signal_number);
    EXPECT_EQ(files(), 0u) << strsignal(signal_number) << " left the temporary file behind";
  }
  ::unsetenv(kParentsDirectory);
}

}  // namespace
