// Internals shared by the program and machine checks: reporting and expression conversion.
#pragma once

#include "models/environment.hpp"
#include "models/expr.hpp"
#include "models/machine.hpp"
#include "pdl/ast.hpp"
#include "pdl/diagnostic.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pdl::detail {

class Reporter {
 public:
  Reporter(const Source& source, std::vector<Diagnostic>& out) : source_(source), out_(out) {}
  void error(const boost::spirit::x3::position_tagged& node, std::string message) {
    out_.push_back(source_.diagnose(Severity::Error, node, std::move(message)));
  }
  void warning(const boost::spirit::x3::position_tagged& node, std::string message) {
    out_.push_back(source_.diagnose(Severity::Warning, node, std::move(message)));
  }
  void note(const boost::spirit::x3::position_tagged& node, std::string message) {
    out_.push_back(source_.diagnose(Severity::Note, node, std::move(message)));
  }
  // A diagnostic about another file (a NUMERICAL data file).
  void add(Diagnostic diagnostic) { out_.push_back(std::move(diagnostic)); }
  void error_at(std::size_t offset, std::string message) {
    out_.push_back(source_.diagnose(Severity::Error, offset, std::move(message)));
  }
  models::SourceLocation location(const boost::spirit::x3::position_tagged& node) const {
    return source_.location(node);
  }
  std::size_t offset(const boost::spirit::x3::position_tagged& node) const { return source_.offset(node); }
  const Source& source() const { return source_; }
  std::size_t errors() const { return count(out_, Severity::Error); }

 private:
  const Source& source_;
  std::vector<Diagnostic>& out_;
};

// The names an expression may mention at one place, and how to describe that place.
struct Scope {
  std::set<std::string> names;
  std::string context;  // e.g. "in BARRIER TIME, which may use P and the machine's constants"
};

// Converts an expression, reporting unbound identifiers (with a suggestion), unknown
// functions or arity, unknown SIZEOF types (when `sizes` is given) and non-finite numbers.
models::Expr convert(const ast::Expression& expression, const Scope& scope, Reporter& reporter,
                     const std::map<std::string, double>* sizes);

// ASCII case mapping: names and keywords are ASCII, and std::tolower would depend on the locale.
std::string lower(std::string text);
std::string upper(std::string text);

// "RTFactor" for any spelling of it, else the name as written.
std::string canonical_name(const std::string& name);

// The value of an expression when it can be computed now (no P, no unbound variable):
// std::nullopt when it is symbolic. Other evaluation errors are reported.
std::optional<double> constant_value(const models::Expr& expr, const models::Environment& environment,
                                     const boost::spirit::x3::position_tagged& node, Reporter& reporter);

// PLACEMENT IS (0, 2), (1, 3); in a NODE of k processors (check_placement.cpp): each rank a
// whole constant, named once, ranks 0 .. N-1 all named, at most k a node; the lists go to
// `nodes.listed`. False (errors reported) when the list is refused.
bool check_placement_list(const ast::PlacementList& list, double k, const Scope& constants,
                          const models::Environment& environment, Reporter& reporter, models::Nodes& nodes);

}  // namespace pdl::detail
