// The checks that make Options into a Command (command.cpp): each mode's options against each
// other, before any file is read. Each returns its value or the refusal, worded for the command
// line.
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

// The --sweep options, checked against each other and --set (not yet against the program).
Checked<std::vector<analysis::SweepVariable>> parse_sweeps(const Options& options);

// --iso-range LO..HI: both ends finite, 0 < LO < HI; nothing when malformed.
std::optional<std::pair<double, double>> iso_range(const std::string& text);

// --isospeed A: the fraction of one processor's speed; nothing for "base" (or no --isospeed).
std::optional<double> isospeed_fraction(const Options& options);

// The study's options against each other: --isoefficiency, --isospeed and their --iso-*
// options, --scaling-laws, --breakdown and --sensitivity against the report they go with.
// `sweeps`: some --sweep was given.
Check check_study(const Options& options, bool sweeps);

// A request, with the notes its options call for ("--seed has no effect ...").
struct NotedRequest {
  analysis::Request request;
  std::vector<std::string> notes;
};

// --calibrate and --validate: their options against the others, and the analysis request with
// the methods they take. The notes are the method options' (not --seed's: it fixes the
// parameter draws here).
Checked<NotedRequest> calibration_request(const Options& options);

}  // namespace app
