// Running the analysis in-process, for the tests of the command's reports.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "app/commands.hpp"
#include "app/options.hpp"

namespace analysis_support {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

// run_analysis as the command line runs it, without a terminal (no progress bar).
inline Outcome analyse(const app::Options& options) {
  std::ostringstream out, err;
  const int status = app::run_analysis(options, out, err, false);
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
