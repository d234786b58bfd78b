// pdl-scale: predicts how a parallel program described in PDL scales with the processor count.
// This file only dispatches; the command line is read in cli.cpp, the commands are in the app
// library.
#include <fmt/core.h>

#include <unistd.h>

#include <exception>
#include <iostream>

#include "app/cli.hpp"
#include "app/commands.hpp"

int main(int argc, char** argv) {
  try {
    app::Options options;
    if (const auto status = app::parse_command_line(argc, argv, &options)) return *status;
    if (options.file.empty()) {
      if (options.check || options.dump) {
        fmt::print(stderr, "pdl-scale: error: --check and --dump need a FILE\n");
        return app::kExitInput;
      }
      fmt::print("{}", app::help_text());
      return app::kExitSuccess;
    }
    if (options.dump) return app::run_dump(options, std::cout, std::cerr);
    if (options.check) return app::run_check(options, std::cout, std::cerr);
    if (options.graph) return app::run_graph(options, std::cout, std::cerr);
    return app::run_analysis(options, std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1);
  } catch (const std::exception& error) {
    fmt::print(stderr, "pdl-scale: internal error: {}\n", error.what());
    return app::kExitInternal;
  }
}
