// pdl-scale: predicts how a parallel program described in PDL scales with the processor count.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdlib>
#include <exception>

namespace {

constexpr int kExitInternal = 1;
constexpr int kExitUsage = 2;

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pdl-scale: predict how a parallel program scales, from its PDL description"};
  app.set_version_flag("--version", std::string{"pdl-scale "} + PDL_SCALE_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    return status == 0 ? 0 : kExitUsage;
  }
  try {
    fmt::print("{}", app.help());
    return EXIT_SUCCESS;
  } catch (const std::exception& error) {
    fmt::print(stderr, "pdl-scale: internal error: {}\n", error.what());
    return kExitInternal;
  }
}
