#include "models/expr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace models {

Expr Expr::constant(double value) {
  Expr e;
  e.kind = Kind::Number;
  e.number = value;
  return e;
}

Expr Expr::identifier(std::string name) {
  Expr e;
  e.kind = Kind::Identifier;
  e.name = std::move(name);
  return e;
}

Expr Expr::size_of(std::string type) {
  Expr e;
  e.kind = Kind::SizeOf;
  e.name = std::move(type);
  return e;
}

Expr Expr::negate(Expr operand) {
  Expr e;
  e.kind = Kind::Negate;
  e.operands.push_back(std::move(operand));
  return e;
}

Expr Expr::call(std::string function, std::vector<Expr> arguments) {
  Expr e;
  e.kind = Kind::Call;
  e.name = std::move(function);
  e.operands = std::move(arguments);
  return e;
}

namespace {

Expr chain(Expr::Kind kind, char first_op, Expr left, char op, Expr right) {
  if (left.kind == kind) {
    left.operands.push_back(std::move(right));
    left.ops.push_back(op);
    return left;
  }
  Expr e;
  e.kind = kind;
  e.operands.push_back(std::move(left));
  e.operands.push_back(std::move(right));
  e.ops = {first_op, op};
  return e;
}

}  // namespace

Expr Expr::add(Expr left, Expr right) { return chain(Kind::Sum, '+', std::move(left), '+', std::move(right)); }
Expr Expr::subtract(Expr left, Expr right) { return chain(Kind::Sum, '+', std::move(left), '-', std::move(right)); }
Expr Expr::multiply(Expr left, Expr right) { return chain(Kind::Product, '*', std::move(left), '*', std::move(right)); }
Expr Expr::divide(Expr left, Expr right) { return chain(Kind::Product, '*', std::move(left), '/', std::move(right)); }

Expr Expr::power(Expr base, Expr exponent) {
  Expr e;
  e.kind = Kind::Power;
  e.operands.push_back(std::move(base));
  e.operands.push_back(std::move(exponent));
  e.ops = "^^";
  return e;
}

bool is_constant(const Expr& expr) {
  if (expr.kind == Expr::Kind::Identifier || expr.kind == Expr::Kind::SizeOf) return false;
  return std::all_of(expr.operands.begin(), expr.operands.end(),
                     [](const Expr& operand) { return is_constant(operand); });
}

namespace {

void collect_identifiers(const Expr& expr, std::vector<std::string>& out) {
  if (expr.kind == Expr::Kind::Identifier && std::find(out.begin(), out.end(), expr.name) == out.end()) {
    out.push_back(expr.name);
  }
  for (const Expr& operand : expr.operands) collect_identifiers(operand, out);
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "1e999" : "-1e999";
  // Shortest text that reads back to the same double.
  return fmt::format("{}", value);
}

// Binding strength, to print parentheses only where the tree needs them.
int precedence(const Expr& expr) {
  switch (expr.kind) {
    case Expr::Kind::Sum: return 1;
    case Expr::Kind::Product: return 2;
    case Expr::Kind::Negate: return 3;
    case Expr::Kind::Power: return 4;
    case Expr::Kind::Number: return expr.number < 0 ? 3 : 5;
    default: return 5;
  }
}

void print(const Expr& expr, std::string& out);

void print_operand(const Expr& operand, int min_precedence, std::string& out) {
  if (precedence(operand) < min_precedence) {
    out += '(';
    print(operand, out);
    out += ')';
  } else {
    print(operand, out);
  }
}

void print(const Expr& expr, std::string& out) {
  switch (expr.kind) {
    case Expr::Kind::Number: out += format_number(expr.number); return;
    case Expr::Kind::Identifier: out += expr.name; return;
    case Expr::Kind::SizeOf: out += "SIZEOF(" + expr.name + ")"; return;
    case Expr::Kind::Negate:
      out += '-';
      // "-(a*b)" keeps the tree; "-a^2" already means -(a^2).
      print_operand(expr.operands.at(0), 4, out);
      return;
    case Expr::Kind::Sum:
      for (std::size_t i = 0; i < expr.operands.size(); ++i) {
        if (i > 0) out += expr.ops.at(i) == '-' ? " - " : " + ";
        // a - (b + c) needs the parentheses; a + b + c does not.
        print_operand(expr.operands[i], i == 0 ? 1 : 2, out);
      }
      return;
    case Expr::Kind::Product:
      for (std::size_t i = 0; i < expr.operands.size(); ++i) {
        if (i > 0) out += expr.ops.at(i);
        print_operand(expr.operands[i], i == 0 ? 2 : 3, out);
      }
      return;
    case Expr::Kind::Power:
      for (std::size_t i = 0; i < expr.operands.size(); ++i) {
        if (i > 0) out += '^';
        // The base of a power must be a primary; exponents may carry a sign.
        print_operand(expr.operands[i], i + 1 == expr.operands.size() ? 4 : 5, out);
      }
      return;
    case Expr::Kind::Call:
      out += expr.name;
      out += '(';
      for (std::size_t i = 0; i < expr.operands.size(); ++i) {
        if (i > 0) out += ", ";
        print(expr.operands[i], out);
      }
      out += ')';
      return;
  }
}

constexpr std::array<FunctionInfo, 9> kFunctions{{
    {"log2", 1, 1},
    {"log", 1, 1},
    {"exp", 1, 1},
    {"sqrt", 1, 1},
    {"ceil", 1, 1},
    {"floor", 1, 1},
    {"abs", 1, 1},
    {"min", 2, -1},
    {"max", 2, -1},
}};

}  // namespace

std::vector<std::string> identifiers(const Expr& expr) {
  std::vector<std::string> out;
  collect_identifiers(expr, out);
  return out;
}

std::string to_string(const Expr& expr) {
  std::string out;
  print(expr, out);
  return out;
}

const FunctionInfo* find_function(std::string_view lower_case_name) {
  for (const FunctionInfo& f : kFunctions) {
    if (lower_case_name == f.name) return &f;
  }
  return nullptr;
}

std::string function_names() {
  std::string out;
  for (const FunctionInfo& f : kFunctions) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

}  // namespace models
