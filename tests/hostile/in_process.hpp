// The command run in this process as main runs it (parse_command_line, then run, an exception
// caught as main catches it), and this process's peak memory: for the hostile suites.
#pragma once

#include <sys/resource.h>

#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "app/options.hpp"

namespace hostile {

struct Run {
  int status = 0;
  std::string out;
  std::string err;
};

// pdl-scale ARGS (without argv[0]).
inline Run run_command(std::vector<std::string> args) {
  args.insert(args.begin(), "pdl-scale");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  Run run;
  std::ostringstream out, err;
  try {
    run.status = app::run_command(static_cast<int>(argv.size()), argv.data(), {}, out, err, false);
  } catch (const std::exception& error) {
    err << "pdl-scale: internal error: " << error.what() << "\n";
    run.status = app::kExitInternal;
  }
  run.out = out.str();
  run.err = err.str();
  return run;
}

// Peak resident memory of this process so far (ru_maxrss is in KiB on Linux).
inline double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace hostile
