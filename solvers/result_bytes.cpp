#include "solvers/result_bytes.hpp"

#include <span>

#include "distributions/distribution_bytes.hpp"

namespace solvers {

// Quantile, Statistics and the numbers of Unsolved are plain values; the strings and the
// optional parts go field by field.
void put_result(distributed::Writer& out, const Result& result) {
  out.put(result.method);
  out.put(result.mean);
  out.put(result.lower);
  out.put(result.upper);
  out.put<bool>(result.distribution.has_value());
  if (result.distribution) distributions::put_distribution(out, *result.distribution);
  out.put_all(std::span<const Quantile>(result.quantiles));
  out.put_text(result.detail);
  out.put_text(result.note);
  out.put<bool>(result.unsolved.has_value());
  if (result.unsolved) {
    const Unsolved& why = *result.unsolved;
    out.put(why.reason);
    out.put(why.limit);
    out.put(why.size);
    out.put(why.size_is_lower_bound);
    out.put(why.bytes);
    out.put(why.limit_value);
    out.put_text(why.explanation);
  }
  out.put(result.statistics);
}

Result get_result(distributed::Reader& in) {
  Result result;
  result.method = in.get<Method>();
  result.mean = in.get<double>();
  result.lower = in.get<double>();
  result.upper = in.get<double>();
  if (in.get<bool>()) result.distribution = distributions::get_distribution(in);
  result.quantiles = in.get_all<Quantile>();
  result.detail = in.get_text();
  result.note = in.get_text();
  if (in.get<bool>()) {
    Unsolved& why = result.unsolved.emplace();
    why.reason = in.get<Unsolved::Reason>();
    why.limit = in.get<Unsolved::Limit>();
    why.size = in.get<double>();
    why.size_is_lower_bound = in.get<bool>();
    why.bytes = in.get<double>();
    why.limit_value = in.get<double>();
    why.explanation = in.get_text();
  }
  result.statistics = in.get<Statistics>();
  return result;
}

}  // namespace solvers
