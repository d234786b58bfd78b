#include "pdl/runs.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "models/machine_constants.hpp"
#include "models/measurements.hpp"
#include "pdl/data_text.hpp"
#include "pdl/parse.hpp"  // kMaxErrors

namespace pdl {

namespace {

using detail::is_data_space;

constexpr std::int64_t kMostProcessors = std::int64_t{1} << 20;  // the tool's largest p

bool is_name(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s.front())) || s.front() == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A field of a row: its text without the spaces around it and where it starts in the file.
struct Field {
  std::string_view text;
  std::size_t offset;
};

std::vector<Field> fields_of(std::string_view line, std::size_t offset) {
  std::vector<Field> fields;
  std::size_t start = 0;
  while (true) {
    std::size_t end = line.find(',', start);
    if (end == std::string_view::npos) end = line.size();
    std::size_t a = start, b = end;
    while (a < b && is_data_space(line[a])) ++a;
    while (b > a && is_data_space(line[b - 1])) --b;
    fields.push_back({line.substr(a, b - a), offset + a});
    if (end == line.size()) return fields;
    start = end + 1;
  }
}

class RunsParser {
 public:
  RunsParser(const std::string& text, const std::string& filename, RunsNames names)
      : source_(filename, text), text_(text), names_(names) {}

  RunsResult run() {
    runs_.file = source_.filename();
    for (std::size_t start = 0, line = 1; start < text_.size() && errors_ < kMaxErrors; ++line) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string::npos) end = text_.size();
      row(std::string_view(text_).substr(start, end - start), start);
      start = end + 1;
    }
    if (errors_ == 0 && !header_seen_)
      error(text_.size(), "no header: expected a line such as 'p,n,time' naming the columns");
    else if (errors_ == 0 && runs_.runs.empty())
      error(text_.size(), "no runs: expected a row of values after the header");
    RunsResult result;
    result.diagnostics = std::move(diagnostics_);
    if (errors_ == 0) result.runs = std::move(runs_);
    return result;
  }

 private:
  void error(std::size_t offset, std::string message) {
    diagnostics_.push_back(source_.diagnose(Severity::Error, offset, std::move(message)));
    ++errors_;
  }

  void row(std::string_view line, std::size_t offset) {
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) {
      comment(line.substr(hash + 1), offset + hash);
      line = line.substr(0, hash);
    }
    if (std::all_of(line.begin(), line.end(), is_data_space)) return;
    const std::vector<Field> fields = fields_of(line, offset);
    if (!header_seen_) {
      header(fields, offset);
    } else {
      values(fields, offset, line.size());
    }
  }

  // "# unit: s" before the header sets the unit of the times; other comments are ignored.
  void comment(std::string_view body, std::size_t hash) {
    while (!body.empty() && is_data_space(body.front())) body.remove_prefix(1);
    if (body.size() < 5 || body.substr(0, 5) != "unit:") return;
    std::string_view unit = body.substr(5);
    while (!unit.empty() && is_data_space(unit.front())) unit.remove_prefix(1);
    while (!unit.empty() && is_data_space(unit.back())) unit.remove_suffix(1);
    if (header_seen_) return error(hash, "'# unit:' must come before the header");
    if (runs_.has_unit) return error(hash, "a second '# unit:' line");
    const auto per = models::microseconds_per(unit);
    if (!per) {
      return error(hash, fmt::format("unknown unit '{}': expected ns, us (or \xC2\xB5s), ms or s", excerpt(unit)));
    }
    runs_.has_unit = true;
    microseconds_ = *per;
  }

  void header(const std::vector<Field>& fields, std::size_t offset) {
    header_seen_ = true;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const Field& f = fields[i];
      const std::string name(f.text);
      if (!is_name(f.text)) {
        error(f.offset, fmt::format("'{}' is not a column name: expected p, time, repetition or a variable's name",
                                    excerpt(name)));
        continue;
      }
      if (std::find(names_seen_.begin(), names_seen_.end(), name) != names_seen_.end()) {
        error(f.offset, fmt::format("the column '{}' appears twice", excerpt(name)));
        continue;
      }
      names_seen_.push_back(name);
      if (name == "p")
        p_column_ = i;
      else if (name == "time")
        time_column_ = i;
      else if (name == "repetition")
        repetition_column_ = i;
      else
        variable(name, f.offset, i);
    }
    if (p_column_ == kNone) error(offset, "the header has no column 'p' (the processor count of each run)");
    if (time_column_ == kNone) error(offset, "the header has no column 'time' (the measured runtime of each run)");
    columns_ = fields.size();
    runs_.has_repetition = repetition_column_ != kNone;
    runs_.header = source_.location(offset);
  }

  // A variable's column: a name the program or the machine declares, when they are given.
  void variable(const std::string& name, std::size_t offset, std::size_t column) {
    const bool checked = names_.program != nullptr || names_.machine != nullptr;
    const bool in_program = names_.program != nullptr && models::declares_variable(*names_.program, name);
    const bool in_machine = names_.machine != nullptr && models::declares_constant(*names_.machine, name);
    if (checked && !in_program && !in_machine) {
      std::string known;
      if (names_.program != nullptr) {
        for (const models::Variable& v : names_.program->variables) known += (known.empty() ? "" : ", ") + v.name;
      }
      if (names_.machine != nullptr) {
        for (const auto& [constant, value] : names_.machine->constants) known += (known.empty() ? "" : ", ") + constant;
      }
      error(offset, fmt::format("the column '{}' is neither p, time, repetition, a variable of the program nor a "
                                "constant of the machine{}",
                                excerpt(name), known.empty() ? std::string() : " (they declare " + known + ")"));
      return;
    }
    runs_.variables.push_back(name);
    runs_.variable_locations.push_back(source_.location(offset));
    variable_columns_.push_back(column);
  }

  void values(const std::vector<Field>& fields, std::size_t offset, std::size_t length) {
    if (p_column_ == kNone || time_column_ == kNone) return;  // the header's error says why
    if (fields.size() != columns_) {
      error(offset + (fields.size() > columns_ ? fields[columns_].offset - offset : length),
            fmt::format("a row has {} fields, the header {}", fields.size(), columns_));
      return;
    }
    models::Run run;
    run.location = source_.location(offset);
    bool ok = true;
    auto number = [&](const Field& f, const char* what, double& value) {
      if (f.text.empty() || detail::parse_data_number(f.text, value) != f.text.size() || !std::isfinite(value)) {
        error(f.offset, fmt::format("{} must be a finite number, got '{}'", what, excerpt(f.text)));
        ok = false;
        return false;
      }
      return true;
    };
    auto whole = [&](const Field& f, const char* what, std::int64_t lowest, std::int64_t highest, std::int64_t& out) {
      double value = 0;
      if (!number(f, what, value)) return;
      if (value != std::floor(value) || value < static_cast<double>(lowest) || value > static_cast<double>(highest)) {
        error(f.offset, fmt::format("{} must be a whole number in [{}, {}], got {}", what, lowest, highest, f.text));
        ok = false;
        return;
      }
      out = static_cast<std::int64_t>(value);
    };
    whole(fields[p_column_], "p", 1, kMostProcessors, run.p);
    double time = 0;
    if (number(fields[time_column_], "time", time)) {
      run.time = time * microseconds_;
      // After the unit's conversion: 1e303 s overflows, 5e-324 ns vanishes, and a time near
      // either end makes every relative error infinite or zero.
      if (!(time > 0)) {
        error(fields[time_column_].offset, fmt::format("time must be > 0, got {}", fields[time_column_].text));
        ok = false;
      } else if (!(run.time >= kLeastTime && run.time <= kMostTime)) {
        error(fields[time_column_].offset,
              fmt::format("time {} is {:g} {}, outside [{:g}, {:g}]", fields[time_column_].text, run.time,
                          runs_.has_unit ? "µs" : "in the program's time unit", kLeastTime, kMostTime));
        ok = false;
      }
    }
    if (repetition_column_ != kNone)
      whole(fields[repetition_column_], "repetition", 1, kMostProcessors, run.repetition);
    for (std::size_t i = 0; i < variable_columns_.size(); ++i) {
      double value = 0;
      number(fields[variable_columns_[i]], runs_.variables[i].c_str(), value);
      run.values.push_back(value);
    }
    if (ok) runs_.runs.push_back(std::move(run));
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // The times a run may have (µs with a unit, else the program's unit): a picosecond to 30,000
  // years, far beyond any measurement, so that the relative errors stay finite.
  static constexpr double kLeastTime = 1e-6;
  static constexpr double kMostTime = 1e18;
  Source source_;
  const std::string& text_;
  RunsNames names_;
  models::Runs runs_;
  std::vector<Diagnostic> diagnostics_;
  std::size_t errors_ = 0;
  bool header_seen_ = false;
  double microseconds_ = 1.0;
  std::vector<std::string> names_seen_;
  std::size_t columns_ = 0, p_column_ = kNone, time_column_ = kNone, repetition_column_ = kNone;
  std::vector<std::size_t> variable_columns_;
};

}  // namespace

RunsResult parse_runs(const std::string& text, const std::string& filename, RunsNames names) {
  return RunsParser(text, filename, names).run();
}

}  // namespace pdl
