// pdl-fit FILE: the fitting command (tools/fit_command.hpp) under its own name; `pdl-scale fit
// FILE` is the same command.
#include "tools/fit_command.hpp"

int main(int argc, char** argv) { return fitting::fit_main("pdl-fit", argc, argv); }
