// pdl-fit FILE: the fitting command (tools/fit_command.hpp) under its own name; `pdl-scale fit
// FILE` is the same command.
#include <cstdio>
#include <exception>
#include <iostream>

#include "tools/fit_command.hpp"

// An exception that escapes is a bug (exit 1), never bad input, which fit_main reports itself
// (exit 2).
int main(int argc, char** argv) {
  try {
    return fitting::fit_main("pdl-fit", argc, argv, std::cout, std::cerr);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pdl-fit: internal error: %s\n", error.what());
    return 1;
  }
}
