// Running the analysis in-process, for the tests of the command's reports.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "app/command.hpp"
#include "app/commands.hpp"
#include "app/options.hpp"

namespace analysis_support {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

// The options made into their command and run, as the command line runs them after parsing,
// without a terminal (no progress bar).
inline int run_options(const app::Options& options, std::ostream& out, std::ostream& err) {
  const auto command = app::command_from(options);
  if (!command.ok()) {
    err << command.failure->text;
    return app::kExitInput;
  }
  return app::run(*command.value, out, err, false);
}

inline Outcome analyse(const app::Options& options) {
  std::ostringstream out, err;
  const int status = run_options(options, out, err);
  return {status, out.str(), err.str()};
}

// The paper's example on the given processor counts, approximate model only.
inline app::Options neighbor(std::string processors) {
  app::Options options;
  options.file = "examples/paper/neighbor.pdl";
  options.processors = std::move(processors);
  options.methods = "approx";
  return options;
}

inline std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace analysis_support
