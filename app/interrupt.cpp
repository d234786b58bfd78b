#include "app/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

namespace app {

namespace {

// A signal handler can only reach static storage: the one flag of the process, and the
// handlers it replaced.
std::atomic<bool> interrupted_flag{false};
struct sigaction previous_interrupt {};
struct sigaction previous_terminate {};

void on_signal(int) {
  interrupted_flag.store(true, std::memory_order_relaxed);
  static const char kMessage[] =
      "\npdl-scale: interrupted: finishing the models under way, then the rows solved so far (again to quit at "
      "once)\n";
  // write(2) is async-signal-safe; a failure to say it changes nothing.
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
}

}  // namespace

InterruptScope::InterruptScope(bool catch_signals) {
  interrupted_flag.store(false);
  if (!catch_signals) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal takes the default action: the process ends
  ::sigaction(SIGINT, &action, &previous_interrupt);
  ::sigaction(SIGTERM, &action, &previous_terminate);
  installed_ = true;
}

InterruptScope::~InterruptScope() {
  if (!installed_) return;
  ::sigaction(SIGINT, &previous_interrupt, nullptr);
  ::sigaction(SIGTERM, &previous_terminate, nullptr);
}

const std::atomic<bool>* InterruptScope::flag() const { return &interrupted_flag; }

bool InterruptScope::interrupted() const { return interrupted_flag.load(std::memory_order_relaxed); }

}  // namespace app
