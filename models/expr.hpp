// Symbolic quantities of a model: problem sizes, volumes, counts and distribution parameters
// that depend on variables, on the processor count P or on the machine stay expressions until
// the scaler binds them.
//
// The tree is n-ary (a Sum holds all its terms, a Product all its factors) so that its depth
// is the nesting depth of parentheses and calls in the source, not the length of the
// expression: the front end bounds that depth, so recursive walks cannot overflow the stack.
#pragma once

#include <string>
#include <vector>

namespace models {

struct Expr {
  enum class Kind {
    Number,      // number
    Identifier,  // name: a variable, P, RTFactor, or (in machine files) L, T, a constant
    SizeOf,      // name: the type, upper case; the machine's SIZEOF(type) in bytes
    Negate,      // -operands[0]
    Sum,         // operands[0] ops[1] operands[1] ...; ops[i] is '+' or '-' (ops[0] is '+')
    Product,     // operands[0] ops[1] operands[1] ...; ops[i] is '*' or '/' (ops[0] is '*')
    Power,       // operands[0] ^ operands[1] ^ ... (right associative)
    Call,        // name(operands...): log2, log, exp, sqrt, ceil, floor, abs, min, max
  };

  Kind kind = Kind::Number;
  double number = 0.0;
  std::string name;
  std::vector<Expr> operands;
  std::string ops;

  static Expr constant(double value);
  static Expr identifier(std::string name);
  static Expr size_of(std::string type);
  static Expr negate(Expr operand);
  static Expr call(std::string function, std::vector<Expr> arguments);
  // Binary helpers that build the n-ary nodes (flattening when the left operand is already
  // a node of the same kind).
  static Expr add(Expr left, Expr right);
  static Expr subtract(Expr left, Expr right);
  static Expr multiply(Expr left, Expr right);
  static Expr divide(Expr left, Expr right);
  static Expr power(Expr base, Expr exponent);

  friend bool operator==(const Expr&, const Expr&) = default;
};

// True when the expression mentions no identifier and no SIZEOF.
bool is_constant(const Expr& expr);
// Every identifier the expression mentions, once each, in order of first appearance.
std::vector<std::string> identifiers(const Expr& expr);
// Source-like text that the PDL parser reads back to the same tree, e.g. "ts + tw*L".
std::string to_string(const Expr& expr);

// The functions an expression may call and how many arguments they take.
struct FunctionInfo {
  const char* name;
  int min_arguments;
  int max_arguments;  // -1: no limit
};
// nullptr when the name (lower case) is not a known function.
const FunctionInfo* find_function(std::string_view lower_case_name);
// "log2, log, exp, sqrt, ceil, floor, abs, min, max"
std::string function_names();

}  // namespace models
