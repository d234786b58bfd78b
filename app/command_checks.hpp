// The checks that make Options into a Command (command.cpp): each mode's options against each
// other, before any file is read. Each returns the problem, worded for the command line, or nothing.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "app/options.hpp"

namespace app {

// True for a runs file (FILE.csv): --check reads it as one, and a program may not be one.
bool is_runs_file(const std::string& path);

// The --sweep options, checked against each other and --set (not yet against the program);
// nothing with *error set when they are invalid.
std::optional<std::vector<analysis::SweepVariable>> parse_sweeps(const Options& options, std::string* error);

// --iso-range LO..HI: both ends finite, 0 < LO < HI; nothing when malformed.
std::optional<std::pair<double, double>> iso_range(const std::string& text);

// --isospeed A: the fraction of one processor's speed; nothing for "base" (or no --isospeed).
std::optional<double> isospeed_fraction(const Options& options);

// The study's options against each other: --isoefficiency, --isospeed and their --iso-*
// options, --scaling-laws and --breakdown against the report they go with. `sweeps`: some
// --sweep was given.
std::optional<std::string> study_usage(const Options& options, bool sweeps);

// --calibrate and --validate: their options against the others, and the analysis request with
// the methods they take; nothing with *error set when invalid. The notes of the method options
// go to *notes (not --seed's: it fixes the parameter draws here).
std::optional<analysis::Request> calibration_request(const Options& options, std::vector<std::string>* notes,
                                                     std::string* error);

}  // namespace app
