// The hostile suite's generator for calibration and validation (issue 31): seeded runs files
// (units, headers, row counts, repeated settings, extreme and malformed times and processor
// counts), set-files (extreme values, unknown names, malformed lines) and the command around
// them (--check, --calibrate --fit, --validate, both with prediction intervals, outputs that
// are new files or land on an input), for examples/calibration/tasks.pdl on barrier.machine.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace hostile {

enum class CalibrationMode { CheckRuns, Calibrate, Validate, CalibrateAndValidate, Intervals };
inline constexpr int kCalibrationModes = 5;

// Where the case's report and files go.
enum class Output { Standard, NewFile, OntoRuns, WriteFit, WriteFitOntoSetFile, ValidationPlot };
inline constexpr int kOutputs = 6;

struct CalibrationCase {
  std::string name;
  std::string runs;      // the text of runs.csv
  std::string set_file;  // the text of fit.sets; no --set-file when empty
  CalibrationMode mode = CalibrationMode::Calibrate;
  std::string fit;  // --fit NAMES
  Output output = Output::Standard;
  bool json = false;
  int draws = 0;  // --draws, 0: the default
};

class CalibrationGenerator {
 public:
  explicit CalibrationGenerator(std::uint64_t seed) : rng_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <class T, std::size_t N>
  const T& one_of(const T (&values)[N]) {
    return values[pick(static_cast<int>(N))];
  }

  // Whether this field of the case is hostile: never in a clean case (a third of them, so that
  // enough runs reach the fit and the figures), else at the case's rate.
  bool hostile() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < rate_; }

  // A time: extreme, malformed or subnormal when hostile, else an ordinary one (10 to 1000).
  std::string time() {
    static const char* const extremes[] = {"0",     "5e-324", "1e-310", "1e-7", "1e-6", "1e18", "1e19", "1e303",
                                           "1e308", "-1",     "-0",     "nan",  "inf",  "abc",  "",     "0x10"};
    if (hostile()) return one_of(extremes);
    return number(std::exp(std::uniform_real_distribution<double>(std::log(10.0), std::log(1000.0))(rng_)));
  }
  std::string processors() {
    static const char* const ordinary[] = {"1", "2", "4", "8", "16", "64"};
    static const char* const extremes[] = {"0", "-1", "1.5", "1e6", "1e300", "2147483648", "nan", "3"};
    return hostile() ? one_of(extremes) : one_of(ordinary);
  }
  // A value for a set-file line or a machine-constant column.
  std::string value() {
    static const char* const values[] = {"2",     "30",    "0",    "-1",    "5e-324", "1e-300",
                                         "1e300", "1e308", "1e99", "2*3+1", "1:18",   ""};
    return hostile() ? one_of(values) : number(std::uniform_real_distribution<double>(0.5, 60.0)(rng_));
  }

  std::string runs() {
    std::string text;
    static const char* const units[] = {"# unit: ns\n", "# unit: us\n", "# unit: ms\n",           "# unit: s\n",
                                        "# unit: h\n",  "# unit:\n",    "# unit: us\n# unit: s\n"};
    if (pick(2) == 0) text += hostile() ? one_of(units) : units[pick(4)];
    static const char* const headers[] = {"p, time",
                                          "p, time, repetition",
                                          "p, time",
                                          "p,time,repetition",
                                          "p, ts, time",
                                          "time, p",
                                          "p",
                                          "p, nosuch, time",
                                          "p, time, time",
                                          "P, TIME",
                                          "",
                                          "p, time,"};
    const std::string header = hostile() ? one_of(headers) : headers[pick(5)];
    text += header + (pick(10) == 0 ? "\r\n" : "\n");
    static const int counts[] = {0, 1, 2, 3, 4, 8, 8, 16, 30, 300, 3000};
    const int rows = one_of(counts);
    const bool one_setting = pick(4) == 0;
    const std::string fixed_p = processors();
    const int columns = 1 + static_cast<int>(std::count(header.begin(), header.end(), ','));
    for (int r = 0; r < rows; ++r) text += row(header, columns, one_setting ? fixed_p : processors(), r);
    return text;
  }

  std::string set_file() {
    static const char* const forms[] = {"tc=", "ts=", "--set tc=", "--set=ts=", "nosuch=", "tc ", "=", "# c\ntc="};
    // A clean set-file names tc, then perhaps ts, once each.
    std::string text = std::string(hostile() ? one_of(forms) : forms[2 * pick(2)]) + value() + "\n";
    if (pick(2) == 0) text += std::string(hostile() ? one_of(forms) : forms[1 + 2 * pick(2)]) + value() + "\n";
    return text;
  }

  CalibrationCase next(const std::string& name) {
    CalibrationCase one;
    one.name = name;
    static const double rates[] = {0.0, 0.0, 0.0, 0.003, 0.03, 0.3};
    rate_ = one_of(rates);
    one.runs = runs();
    if (pick(3) == 0) one.set_file = set_file();
    one.mode = static_cast<CalibrationMode>(pick(kCalibrationModes));
    static const char* const fits[] = {"tc", "ts", "tc,ts", "tc,ts", "tc,nosuch", "tc,tc"};
    one.fit = hostile() ? one_of(fits) : fits[pick(4)];
    one.output = pick(3) == 0 ? static_cast<Output>(pick(kOutputs)) : Output::Standard;
    one.json = pick(2) == 0;
    static const int draws[] = {0, 0, 10, 50, 1};
    one.draws = hostile() ? one_of(draws) : draws[pick(4)];
    return one;
  }

 private:
  static std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", x);
    return text;
  }

  // One row of `columns` fields for `header`, sometimes short, long or blank.
  std::string row(const std::string& header, int columns, const std::string& p, int index) {
    const int shape = hostile() ? pick(4) : 4;
    if (shape == 0) return "\n";
    if (shape == 1) return "# a comment\n";
    std::string text;
    const int fields = shape == 2 ? columns - 1 : shape == 3 ? columns + 1 : columns;
    for (int f = 0; f < fields; ++f) {
      if (f > 0) text += ", ";
      if (header.rfind("time", 0) == 0) {
        text += f == 0 ? time() : f == 1 ? p : std::to_string(index + 1);
      } else if (f == 0) {
        text += p;
      } else if (header.find("ts") != std::string::npos && f == 1) {
        text += value();
      } else if (header.find("repetition") != std::string::npos && f == 2) {
        text += std::to_string(1 + index % 3);
      } else {
        text += time();
      }
    }
    return text + "\n";
  }

  std::mt19937_64 rng_;
  double rate_ = 0.0;  // the chance of each field being hostile, drawn per case
};

}  // namespace hostile
