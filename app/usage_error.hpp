// The command layer's one error shape (docs/architecture.md, "Errors"): every check of a
// command line returns a Checked<T>, the value or why the line is refused, which the command's
// main() prints and Python raises with, word for word.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "analysis/failure.hpp"

namespace app {

// Why a command line is refused (exit 2): the whole text the command prints on stderr, a
// "pdl-scale: error: ..." line or a located diagnostic.
struct UsageError {
  std::string text;
};

// "pdl-scale: error: MESSAGE\n" as a UsageError.
inline UsageError usage_error_of(const std::string& message) { return {"pdl-scale: error: " + message + "\n"}; }

// An option's value as a refusal quotes it: as written, or '' when it is empty (a script's unset
// variable), so that "--memory '': expected a size" says what was given.
inline std::string as_written(const std::string& value) { return value.empty() ? "''" : value; }

// A value, or why the command line is refused.
template <typename T>
using Checked = analysis::Outcome<T, UsageError>;

// A check that gives no value: passed, or why the line is refused.
using Check = Checked<std::monostate>;

inline Check passed() { return {std::monostate{}, std::nullopt}; }

// A refusal that any Checked<T> takes: `return refuse("--p 0: ...")`.
struct Refusal {
  UsageError error;

  template <typename T>
  operator Checked<T>() const {  // NOLINT(google-explicit-constructor): returned as any Checked<T>
    return {std::nullopt, error};
  }
};

// "pdl-scale: error: MESSAGE\n" as a refusal.
inline Refusal refuse(const std::string& message) { return {usage_error_of(message)}; }

// A refusal carrying another check's error unchanged.
inline Refusal refuse(const UsageError& error) { return {error}; }

}  // namespace app
