#include "solvers/result_bytes.hpp"

#include <optional>
#include <span>

#include "distributions/distribution_bytes.hpp"

namespace solvers {

namespace {

// The fields of a Result and of its Unsolved in the order they travel, listed once for writing
// and reading. Quantile, Statistics and the numbers of Unsolved are plain values; the strings,
// the quantiles and the optional parts go by their own field functions.
template <class R, class Visit>
void result_fields(R& result, Visit&& visit) {
  visit(result.method);
  visit(result.mean);
  visit(result.lower);
  visit(result.upper);
  visit(result.distribution);
  visit(result.quantiles);
  visit(result.detail);
  visit(result.note);
  visit(result.unsolved);
  visit(result.statistics);
}

template <class U, class Visit>
void unsolved_fields(U& why, Visit&& visit) {
  visit(why.reason);
  visit(why.limit);
  visit(why.size);
  visit(why.size_is_lower_bound);
  visit(why.bytes);
  visit(why.limit_value);
  visit(why.explanation);
}

struct Put {
  distributed::Writer& out;
  void operator()(const std::optional<distributions::Distribution>& law) const {
    out.put<bool>(law.has_value());
    if (law) distributions::put_distribution(out, *law);
  }
  void operator()(const std::optional<Unsolved>& why) const {
    out.put<bool>(why.has_value());
    if (why) unsolved_fields(*why, *this);
  }
  template <class T>
  void operator()(const T& value) const {
    out.field(value);
  }
};

struct Get {
  distributed::Reader& in;
  void operator()(std::optional<distributions::Distribution>& law) const {
    if (in.get<bool>()) law = distributions::get_distribution(in);
  }
  void operator()(std::optional<Unsolved>& why) const {
    if (in.get<bool>()) unsolved_fields(why.emplace(), *this);
  }
  template <class T>
  void operator()(T& value) const {
    in.field(value);
  }
};

}  // namespace

void put_result(distributed::Writer& out, const Result& result) { result_fields(result, Put{out}); }

Result get_result(distributed::Reader& in) {
  Result result;
  result_fields(result, Get{in});
  return result;
}

}  // namespace solvers
