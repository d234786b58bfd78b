#include "pdl/measurements.hpp"

#include "models/limits.hpp"

#include "pdl/data_text.hpp"
#include "pdl/parse.hpp"  // kMaxErrors

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>

namespace pdl {

namespace {

using detail::is_data_space;
using detail::parse_data_number;

// A data file is read whole; beyond this it is refused by size (about 20 million samples).
constexpr std::uintmax_t kMaxDataBytes = 256u << 20;
// A line of a data file is a number, a unit and a weight: anything longer is not a data line
// (a binary file, a file of another format joined into one line).
constexpr std::size_t kMaxLineLength = 4096;

constexpr const char* kUnits = "ns, us (or \xC2\xB5s), ms or s";

bool starts_alpha(std::string_view token) {
  const auto c = static_cast<unsigned char>(token.front());
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

struct Token {
  std::string_view text;
  std::size_t offset;  // in the file
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& filename) : source_(filename, text), text_(text) {}

  MeasurementsResult run() {
    MeasurementsResult result;
    if (text_.empty()) {
      error(0, "the file is empty: expected one runtime per line, or 'value weight' rows");
      return finish(result);
    }
    std::size_t line_number = 0;
    for (std::size_t start = 0; start < text_.size() && !stopped();) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string::npos) end = text_.size();
      ++line_number;
      line(start, end, line_number);
      start = end + 1;
    }
    if (!stopped() && rows_ == 0 && errors_ == 0) {
      error(0, "no measurements: the file has only comments and blank lines");
    }
    if (!stopped() && errors_ == 0 && histogram_) {
      double total = 0.0;
      for (double w : measurements_.weights) total += w;
      if (!(total > 0.0))
        error(first_row_offset_, "the weights add up to 0: a histogram needs a positive total weight");
      else if (!std::isfinite(total))
        error(first_row_offset_, "the weights add up to more than the largest number");
    }
    if (errors_ == 0) {
      const double factor = unit_.empty() ? 1.0 : *models::microseconds_per(unit_);
      for (double& v : measurements_.values) v *= factor;  // finite: checked row by row
      measurements_.file = source_.filename();
      measurements_.unit = unit_;
    }
    if (errors_ == 0) result.measurements = std::move(measurements_);
    return finish(result);
  }

 private:
  bool stopped() const { return errors_ >= kMaxErrors; }

  void error(std::size_t offset, std::string message) {
    diagnostics_.push_back(source_.diagnose(Severity::Error, offset, std::move(message)));
    ++errors_;
  }

  MeasurementsResult& finish(MeasurementsResult& result) {
    result.diagnostics = std::move(diagnostics_);
    return result;
  }

  void line(std::size_t start, std::size_t end, std::size_t line_number) {
    // Control bytes (other than tab and a CR before the newline) mean this is not a text file.
    for (std::size_t i = start; i < end; ++i) {
      const auto c = static_cast<unsigned char>(text_[i]);
      if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == end)) || c == 0x7f) {
        error(i, fmt::format("the file is not text: byte 0x{:02x} (a data file holds numbers, one row per line)", c));
        return;
      }
    }
    if (end - start > kMaxLineLength) {
      error(start + kMaxLineLength, fmt::format("the line is longer than {} characters: a row is 'value [unit] "
                                                "[weight]'",
                                                kMaxLineLength));
      return;
    }
    // Search this line only: a search to the end of the file would make reading quadratic.
    const std::size_t hash = std::string_view(text_).substr(start, end - start).find('#');
    const std::size_t data_end = hash == std::string_view::npos ? end : start + hash;
    if (data_end < end) comment(data_end, end, line_number);

    std::vector<Token> tokens;
    for (std::size_t i = start; i < data_end;) {
      while (i < data_end && is_data_space(text_[i])) ++i;
      const std::size_t token_start = i;
      while (i < data_end && !is_data_space(text_[i])) ++i;
      if (i > token_start)
        tokens.push_back({std::string_view(text_).substr(token_start, i - token_start), token_start});
    }
    if (!tokens.empty()) row(tokens, line_number);
  }

  // "# unit: ms" sets the file's unit; any other comment is ignored.
  void comment(std::size_t hash, std::size_t end, std::size_t line_number) {
    std::string_view body = std::string_view(text_).substr(hash + 1, end - hash - 1);
    while (!body.empty() && is_data_space(body.front())) body.remove_prefix(1);
    while (!body.empty() && is_data_space(body.back())) body.remove_suffix(1);
    if (lowercase(body.substr(0, 5)) != "unit:") return;
    std::string_view unit = body.substr(5);
    while (!unit.empty() && is_data_space(unit.front())) unit.remove_prefix(1);
    if (rows_ > 0) {
      error(hash, "'# unit:' must come before the first measurement");
      return;
    }
    if (header_line_ != 0) {
      error(hash, fmt::format("a second '# unit:' line (the first is line {})", header_line_));
      return;
    }
    if (!models::microseconds_per(unit)) {
      error(unit.empty() ? hash : static_cast<std::size_t>(unit.data() - text_.data()),
            unit.empty() ? fmt::format("'# unit:' needs a unit: {}", kUnits)
                         : fmt::format("unknown unit '{}': use {}", unit, kUnits));
      return;
    }
    unit_ = std::string(unit);
    unit_line_ = line_number;
    header_line_ = line_number;
  }

  void row(const std::vector<Token>& tokens, std::size_t line_number) {
    double value = 0.0;
    std::size_t next = 1;  // the token after the runtime and its unit
    if (!runtime(tokens, line_number, value, next)) return;

    // weight
    const bool has_weight = tokens.size() > next;
    if (!consistent_columns(tokens, next, line_number)) return;
    if (has_weight) {
      double weight = 1.0;
      if (!weight_column(tokens[next], weight)) return;
      measurements_.weights.push_back(weight);
    }
    measurements_.values.push_back(value);
    ++rows_;
  }

  // Reads the runtime of a row into `value` and sets `next` past its unit; false after an error.
  bool runtime(const std::vector<Token>& tokens, std::size_t line_number, double& value, std::size_t& next) {
    // value, with its unit attached ("12.5us") or as the next token ("12.5 us")
    const Token& first = tokens.front();
    const std::size_t used = parse_data_number(first.text, value);
    if (used == 0) {
      const std::string hint =
          first.text.find(',') != std::string_view::npos ? " (separate the value and the weight by spaces)" : "";
      error(first.offset, fmt::format("expected a runtime (a number), got '{}'{}", shown(first.text), hint));
      return false;
    }
    std::string_view unit;
    std::size_t unit_offset = first.offset + used;
    if (used < first.text.size()) {
      unit = first.text.substr(used);
      if (unit.find(',') != std::string_view::npos) {
        error(first.offset + used, fmt::format("expected a runtime (a number), got '{}' (separate the value and "
                                               "the weight by spaces)",
                                               shown(first.text)));
        return false;
      }
    } else if (tokens.size() > 1 && starts_alpha(tokens[1].text) &&
               parse_data_number(tokens[1].text, weight_probe_) == 0) {
      // A word after the value is its unit; "nan" or "inf" there is a (bad) weight.
      unit = tokens[1].text;
      unit_offset = tokens[1].offset;
      next = 2;
    }
    return valid_runtime(value, first, used, unit, unit_offset, line_number);
  }

  // `used` is the length of the number in the first token.
  bool valid_runtime(double value, const Token& first, std::size_t used, std::string_view unit, std::size_t unit_offset,
                     std::size_t line_number) {
    if (!std::isfinite(value)) {
      error(first.offset, fmt::format("the runtime '{}' is not a finite number", shown(first.text.substr(0, used))));
      return false;
    }
    if (value < 0.0) {
      error(first.offset, fmt::format("a runtime must be >= 0, got {}", shown(first.text.substr(0, used))));
      return false;
    }
    if (!check_unit(unit, unit_offset, first.offset, line_number)) return false;
    if (!unit_.empty() && !std::isfinite(value * *models::microseconds_per(unit_))) {
      error(first.offset, fmt::format("the runtime '{}' {} overflows when converted to microseconds",
                                      shown(first.text.substr(0, used)), unit_));
      return false;
    }
    // The range of every runtime of a model (models/limits.hpp), in the unit the model uses.
    const double converted = unit_.empty() ? value : value * *models::microseconds_per(unit_);
    if (converted != 0.0 && !(converted >= models::kSmallestTime && converted <= models::kLargestTime)) {
      error(first.offset, fmt::format("a runtime must be 0 or lie in [{:g}, {:g}]{}, got {}", models::kSmallestTime,
                                      models::kLargestTime, unit_.empty() ? "" : " microseconds", converted));
      return false;
    }
    return true;
  }

  // At most one column after the runtime, and either every row has a weight or none has;
  // the first row decides.
  bool consistent_columns(const std::vector<Token>& tokens, std::size_t next, std::size_t line_number) {
    const Token& first = tokens.front();
    const bool has_weight = tokens.size() > next;
    if (tokens.size() > next + 1) {
      error(tokens[next + 1].offset,
            fmt::format("too many columns ({}): a row is 'value [unit]' or 'value [unit] weight'",
                        tokens.size() - (next == 2 ? 1 : 0)));
      return false;
    }
    if (rows_ == 0) {
      histogram_ = has_weight;
      first_row_line_ = line_number;
      first_row_offset_ = first.offset;
    } else if (has_weight != histogram_) {
      error(has_weight ? tokens[next].offset : first.offset + first.text.size(),
            has_weight ? fmt::format("this row has a weight, but the first row (line {}) has none: a file is one "
                                     "runtime per line or 'value weight' rows throughout",
                                     first_row_line_)
                       : fmt::format("this row has no weight, but the first row (line {}) has one: a file is one "
                                     "runtime per line or 'value weight' rows throughout",
                                     first_row_line_));
      return false;
    }
    return true;
  }

  bool weight_column(const Token& w, double& weight) {
    const std::size_t weight_used = parse_data_number(w.text, weight);
    if (weight_used == 0 || weight_used != w.text.size()) {
      error(w.offset, fmt::format("expected a weight (a number without a unit), got '{}'", shown(w.text)));
      return false;
    }
    if (!std::isfinite(weight)) {
      error(w.offset, fmt::format("the weight '{}' is not a finite number", shown(w.text)));
      return false;
    }
    if (weight < 0.0) {
      error(w.offset, fmt::format("a weight must be >= 0, got {}", shown(w.text)));
      return false;
    }
    if (weight > models::kLargestMagnitude) {
      error(w.offset, fmt::format("a weight must be at most {:g}, got {}", models::kLargestMagnitude, shown(w.text)));
      return false;
    }
    return true;
  }

  // Either every value has the file's one unit, or none has a unit.
  bool check_unit(std::string_view unit, std::size_t unit_offset, std::size_t value_offset, std::size_t line_number) {
    if (!unit.empty() && !models::microseconds_per(unit)) {
      error(unit_offset, fmt::format("unknown unit '{}': use {}", shown(unit), kUnits));
      return false;
    }
    const bool first_row = rows_ == 0;
    if (first_row && header_line_ == 0) {
      rows_have_units_ = !unit.empty();
      if (!unit.empty()) {
        unit_ = std::string(unit);
        unit_line_ = line_number;
      }
      return true;
    }
    if (header_line_ != 0) {
      if (!unit.empty() && unit != unit_) {
        error(unit_offset, fmt::format("mixed units: '{}' here, but '# unit: {}' at line {} (give every value in "
                                       "one unit)",
                                       shown(unit), unit_, unit_line_));
        return false;
      }
      return true;
    }
    if (rows_have_units_ && unit.empty()) {
      error(value_offset, fmt::format("missing unit: the values before have one ('{}' at line {}); give every "
                                      "value a unit, or none",
                                      unit_, unit_line_));
      return false;
    }
    if (!rows_have_units_ && !unit.empty()) {
      error(unit_offset, fmt::format("mixed units: '{}' here, but the values before have none (first at line {}); "
                                     "give every value a unit, or none",
                                     shown(unit), first_row_line_));
      return false;
    }
    if (!unit.empty() && unit != unit_) {
      error(unit_offset, fmt::format("mixed units: '{}' here, but '{}' at line {} (give every value in one unit)",
                                     shown(unit), unit_, unit_line_));
      return false;
    }
    return true;
  }

  // Tokens are shown in messages; a very long one is cut.
  static std::string shown(std::string_view token) {
    constexpr std::size_t kShown = 40;
    return token.size() <= kShown ? std::string(token) : std::string(token.substr(0, kShown)) + "...";
  }

  Source source_;
  const std::string& text_;
  std::vector<Diagnostic> diagnostics_;
  std::size_t errors_ = 0;
  models::Measurements measurements_;
  std::size_t rows_ = 0;
  bool histogram_ = false;
  std::size_t first_row_line_ = 0;
  std::size_t first_row_offset_ = 0;
  bool rows_have_units_ = false;
  std::string unit_;
  std::size_t unit_line_ = 0;
  std::size_t header_line_ = 0;
  double weight_probe_ = 0.0;
};

}  // namespace

MeasurementsResult parse_measurements(const std::string& text, const std::string& filename) {
  return Parser(text, filename).run();
}

MeasurementsResult read_measurements(const std::string& path, const FileReader& read) {
  MeasurementsResult result;
  const FileFacts facts = read(path, kMaxDataBytes);
  if (!facts.exists) {
    result.read_error = "no such file";
    return result;
  }
  if (facts.directory) {
    result.read_error = "it is a directory, not a file";
    return result;
  }
  if (facts.regular && facts.size > kMaxDataBytes) {
    result.read_error =
        fmt::format("the file is too large: {} bytes (the limit is {} bytes)", facts.size, kMaxDataBytes);
    return result;
  }
  if (facts.open_error != 0) {
    result.read_error = std::strerror(facts.open_error);
    return result;
  }
  if (facts.text.size() > kMaxDataBytes) {
    result.read_error = fmt::format("the file is too large (more than {} bytes)", kMaxDataBytes);
    return result;
  }
  if (facts.read_error) {
    result.read_error = "a read error";
    return result;
  }
  return parse_measurements(facts.text, path);
}

}  // namespace pdl
