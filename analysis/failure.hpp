// Why a study could not be run: typed, so that the command words it and points at the file and
// line it comes from.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "models/bind.hpp"
#include "models/program.hpp"
#include "outcome/outcome.hpp"

namespace analysis {

struct Failure {
  enum class Kind {
    InvalidValue,  // a value invalid once the variables are bound (scaling::ScalingError)
    Binding,       // a variable could not be bound (at a swept or searched value)
    Request,       // the request itself (an option's value, e.g. --fit): no place in a file
  };
  Kind kind = Kind::InvalidValue;
  // The machine (index into the study's machines) whose case failed.
  std::size_t machine = 0;
  // InvalidValue: what and where (the location may be empty).
  std::string message;
  models::SourceLocation location;
  // Binding: the first binding error.
  std::optional<models::BindError> binding;

  // What went wrong, whatever the kind: the binding error's message or `message`.
  std::string text() const { return binding ? binding->message() : message; }

  static Failure of_value(std::size_t machine, std::string message, models::SourceLocation location = {}) {
    Failure failure;
    failure.kind = Kind::InvalidValue;
    failure.machine = machine;
    failure.message = std::move(message);
    failure.location = std::move(location);
    return failure;
  }

  static Failure of_request(std::string message) {
    Failure failure;
    failure.kind = Kind::Request;
    failure.message = std::move(message);
    return failure;
  }

  static Failure of_binding(std::size_t machine, models::BindError error) {
    Failure failure;
    failure.kind = Kind::Binding;
    failure.machine = machine;
    failure.binding = std::move(error);
    return failure;
  }
};

// The project's one Outcome (outcome/outcome.hpp), with the analysis's failures by default; the
// command line's refusals (app::UsageError) in the command layer.
template <typename T, typename Error = Failure>
using Outcome = pdl_scale::Outcome<T, Error>;

}  // namespace analysis
