// Ctrl-C (SIGINT) and SIGTERM during a study keep its work (docs/cli.md, "Exit status"): while an
// InterruptScope lives, the first such signal sets its flag, which the study reads
// (analysis::Request::stop): no further model starts, those under way finish, and the report
// shows the processor counts solved whole, marked as an interrupted run; exit status 130. A
// second signal ends the process at once, as without the scope.
#pragma once

#include <atomic>

namespace app {

// Exit status of a run stopped by a signal (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

class InterruptScope {
 public:
  // With `catch_signals` false (the Python module, which leaves signals to Python), nothing is
  // installed and the flag never turns true.
  explicit InterruptScope(bool catch_signals);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // The flag the first signal sets.
  const std::atomic<bool>* flag() const;
  bool interrupted() const;

 private:
  bool installed_ = false;
};

}  // namespace app
