#include "scaling/bound_quantities.hpp"
#include "distributions/errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "models/limits.hpp"
#include "models/make_distribution.hpp"

namespace scaling::detail {

namespace {

// Both laws at once (Route::Either): the larger of each term, so that the approximate model
// charges no message less than the exact model does.
BoundQuantities::MessageCost either(BoundQuantities::MessageCost between, const BoundQuantities::MessageCost& inside) {
  between.transfer = std::max(between.transfer, inside.transfer);
  between.overhead = std::max(between.overhead, inside.overhead);
  return between;
}

}  // namespace

BoundQuantities::BoundQuantities(const models::Machine& machine, const models::Environment& environment, int p)
    : machine_(machine), environment_(environment), p_(p) {
  // Variables that are expressions of P (weak scaling) take their value for this p here.
  if (const auto error = models::with_processors(environment_, p)) throw ScalingError(error->location, error->message);
}

double BoundQuantities::value(const models::Expr& expr, const models::SourceLocation& where,
                              const models::Environment& environment, const char* what) const {
  const models::Evaluation result = models::evaluate(expr, environment);
  if (!result.ok()) throw ScalingError(where, std::string{what} + ": " + result.error);
  return result.value;
}

double BoundQuantities::value(const models::Expr& expr, const models::SourceLocation& where, const char* what) const {
  return value(expr, where, environment_, what);
}

std::int64_t BoundQuantities::count(const models::Expr& expr, const models::SourceLocation& where,
                                    const char* what) const {
  const double v = value(expr, where, what);
  const double rounded = std::round(v);
  if (rounded > models::kLargestCount) {
    throw ScalingError(where,
                       fmt::format("{} is {:g}, more than the largest count, {:g}", what, v, models::kLargestCount));
  }
  if (std::abs(v - rounded) > 1e-9 * std::max(1.0, std::abs(v)) || rounded < 0.0) {
    // With variables that are expressions of P, the count may be whole at some p only: say which.
    const std::string at_p =
        environment_.per_processor.empty()
            ? std::string()
            : fmt::format(" at P = {}", environment_.problem_processors.value_or(static_cast<int>(p_)));
    throw ScalingError(where, fmt::format("{} must be a non-negative whole number, got {}{}", what, v, at_p));
  }
  return static_cast<std::int64_t>(rounded);
}

distributions::Distribution BoundQuantities::runtime(const models::RuntimeSpec& spec) const {
  try {
    return models::make_distribution(spec, environment_, machine_);
  } catch (const distributions::InvalidDistribution& error) {
    throw ScalingError(spec.location, error.what());
  }
}

double BoundQuantities::overhead(double seconds, const char* what, const models::SourceLocation& where) const {
  if (p_ == 1) return 0.0;
  if (!(seconds >= 0.0) || !std::isfinite(seconds)) {
    throw ScalingError(where, fmt::format("{} time must be finite and >= 0, got {}", what, seconds));
  }
  // The range of every time of a model (models/limits.hpp): a message of 1e300 bytes or a
  // contention grown with the work could otherwise push sums past the largest double.
  if (seconds != 0.0 && !(seconds >= models::kSmallestTime && seconds <= models::kLargestTime)) {
    throw ScalingError(where, fmt::format("{} time must be 0 or lie in [{:g}, {:g}], got {}", what,
                                          models::kSmallestTime, models::kLargestTime, seconds));
  }
  return seconds;
}

double BoundQuantities::per_message(const models::Expr& cost, double bytes, double sharing, const char* term,
                                    const char* kind, const models::SourceLocation& where) const {
  if (p_ == 1) return 0.0;
  const MessageKey key{&cost, bytes, sharing};
  auto known = message_costs_.find(key);
  if (known == message_costs_.end()) {
    if (!message_environment_) message_environment_ = environment_;
    message_environment_->values["L"] = bytes;
    message_environment_->values["S"] = sharing;
    const double seconds = value(cost, machine_.location, *message_environment_, term);
    if (!std::isfinite(bytes) || !std::isfinite(sharing)) return overhead(seconds, kind, where);  // not a map key
    known = message_costs_.emplace(key, seconds).first;
  }
  return overhead(known->second, kind, where);
}

BoundQuantities::MessageCost BoundQuantities::message_cost(double bytes, const models::SourceLocation& where,
                                                           double sharing, Route route) const {
  if (p_ == 1 || bytes == 0.0) {
    MessageCost free;
    free.bytes = bytes;
    free.sharing = sharing;
    return free;
  }
  return route == Route::Either ? either(one_law_cost(bytes, where, sharing, false, false),
                                         one_law_cost(bytes, where, sharing, true, false))
                                : one_law_cost(bytes, where, sharing, route == Route::WithinNode, false);
}

double BoundQuantities::port_time(double bytes, const models::SourceLocation& where) const {
  const models::Expr* port = law(bytes).port_time;
  return port != nullptr ? per_message(*port, bytes, 1.0, "port time", "port", where) : 0.0;
}

bool BoundQuantities::rendezvous(double bytes) const {
  if (p_ == 1) return false;
  if (const auto protocol = law(bytes).protocol) return *protocol == models::Protocol::Rendezvous;
  return machine_.eager_limit.has_value() && bytes > eager_limit();
}

// The eager limit as the constants bind it (--set, a sweep): checked as the checker checks a
// literal one, at the statement.
double BoundQuantities::eager_limit() const {
  const models::SourceLocation& at = machine_.eager_limit_location;
  const double limit = value(*machine_.eager_limit, at, "eager limit");
  if (limit < 0) throw ScalingError(at, fmt::format("EAGER LIMIT is negative ({})", limit));
  if (limit != 0.0 && !(limit >= models::kSmallestTime && limit <= models::kLargestTime)) {
    throw ScalingError(at, fmt::format("EAGER LIMIT is {}: a size in bytes must be 0 or lie in [{:g}, {:g}]", limit,
                                       models::kSmallestTime, models::kLargestTime));
  }
  return limit;
}

BoundQuantities::Law BoundQuantities::law(double bytes) const {
  const Law own{&machine_.communication_time, &machine_.message_overhead,
                machine_.port_time ? &*machine_.port_time : nullptr, std::nullopt};
  if (machine_.segments.empty()) return own;
  if (!segment_from_) {
    // The FROMs once per machine and p, in the environment of --set constants.
    std::vector<double> from;
    for (const models::MessageSegment& segment : machine_.segments) {
      from.push_back(value(segment.from, segment.location, "segment"));
      if (!(from.back() > (from.size() == 1 ? 0.0 : from[from.size() - 2]))) {
        throw ScalingError(segment.location, fmt::format("SEGMENTs must start above 0 bytes and in increasing order "
                                                         "of FROM, got {}",
                                                         from.back()));
      }
    }
    segment_from_ = std::move(from);
  }
  const auto above = std::upper_bound(segment_from_->begin(), segment_from_->end(), bytes);
  if (above == segment_from_->begin()) return own;
  const models::MessageSegment& segment =
      machine_.segments[static_cast<std::size_t>(above - segment_from_->begin()) - 1];
  return {&segment.communication_time, &segment.message_overhead, segment.port_time ? &*segment.port_time : nullptr,
          segment.protocol};
}

std::int64_t BoundQuantities::ports() const {
  if (!ports_) {
    ports_ = 1;
    if (machine_.ports) {
      // At the statement, not the machine's name: a --set constant may make it invalid.
      const double k = value(*machine_.ports, machine_.ports_location, "ports");
      if (const auto invalid = models::invalid_ports(k)) throw ScalingError(machine_.ports_location, *invalid);
      ports_ = static_cast<std::int64_t>(k);
    }
  }
  return *ports_;
}

double BoundQuantities::port_queue_seconds(double total, double largest, std::int64_t count) const {
  const std::int64_t k = ports();
  if (k == 1) return total;
  const double rounds = static_cast<double>((count + k - 1) / k);
  const double graham = total / static_cast<double>(k) + (1.0 - 1.0 / static_cast<double>(k)) * largest;
  return std::min({total, graham, rounds * largest});
}

BoundQuantities::MessageCost BoundQuantities::collective_message(double bytes, const models::SourceLocation& where,
                                                                 double sharing, Route route) const {
  MessageCost cost = route == Route::Either ? either(one_law_cost(bytes, where, sharing, false, true),
                                                     one_law_cost(bytes, where, sharing, true, true))
                                            : one_law_cost(bytes, where, sharing, route == Route::WithinNode, true);
  cost.protocol = models::Protocol::Eager;  // Q: a collective's rounds are eager
  return cost;
}

BoundQuantities::MessageCost BoundQuantities::one_law_cost(double bytes, const models::SourceLocation& where,
                                                           double sharing, bool inside, bool priced_empty) const {
  MessageCost cost;
  cost.bytes = bytes;
  cost.sharing = sharing;
  const Law of = law(bytes);
  const models::Nodes* node = inside && machine_.nodes ? &*machine_.nodes : nullptr;
  const models::Expr& t =
      node != nullptr && node->communication_time ? *node->communication_time : *of.communication_time;
  const models::Expr& o = node != nullptr && node->message_overhead ? *node->message_overhead : *of.message_overhead;
  if (bytes != 0.0 || priced_empty) {
    cost.transfer = per_message(t, bytes, sharing, "communication time", "communication", where);
    cost.overhead = per_message(o, bytes, sharing, "message overhead", "message overhead", where);
    // A message inside a node goes through memory, not the node's ports.
    cost.port = inside && machine_.nodes ? 0.0 : port_time(bytes, where);
  }
  if (bytes != 0.0 && rendezvous(bytes)) cost.protocol = models::Protocol::Rendezvous;
  return cost;
}

double BoundQuantities::barrier_seconds(const models::SourceLocation& where) const {
  return overhead(value(machine_.barrier_time, machine_.location, "barrier time"), "barrier", where);
}

double BoundQuantities::contention_seconds(double work, const models::SourceLocation& where) const {
  if (!machine_.contention) return 0.0;
  models::Environment with_work = environment_;
  with_work.values["T"] = work;
  return overhead(value(*machine_.contention, machine_.location, with_work, "contention"), "contention", where);
}

}  // namespace scaling::detail
