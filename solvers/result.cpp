#include "solvers/result.hpp"

#include "solvers/solver.hpp"

namespace solvers {

std::string_view to_string(Method method) { return info(method).name; }

std::optional<Method> method_from_string(std::string_view name) {
  for (Method method : all_methods()) {
    if (info(method).name == name) return method;
  }
  return std::nullopt;
}

}  // namespace solvers
