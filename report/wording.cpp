#include "report/wording.hpp"

#include <fmt/format.h>

#include "solvers/memory.hpp"

namespace report {

std::string unsolved_text(const solvers::Unsolved& why) {
  using Reason = solvers::Unsolved::Reason;
  switch (why.reason) {
    case Reason::ExactModelTooLarge:
      return fmt::format("the exact model has about {:.0f} tasks, more than the limit of {:.0f} (--max-exact-tasks)",
                         why.size, why.limit_value);
    case Reason::StateSpaceTooLarge:
      return fmt::format("{}about {:.2g} states needing {}, beyond {}; bounds and mc apply at any size",
                         why.size_is_lower_bound ? "at least " : "", why.size, solvers::memory_text(why.bytes),
                         why.limit == solvers::Unsolved::Limit::States
                             ? fmt::format("--max-states {:.0f}", why.limit_value)
                             : fmt::format("the {} of --memory left for it", solvers::memory_text(why.limit_value)));
    case Reason::OverMemoryBudget:
      return fmt::format("{} needs about {}, more than the {} of --memory left for it", why.explanation,
                         solvers::memory_text(why.bytes), solvers::memory_text(why.limit_value));
    case Reason::NotSupported: return why.explanation;
    case Reason::NumericalFailure: return why.explanation;
  }
  return why.explanation;
}

std::string bind_error_text(const models::BindError& error) {
  switch (error.code) {
    case models::BindError::Code::UnknownVariable:
      return fmt::format("--set {}: the program declares no variable '{}'", error.variable, error.variable);
    case models::BindError::Code::NoValue:
      return fmt::format("variable '{}' has no default value: bind it with --set {}=VALUE", error.variable,
                         error.variable);
    case models::BindError::Code::BadDefault:
    case models::BindError::Code::ClashWithMachine: return error.message();
  }
  return error.message();
}

}  // namespace report
