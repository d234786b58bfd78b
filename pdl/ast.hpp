// The abstract syntax tree of PDL programs and machine files, as the grammar produces it.
// Nodes that diagnostics point at derive from x3::position_tagged; pdl::Source maps their
// ids to offsets in the text. The tree mirrors the text; meaning is given by pdl::check.
//
// Keywords that name a model concept (a distribution, a scheme, a concatenation...) are held
// as the models:: enum itself, so that the grammar's symbol tables are the only mapping
// between the words and the model.
#pragma once

#include "models/machine.hpp"
#include "models/program.hpp"

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>

#include <boost/optional.hpp>
#include <string>
#include <vector>

namespace pdl::ast {

namespace x3 = boost::spirit::x3;

// Optional parts are boost::optional: X3 (1.74) knows it, and would fill a std::optional even
// when the optional part then fails to match.
//
// Single-member nodes are not fusion-adapted (Boost 1.74 mishandles one-element
// sequences): they are built from their one attribute by a converting constructor.
struct Identifier : x3::position_tagged {
  Identifier(std::string name_ = {}) : name(std::move(name_)) {}
  std::string name;
};

struct StringLit : x3::position_tagged {
  StringLit(std::string value_ = {}) : value(std::move(value_)) {}
  std::string value;
};

struct Number : x3::position_tagged {
  Number(double value_ = 0.0) : value(value_) {}
  double value;
};

struct SizeOf : x3::position_tagged {
  SizeOf(std::string type_ = {}) : type(std::move(type_)) {}
  std::string type;
};

// ---- Expressions: one list per precedence level, so long expressions are flat -----------
struct Sum;
struct Call;

struct Primary : x3::variant<Number, SizeOf, x3::forward_ast<Call>, Identifier, x3::forward_ast<Sum>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Signed {  // a power's exponent: optional signs, then a primary
  std::string signs;
  Primary operand;
};

struct Power {
  Primary base;
  std::vector<Signed> exponents;  // base ^ e1 ^ e2 ... (right associative)
};

struct Unary {
  std::string signs;  // any of '+' and '-'
  Power operand;
};

struct ProductOp {
  char op;  // '*' or '/'
  Unary operand;
};

struct Product {
  Unary first;
  std::vector<ProductOp> rest;
};

struct SumOp {
  char op;  // '+' or '-'
  Product operand;
};

struct Sum : x3::position_tagged {
  Product first;
  std::vector<SumOp> rest;
};

using Expression = Sum;

// An expression that follows a keyword or delimiter inside an optional part of a statement
// (`{count}`, `= default`, `VOLUME v`...). Not fusion-adapted: X3 cannot parse a sequence
// with one attribute into the two-member Sum directly, but it can convert into this.
struct Wrapped {
  Wrapped(Expression value_ = {}) : value(std::move(value_)) {}
  Expression value;
};

struct Call : x3::position_tagged {
  Identifier function;
  std::vector<Expression> args;
};

// ---- Distributions: KIND(arguments), an argument being an expression, a string, a
// distribution (MIXTURE) or a bracketed list (PHASETYPE) -------------------------------------

struct Distribution;
struct ArgList;

struct DistArg : x3::variant<x3::forward_ast<Distribution>, x3::forward_ast<ArgList>, StringLit, Expression> {
  using base_type::base_type;
  using base_type::operator=;
};

struct ArgList : std::vector<DistArg>, x3::position_tagged {
  using std::vector<DistArg>::vector;
};

struct Distribution : x3::position_tagged {
  models::DistKind kind;
  std::vector<DistArg> args;
};

// ---- Execution pattern --------------------------------------------------------------
struct Sync : x3::position_tagged {
  Sync(bool = true) {}
};

// ALLREDUCE(8*n): a collective operation of the given bytes among all processors.
struct CollectiveCall : x3::position_tagged {
  models::CollectiveOperation operation = models::CollectiveOperation::Broadcast;
  Wrapped volume;
};

struct Alternatives;

struct PatternPrimary : x3::variant<Sync, CollectiveCall, Identifier, x3::forward_ast<Alternatives>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct PatternTerm : x3::position_tagged {
  PatternPrimary primary;
  boost::optional<Wrapped> repeat;  // w{count}
};

struct PatternSequence : std::vector<PatternTerm>, x3::position_tagged {
  using std::vector<PatternTerm>::vector;
};

struct Branch : x3::position_tagged {
  boost::optional<Wrapped> probability;  // p: sequence
  PatternSequence sequence;
};

struct Alternatives : std::vector<Branch>, x3::position_tagged {
  using std::vector<Branch>::vector;
};

// ---- Phase clauses ------------------------------------------------------------------
enum class DistRole { SubtaskRuntime, Runtime, Interarrival, JoinRuntime, MasterService };
enum class ExprRole { CommunicationVolume, Jobs, Stages, TasksPerJob, ReleaseVolume, MemoryVolume, DispatchVolume };
enum class SubtaskKind { Independent, Dependent };

struct SchemeClause : x3::position_tagged {
  SchemeClause(models::Scheme scheme_ = models::Scheme::Independent) : scheme(scheme_) {}
  models::Scheme scheme;
};

struct SchedulingClause : x3::position_tagged {
  SchedulingClause(models::Scheduling scheduling_ = models::Scheduling::Block) : scheduling(scheduling_) {}
  models::Scheduling scheduling;
};

struct DecompositionClause : x3::position_tagged {
  DecompositionClause(models::Decomposition decomposition_ = models::Decomposition::OneD)
      : decomposition(decomposition_) {}
  models::Decomposition decomposition;
};

struct DistClause : x3::position_tagged {
  DistRole role;
  Distribution distribution;
};

struct ExprClause : x3::position_tagged {
  ExprRole role;
  Expression value;
};

struct ProblemSizeClause : x3::position_tagged {
  models::Shape shape;
  Identifier name;
  std::vector<Expression> extents;
};

struct DependencyClause : std::vector<Expression>, x3::position_tagged {
  using std::vector<Expression>::vector;
};

struct TaskClause : x3::position_tagged {
  Identifier name;
  Distribution runtime;
  boost::optional<Wrapped> processor;
};

struct ArcClause : x3::position_tagged {
  std::vector<Identifier> chain;  // a -> b -> c
  boost::optional<Wrapped> volume;
};

struct SubtaskBlock;

struct Clause : x3::variant<SchemeClause, SchedulingClause, DistClause, ExprClause, ProblemSizeClause, DependencyClause,
                            TaskClause, ArcClause, DecompositionClause, x3::forward_ast<SubtaskBlock>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct SubtaskBlock : x3::position_tagged {
  SubtaskKind kind;
  std::vector<Clause> clauses;
};

// ---- Top-level statements -------------------------------------------------------------
struct VariableDecl : x3::position_tagged {
  Identifier name;
  boost::optional<Wrapped> value;
  // The upper end of a range, VARIABLE ts = 36.5 .. 57.4; (machine constants only).
  boost::optional<Wrapped> upper;
};

enum class PhaseKind { Work, Sequential };

struct PhaseHead : x3::position_tagged {
  PhaseKind kind;
  Identifier name;
};

struct ConcatEntry : x3::position_tagged {
  Identifier first;
  Identifier second;
  models::Concatenation kind;
};

// Assembled by pdl::parse from the statements it parses one at a time (so that it can
// recover after an error), not by the grammar.
struct Phase {
  PhaseHead head;
  std::vector<Clause> clauses;
};

struct Program {
  StringLit name;
  std::vector<VariableDecl> variables;
  std::vector<Alternatives> patterns;  // exactly one is valid; the checker reports the others
  std::vector<Phase> phases;
  std::vector<ConcatEntry> concatenations;  // from every CONCATENATION block, in order
};

// ---- Machine files --------------------------------------------------------------------
enum class MachineRole {
  RTFactor,
  CommunicationTime,
  MessageOverhead,
  BarrierTime,
  Contention,
  EagerLimit,
  PortTime,
  Ports,
  Processors,      // in a NODE
  Cores,           // in a NODE
  MemoryBandwidth  // in a NODE
};

struct MachineExpr : x3::position_tagged {
  MachineRole role;
  Expression value;
};

struct SizeofDecl : x3::position_tagged {
  Identifier type;
  Expression bytes;
};

struct CommKindDecl : x3::position_tagged {
  CommKindDecl(models::Communication kind_ = models::Communication::MessagePassing) : kind(kind_) {}
  models::Communication kind;
};

// COLLECTIVE ALLREDUCE IS RING;
struct CollectiveDecl : x3::position_tagged {
  models::CollectiveOperation operation = models::CollectiveOperation::Broadcast;
  models::CollectiveAlgorithm algorithm = models::CollectiveAlgorithm::Binomial;
};

// TOPOLOGY IS BUS;
struct TopologyDecl : x3::position_tagged {
  TopologyDecl(models::Topology topology_ = models::Topology::FullyConnected) : topology(topology_) {}
  models::Topology topology;
};

// PORT SHARING IS FAIR;
struct PortSharingDecl : x3::position_tagged {
  PortSharingDecl(models::PortSharing sharing_ = models::PortSharing::FirstComeFirstServed) : sharing(sharing_) {}
  models::PortSharing sharing;
};

// PROTOCOL IS RENDEZVOUS; (in a SEGMENT)
struct ProtocolDecl : x3::position_tagged {
  ProtocolDecl(models::Protocol protocol_ = models::Protocol::Eager) : protocol(protocol_) {}
  models::Protocol protocol;
};

struct SegmentStatement : x3::variant<MachineExpr, ProtocolDecl> {
  using base_type::base_type;
  using base_type::operator=;
};

// SEGMENT FROM 1420 IS: COMMUNICATION TIME IS ...; PROTOCOL IS RENDEZVOUS; END;
struct SegmentDecl : x3::position_tagged {
  Expression from;
  std::vector<SegmentStatement> statements;
};

// PLACEMENT IS CYCLIC; (in a NODE)
struct PlacementDecl : x3::position_tagged {
  PlacementDecl(models::Placement placement_ = models::Placement::Block) : placement(placement_) {}
  models::Placement placement;
};

// PLACEMENT IS (0, 2), (1, 3); (in a NODE): each parenthesis one node's ranks.
struct PlacementGroup : std::vector<Expression>, x3::position_tagged {
  using std::vector<Expression>::vector;
};
struct PlacementList : std::vector<PlacementGroup>, x3::position_tagged {
  using std::vector<PlacementGroup>::vector;
};

struct NodeStatement : x3::variant<MachineExpr, PlacementDecl, PlacementList> {
  using base_type::base_type;
  using base_type::operator=;
};

// NODE IS: PROCESSORS IS 32; CORES IS 32; PLACEMENT IS BLOCK; COMMUNICATION TIME IS ...; END;
struct NodeDecl : x3::position_tagged {
  bool colon = false;  // NODE IS: (the colon is optional)
  std::vector<NodeStatement> statements;
};

struct MachineStatement : x3::variant<MachineExpr, SizeofDecl, CommKindDecl, TopologyDecl, VariableDecl, CollectiveDecl,
                                      PortSharingDecl, SegmentDecl, NodeDecl> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Machine {
  StringLit name;
  std::vector<MachineStatement> statements;
};

}  // namespace pdl::ast
