// The wall-time guard's words, shared by every mode that has a TimeBudget (command.hpp).
#pragma once

#include <string>

#include "app/command.hpp"

namespace app {

// Whether the estimate and the progress are said: on a terminal unless --quiet, anywhere with
// --progress.
bool shows_progress(const TimeBudget& budget, bool terminal);

// "10 min", "1 h", "90 s": --time-limit as given.
std::string limit_text(double seconds);

}  // namespace app
