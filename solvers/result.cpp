#include "solvers/result.hpp"

namespace solvers {

std::string_view to_string(Method method) {
  switch (method) {
    case Method::SeriesParallel: return "approx";
    case Method::Bounds: return "bounds";
    case Method::MonteCarlo: return "mc";
    case Method::StateSpace: return "exact";
  }
  return "unknown";
}

std::optional<Method> method_from_string(std::string_view name) {
  for (Method method : {Method::SeriesParallel, Method::Bounds, Method::MonteCarlo, Method::StateSpace}) {
    if (name == to_string(method)) return method;
  }
  return std::nullopt;
}

}  // namespace solvers
