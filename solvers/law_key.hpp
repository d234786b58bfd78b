// Internal to the solvers: a key under which equal task runtimes share their per-law work
// (lattices, samplers, tree leaves).
//
// distributions::identity() is the same only for copies of one Distribution. A model built from
// a PDL ARBITRARY phase gives every TASK line its own Distribution, so 10^6 tasks with three
// textual laws would otherwise cost 10^6 lattices of up to 1024 points each (16 KB a task).
// Closed forms described by a few numbers (deterministic, exponential, Erlang, uniform,
// truncated normal) are keyed by those numbers; every other law by its identity.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "distributions/distribution.hpp"
#include "distributions/queries.hpp"

namespace solvers::detail {

// (kind, parameters..., identity): identity is null for the closed forms keyed by value.
using LawKey = std::tuple<int, double, double, std::int64_t, const void*>;

inline LawKey law_key(const distributions::Distribution& d) {
  using Kind = distributions::ClosedFormParameters::Kind;
  if (const auto form = distributions::closed_form(d)) {
    switch (form->kind) {
      case Kind::Deterministic: return {0, form->value, 0.0, 0, nullptr};
      case Kind::Exponential: return {1, form->rate, 0.0, 0, nullptr};
      case Kind::Erlang: return {2, form->rate, 0.0, form->phases, nullptr};
      case Kind::Uniform: return {3, form->low, form->high, 0, nullptr};
      case Kind::TruncatedNormal: return {4, form->mu, form->sigma, 0, nullptr};
      case Kind::LogNormal: return {5, form->mu, form->sigma, 0, nullptr};
      case Kind::Weibull: return {6, form->shape, form->scale, 0, nullptr};
      case Kind::Pareto: return {7, form->shape, form->scale, 0, nullptr};
      default: break;
    }
  }
  return {-1, 0.0, 0.0, 0, distributions::identity(d)};
}

// Values kept per law (law_key), remembering the identity of the last distribution asked for:
// the tasks of one phase share one Distribution, so most lookups of a model's 10^5 tasks skip
// the key (a visit of the closed form) and the map's search. Every distribution asked for must
// outlive the LawMap (the nodes of the graph being compiled): an identity is an address.
template <class Value>
class LawMap {
 public:
  // d's value, and whether it was just added (value-initialised, for the caller to set).
  std::pair<Value*, bool> try_emplace(const distributions::Distribution& d) {
    const void* identity = distributions::identity(d);
    if (identity == last_identity_) return {last_, false};
    auto [it, added] = map_.try_emplace(law_key(d));
    last_identity_ = identity;
    last_ = &it->second;
    return {last_, added};
  }

 private:
  std::map<LawKey, Value> map_;
  const void* last_identity_ = nullptr;
  Value* last_ = nullptr;
};

}  // namespace solvers::detail
