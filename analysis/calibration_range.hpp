// The calibrated range and how fast the model's error grows beyond it (docs/calibration.md,
// "Beyond the calibrated range"): the settings a fit saw, the distance of a new setting from the
// nearest of them, and a rate of growth of the model's error per unit of that distance, measured
// by fitting again without the outer settings of each axis and predicting them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/study.hpp"

namespace analysis {

// One refit without the outer settings of an axis, and what it showed.
struct RangeSplit {
  std::string axis;          // "p" or a column of the runs
  bool upward = true;        // the highest values left out (else the lowest)
  std::size_t held_out = 0;  // settings left out and predicted
  // Per unit of distance, the root of sum(e^2 - v) / sum(d^2) over the settings left out: e the
  // log of measured (the mean of the setting's runs) over predicted, v the variance e would have
  // if the model were right (the runs' spread over their number and the refit's parameter
  // uncertainty), d its distance from the settings kept; 0 unless sum(e^2 - v) exceeds twice
  // its standard deviation under a right model, sqrt(sum 2 v^2) (a lack-of-fit test); empty when
  // the refit failed (`skipped` says why).
  std::optional<double> rate;
  std::string skipped;
};

// What a calibration saw, as coordinates: per axis (p, then each column of the runs file) on a
// logarithmic scale when every calibrated value is > 0, else on a linear one in units of its
// span (of 1 when the span is 0).
struct CalibratedRange {
  std::vector<std::string> axes;              // "p", then the columns
  std::vector<bool> logarithmic;              // per axis
  std::vector<double> scale;                  // per linear axis: its span (1 when 0)
  std::vector<std::vector<double>> settings;  // per distinct setting: its raw values per axis
  std::vector<double> low, high;              // per axis: the calibrated range
  // The program's other variables (neither a column nor fitted) at the value the calibration ran
  // them at: a setting with another value lies beyond the range on that axis.
  std::vector<std::pair<std::string, double>> fixed;
  std::vector<RangeSplit> splits;  // the refits tried, in order
  // The model's error growth: the log standard deviation added per unit of distance, the largest
  // rate of the splits refitted (the fastest growth seen in any direction); empty when no split
  // could be refitted.
  std::optional<double> rate;
};

// Where a setting lies relative to the calibration.
struct Placement {
  // From the nearest calibrated setting: the largest difference of one coordinate (a factor e
  // on a logarithmic axis is 1).
  double distance = 0.0;
  std::vector<std::string> beyond;  // the axes on which it lies outside the calibrated range
  bool extrapolated() const { return !beyond.empty(); }
  // The log standard deviation of the model's error there: rate * distance (0 without a rate).
  double discrepancy = 0.0;
};

// Where `setting` (an input with a run's or a prediction's values) on p processors lies relative
// to `range`: its p and its values of the range's columns and of the variables the calibration
// held fixed, as the input binds them.
Placement place(const CalibratedRange& range, const MachineInput& setting, std::int64_t p);

}  // namespace analysis
