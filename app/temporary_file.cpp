#include "app/temporary_file.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace app {

namespace {

constexpr int kCleanedSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = static_cast<int>(std::size(kCleanedSignals));

// The one global of the command. A signal handler receives nothing but the signal's number,
// so the name of the file it must remove can only reach it through static storage; and it
// may read only what is async-signal-safe to read: a fixed char buffer (no std::string,
// which could be reallocating when the signal arrives) published by a lock-free atomic flag.
// The actions the handler replaced are kept beside it, to be put back when the file is gone.
struct SignalCleanupSlot {
  char path[PATH_MAX] = {};        // the temporary file, when `armed`
  std::atomic<bool> armed{false};  // set after `path` is complete, cleared before it changes
  struct sigaction replaced[kSignalCount] = {};
  bool installed[kSignalCount] = {};  // false where the signal was ignored: it stays so
};
static_assert(std::atomic<bool>::is_always_lock_free, "the handler may only touch a lock-free flag");

SignalCleanupSlot g_cleanup_slot;

extern "C" void remove_temporary_and_reraise(int signal_number) {
  remove_pending_temporary();
  // The default action, re-raised: the process ends as it would have without this handler
  // (the signal is blocked until the handler returns, then delivered).
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);
}

// Publishes `path` to the handler and installs it for the signals the process does not ignore.
void arm(const std::string& path) {
  SignalCleanupSlot& slot = g_cleanup_slot;
  path.copy(slot.path, sizeof slot.path - 1);
  slot.path[path.size()] = '\0';
  slot.armed.store(true, std::memory_order_release);
  struct sigaction cleanup {};
  cleanup.sa_handler = remove_temporary_and_reraise;
  sigemptyset(&cleanup.sa_mask);
  for (int signal_number : kCleanedSignals) sigaddset(&cleanup.sa_mask, signal_number);
  for (int k = 0; k < kSignalCount; ++k) {
    sigaction(kCleanedSignals[k], nullptr, &slot.replaced[k]);
    slot.installed[k] = slot.replaced[k].sa_handler != SIG_IGN;
    if (slot.installed[k]) sigaction(kCleanedSignals[k], &cleanup, nullptr);
  }
}

// The handler's work is done or no longer needed: the signals get their actions back.
void disarm() {
  SignalCleanupSlot& slot = g_cleanup_slot;
  slot.armed.store(false, std::memory_order_release);
  for (int k = 0; k < kSignalCount; ++k) {
    if (slot.installed[k]) sigaction(kCleanedSignals[k], &slot.replaced[k], nullptr);
    slot.installed[k] = false;
  }
}

// Six letters and digits, as mkstemp draws them.
std::string random_suffix(std::mt19937_64& generator) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
  std::string suffix(6, ' ');
  for (char& c : suffix) c = kAlphabet[pick(generator)];
  return suffix;
}

}  // namespace

void remove_pending_temporary() noexcept {
  // exchange: of two signals handled at once on two threads, one removes the file.
  if (g_cleanup_slot.armed.exchange(false, std::memory_order_acq_rel)) ::unlink(g_cleanup_slot.path);
}

std::optional<std::string> pending_temporary() {
  if (!g_cleanup_slot.armed.load(std::memory_order_acquire)) return std::nullopt;
  return std::string(g_cleanup_slot.path);
}

TemporaryFile TemporaryFile::create(const std::string& directory, const std::string& name, int* error) {
  if (g_cleanup_slot.armed.load()) throw std::logic_error("a second temporary file while one is pending");
  std::random_device entropy;
  std::mt19937_64 generator((std::uint64_t{entropy()} << 32) ^ entropy() ^ static_cast<std::uint64_t>(::getpid()));
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string path =
        (std::filesystem::path(directory) / ("." + name + "." + random_suffix(generator))).string();
    if (path.size() >= PATH_MAX) {
      *error = ENAMETOOLONG;
      return {};
    }
    // Armed before the file exists, so that no moment has the file without its cleanup; a
    // signal before open() removes nothing, as nothing of that fresh name exists.
    arm(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      TemporaryFile file;
      file.path_ = path;
      file.fd_ = fd;
      return file;
    }
    const int open_error = errno;
    disarm();
    if (open_error != EEXIST) {
      *error = open_error;
      return {};
    }
  }
  *error = EEXIST;
  return {};
}

TemporaryFile::TemporaryFile(TemporaryFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), renamed_(other.renamed_) {
  other.path_.clear();
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (path_.empty()) return;
  if (!renamed_) remove_pending_temporary();
  disarm();
}

int TemporaryFile::close_and_rename_over(const std::string& target) {
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return errno;
  if (::rename(path_.c_str(), target.c_str()) != 0) return errno;
  // A signal from here until disarm() unlinks a name that no longer exists: harmless.
  renamed_ = true;
  disarm();
  return 0;
}

}  // namespace app
