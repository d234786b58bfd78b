#include "models/environment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace models {

namespace {

Evaluation failure(std::string message, std::string unbound = {}) {
  Evaluation result;
  result.error = std::move(message);
  result.unbound = std::move(unbound);
  return result;
}

Evaluation success(double value) {
  if (!std::isfinite(value)) return failure("the value is not finite (overflow)");
  Evaluation result;
  result.value = value;
  return result;
}

Evaluation call_function(const std::string& function, const std::vector<double>& args) {
  const double x = args.empty() ? 0.0 : args[0];
  if (function == "log2" || function == "log") {
    if (x <= 0) return failure(fmt::format("{}({}) is undefined: the argument must be positive", function, x));
    return success(function == "log2" ? std::log2(x) : std::log(x));
  }
  if (function == "sqrt") {
    if (x < 0) return failure(fmt::format("sqrt({}) is undefined: the argument is negative", x));
    return success(std::sqrt(x));
  }
  if (function == "exp") return success(std::exp(x));
  if (function == "ceil") return success(std::ceil(x));
  if (function == "floor") return success(std::floor(x));
  if (function == "abs") return success(std::fabs(x));
  if (function == "min") return success(*std::min_element(args.begin(), args.end()));
  if (function == "max") return success(*std::max_element(args.begin(), args.end()));
  return failure(fmt::format("unknown function '{}'", function));
}

// A sum or a product: the operands joined left to right by their operators.
Evaluation evaluate_chain(const Expr& expr, const Environment& environment) {
  double total = expr.kind == Expr::Kind::Sum ? 0.0 : 1.0;
  for (std::size_t i = 0; i < expr.operands.size(); ++i) {
    const Evaluation operand = evaluate(expr.operands[i], environment);
    if (!operand.ok()) return operand;
    const char op = i < expr.ops.size() ? expr.ops[i] : '+';
    switch (op) {
      case '-': total -= operand.value; break;
      case '*': total *= operand.value; break;
      case '/':
        if (operand.value == 0.0) return failure("division by zero");
        total /= operand.value;
        break;
      default: total += operand.value; break;
    }
    if (!std::isfinite(total)) return failure("the value is not finite (overflow)");
  }
  return success(total);
}

Evaluation evaluate_power(const Expr& expr, const Environment& environment) {
  if (expr.operands.empty()) return failure("empty power");
  Evaluation result = evaluate(expr.operands.back(), environment);
  if (!result.ok()) return result;
  // Right associative: fold from the last exponent towards the base.
  for (std::size_t i = expr.operands.size() - 1; i-- > 0;) {
    const Evaluation base = evaluate(expr.operands[i], environment);
    if (!base.ok()) return base;
    const double value = std::pow(base.value, result.value);
    if (std::isnan(value)) {
      return failure(fmt::format("{}^{} is undefined", base.value, result.value));
    }
    result = success(value);
    if (!result.ok()) return result;
  }
  return result;
}

Evaluation evaluate_call(const Expr& expr, const Environment& environment) {
  std::vector<double> args;
  args.reserve(expr.operands.size());
  for (const Expr& operand : expr.operands) {
    const Evaluation arg = evaluate(operand, environment);
    if (!arg.ok()) return arg;
    args.push_back(arg.value);
  }
  const FunctionInfo* info = find_function(expr.name);
  if (info == nullptr) return failure(fmt::format("unknown function '{}'", expr.name));
  if (static_cast<int>(args.size()) < info->min_arguments ||
      (info->max_arguments >= 0 && static_cast<int>(args.size()) > info->max_arguments)) {
    return failure(fmt::format("wrong number of arguments to {}", expr.name));
  }
  return call_function(expr.name, args);
}

}  // namespace

Evaluation evaluate(const Expr& expr, const Environment& environment) {
  switch (expr.kind) {
    case Expr::Kind::Number: return success(expr.number);
    case Expr::Kind::Identifier: {
      const auto it = environment.values.find(expr.name);
      if (it == environment.values.end()) {
        return failure(fmt::format("unbound variable '{}'", expr.name), expr.name);
      }
      return success(it->second);
    }
    case Expr::Kind::SizeOf: {
      const auto it = environment.sizes.find(expr.name);
      if (it == environment.sizes.end()) {
        return failure(fmt::format("the machine does not define SIZEOF({})", expr.name), "SIZEOF(" + expr.name + ")");
      }
      return success(it->second);
    }
    case Expr::Kind::Negate: {
      Evaluation operand = evaluate(expr.operands.at(0), environment);
      if (operand.ok()) operand.value = -operand.value;
      return operand;
    }
    case Expr::Kind::Sum:
    case Expr::Kind::Product: return evaluate_chain(expr, environment);
    case Expr::Kind::Power: return evaluate_power(expr, environment);
    case Expr::Kind::Call: return evaluate_call(expr, environment);
  }
  return failure("unknown expression kind");
}

std::optional<PerProcessorError> with_processors(Environment& environment, int p) {
  const double problem = static_cast<double>(environment.problem_processors.value_or(p));
  environment.values["P"] = problem;
  for (const Environment::PerProcessorVariable& variable : environment.per_processor) {
    const Evaluation value = evaluate(variable.value, environment);
    if (!value.ok()) {
      environment.values["P"] = static_cast<double>(p);
      return PerProcessorError{fmt::format("variable '{}' (= {} at P = {:g}): {}", variable.name,
                                           to_string(variable.value), problem, value.error),
                               variable.location};
    }
    environment.values[variable.name] = value.value;
  }
  environment.values["P"] = static_cast<double>(p);
  return std::nullopt;
}

}  // namespace models
