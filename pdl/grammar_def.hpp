// The PDL grammar (docs/pdl.md has it in EBNF). Included by grammar.cpp only: X3 is costly to
// compile, so the definitions live in exactly one translation unit.
//
// Conventions: keywords are case-insensitive and end at a word boundary; `>` (expectation)
// is used once a statement is identified, so that errors point at the token that is wrong;
// expressions use only `>>` because pattern branches try an expression (a probability) and
// backtrack when none is there.
#pragma once

#include "pdl/ast.hpp"
#include "pdl/ast_adapted.hpp"
#include "pdl/config.hpp"
#include "pdl/error_handler.hpp"
#include "pdl/grammar.hpp"
#include "pdl/grammar_keywords.hpp"

#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/utility/lambda_visitor.hpp>

#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

namespace pdl::parser {

namespace x3 = boost::spirit::x3;

// ---- Rule IDs: statement rules report expectation failures, nodes are tagged -------------
struct Annotate {
  template <typename Iterator, typename Context, typename... Types>
  void on_success(Iterator const& first, Iterator const& last, x3::variant<Types...>& node, Context const& context) {
    node.apply_visitor(
        x3::make_lambda_visitor<void>([&](auto& alternative) { this->on_success(first, last, alternative, context); }));
  }
  // Recursive alternatives are held in forward_ast: tag what it holds.
  template <typename Node, typename Iterator, typename Context>
  void on_success(Iterator const& first, Iterator const& last, x3::forward_ast<Node>& node, Context const& context) {
    x3::get<x3::error_handler_tag>(context).get().tag(node.get(), first, last);
  }
  template <typename Node, typename Iterator, typename Context>
  void on_success(Iterator const& first, Iterator const& last, Node& node, Context const& context) {
    x3::get<x3::error_handler_tag>(context).get().tag(node, first, last);
  }
};

struct Report {
  template <typename Iterator, typename Exception, typename Context>
  x3::error_handler_result on_error(Iterator&, Iterator const& last, Exception const& failure, Context const& context) {
    Iterator where = failure.where();
    x3::skip_over(where, last, context);
    x3::get<x3::error_handler_tag>(context).get().expected(where, failure.which());
    return x3::error_handler_result::fail;
  }
};

struct program_header_class : Annotate, Report {};
struct variable_decl_class : Annotate, Report {};
struct pattern_decl_class : Annotate, Report {};
struct phase_head_class : Annotate, Report {};
struct clause_class : Annotate, Report {};
struct end_statement_class : Report {};
struct concat_head_class : Report {};
struct concat_entry_class : Annotate, Report {};
struct machine_header_class : Annotate, Report {};
struct machine_statement_class : Annotate, Report {};

struct identifier_class;
struct string_class : Annotate {};
struct number_class : Annotate {};
struct sizeof_class : Annotate {};
struct call_class : Annotate {};
struct name_class : Annotate {};
struct phase_name_class : Annotate {};
struct variable_name_class : Annotate {};
struct task_name_class : Annotate {};
struct type_name_class : Annotate {};
struct primary_class;
struct signed_class;
struct power_class;
struct unary_class;
struct product_class;
struct expression_class : Annotate {};
struct dist_kind_class;
struct distribution_class : Annotate {};
struct dist_arg_class;
struct arg_list_class : Annotate {};
struct sync_class : Annotate {};
struct pattern_primary_class;
struct pattern_term_class : Annotate {};
struct pattern_sequence_class : Annotate {};
struct branch_class : Annotate {};
struct alternatives_class : Annotate {};
struct scheme_class;
struct scheduling_class;
struct shape_class;
struct dist_role_class;
struct expr_role_class;
struct subtask_kind_class;
struct scheme_clause_class : Annotate {};
struct scheduling_clause_class : Annotate {};
struct decomposition_class;
struct decomposition_clause_class : Annotate {};
struct dist_clause_class : Annotate {};
struct expr_clause_class : Annotate {};
struct problem_size_clause_class : Annotate {};
struct dependency_clause_class : Annotate {};
struct task_clause_class : Annotate {};
struct arc_clause_class : Annotate {};
struct block_clause_class;
struct subtask_block_class : Annotate {};
struct phase_kind_class;
struct concat_kind_class;
struct machine_role_class;
struct machine_expr_class : Annotate {};
struct sizeof_decl_class : Annotate {};
struct comm_kind_class;
struct comm_kind_decl_class : Annotate {};
struct collective_call_class : Annotate {};
struct collective_operation_class;
struct collective_algorithm_class;
struct collective_decl_class : Annotate {};
struct topology_class;
struct topology_decl_class : Annotate {};
struct port_sharing_class;
struct port_sharing_decl_class : Annotate {};
struct protocol_class;
struct protocol_decl_class : Annotate {};
struct segment_statement_class;
struct segment_decl_class : Annotate {};
struct placement_class;
struct placement_decl_class : Annotate {};
struct placement_group_class : Annotate {};
struct placement_list_class : Annotate {};
struct node_statement_class;
struct node_decl_class : Annotate {};

// ---- Symbol tables (lower case; matched case-insensitively, whole words only) -----------
struct DistKinds : x3::symbols<models::DistKind> {
  DistKinds() {
    add("deterministic", models::DistKind::Deterministic)("exponential", models::DistKind::Exponential)(
        "erlang", models::DistKind::Erlang)("gerlang", models::DistKind::GeneralErlang)(
        "hypoexponential", models::DistKind::GeneralErlang)("hyperexponential", models::DistKind::HyperExponential)(
        "uniform", models::DistKind::Uniform)("normal", models::DistKind::Normal)(
        "lognormal", models::DistKind::LogNormal)("weibull", models::DistKind::Weibull)(
        "pareto", models::DistKind::Pareto)("phasetype", models::DistKind::PhaseType)(
        "mixture", models::DistKind::Mixture)("samples", models::DistKind::Samples)(
        "histogram", models::DistKind::Histogram)("numerical", models::DistKind::Numerical);
  }
};

struct Schemes : x3::symbols<models::Scheme> {
  Schemes() {
    add("independent", models::Scheme::Independent)("neighbor", models::Scheme::Neighbor)(
        "neighbor-torus", models::Scheme::NeighborTorus)("macropipeline", models::Scheme::Macropipeline)(
        "fork-join", models::Scheme::ForkJoin)("paired", models::Scheme::Paired)("arbitrary",
                                                                                 models::Scheme::Arbitrary);
  }
};

struct Schedulings : x3::symbols<models::Scheduling> {
  Schedulings() {
    add("block", models::Scheduling::Block)("cyclic", models::Scheduling::Cyclic)("dynamic",
                                                                                  models::Scheduling::Dynamic);
  }
};

struct Shapes : x3::symbols<models::Shape> {
  Shapes() { add("vector", models::Shape::Vector)("grid", models::Shape::Grid); }
};

// "1d" and "2d" begin with a digit: whole_word still ends them at a word boundary.
struct Decompositions : x3::symbols<models::Decomposition> {
  Decompositions() { add("1d", models::Decomposition::OneD)("2d", models::Decomposition::TwoD); }
};

struct ConcatKinds : x3::symbols<models::Concatenation> {
  ConcatKinds() {
    add("neighbor", models::Concatenation::Neighbor)("neighbor-torus", models::Concatenation::NeighborTorus)(
        "torus", models::Concatenation::Torus)("serial", models::Concatenation::Serial)("barrier",
                                                                                        models::Concatenation::Barrier);
  }
};

// The collectives a pattern may call; the barrier is SYNC.
struct PatternCollectives : x3::symbols<models::CollectiveOperation> {
  PatternCollectives() {
    add("broadcast", models::CollectiveOperation::Broadcast)("reduce", models::CollectiveOperation::Reduce)(
        "allreduce", models::CollectiveOperation::Allreduce)("gather", models::CollectiveOperation::Gather)(
        "scatter", models::CollectiveOperation::Scatter)("alltoall", models::CollectiveOperation::Alltoall);
  }
};

// The collectives a machine file chooses an algorithm for.
struct MachineCollectives : PatternCollectives {
  MachineCollectives() { add("barrier", models::CollectiveOperation::Barrier); }
};

// Numbers: no sign (unary minus is an operator) and no "inf"/"nan" words.
struct NumberPolicies : x3::ureal_policies<double> {
  template <typename Iterator, typename Attribute>
  static bool parse_nan(Iterator&, Iterator const&, Attribute&) {
    return false;
  }
  template <typename Iterator, typename Attribute>
  static bool parse_inf(Iterator&, Iterator const&, Attribute&) {
    return false;
  }
};

// A number as NumberPolicies accepts it, its value read again by std::from_chars: correctly
// rounded, so that a constant written with its 17 digits (--write-fit) reads back to the same
// double (X3's real parser is off by an ulp on about one constant in five). A value from_chars
// cannot represent (an underflow to 0) keeps the real parser's.
struct CorrectlyRoundedNumber : x3::parser<CorrectlyRoundedNumber> {
  using attribute_type = double;
  static bool const has_attribute = true;

  template <typename Context, typename RContext, typename Attribute>
  bool parse(iterator_type& first, iterator_type const& last, Context const& context, RContext const& rcontext,
             Attribute& attribute) const {
    x3::skip_over(first, last, context);
    const iterator_type start = first;
    double value = 0.0;
    if (!x3::real_parser<double, NumberPolicies>{}.parse(first, last, context, rcontext, value)) return false;
    double exact = 0.0;
    const auto [end, error] = std::from_chars(start, first, exact, std::chars_format::general);
    if (error == std::errc{} && end == first) value = exact;
    x3::traits::move_to(value, attribute);
    return true;
  }
};

// ---- Rules ------------------------------------------------------------------------------
// Every rule is named: the name is what an error message says was expected.
x3::rule<identifier_class, std::string> const identifier = "identifier";
x3::rule<string_class, ast::StringLit> const string_literal = "string";
x3::rule<number_class, ast::Number> const number = "number";
x3::rule<sizeof_class, ast::SizeOf> const sizeof_expr = "SIZEOF(type)";
x3::rule<call_class, ast::Call> const call = "function call";
x3::rule<name_class, ast::Identifier> const name = "name";
x3::rule<phase_name_class, ast::Identifier> const phase_name = "phase name";
x3::rule<variable_name_class, ast::Identifier> const variable_name = "variable name";
x3::rule<task_name_class, ast::Identifier> const task_name = "task name";
x3::rule<type_name_class, ast::Identifier> const type_name = "type name";
x3::rule<primary_class, ast::Primary> const primary = "operand";
x3::rule<signed_class, ast::Signed> const exponent = "exponent";
x3::rule<struct string_chars_class, std::string> const string_chars = "string";
x3::rule<struct wrapped_class, ast::Wrapped> const wrapped = "expression";
x3::rule<struct probability_class, ast::Wrapped> const probability = "probability";
// Lists are rules of their own so that they stay one attribute inside a statement.
x3::rule<struct expression_list_class, std::vector<ast::Expression>> const expression_list = "expression";
x3::rule<struct dist_args_class, std::vector<ast::DistArg>> const dist_args = "distribution parameter";
x3::rule<struct task_chain_class, std::vector<ast::Identifier>> const task_chain = "task name";
x3::rule<power_class, ast::Power> const power = "operand";
x3::rule<unary_class, ast::Unary> const unary = "operand";
x3::rule<product_class, ast::Product> const product = "expression";
x3::rule<struct sum_op_char_class, char> const sum_op_char = "operator";
x3::rule<struct sum_op_class, ast::SumOp> const sum_op = "operator";
x3::rule<struct product_op_class, ast::ProductOp> const product_op = "operator";
x3::rule<expression_class, ast::Expression> const expression = "expression";
x3::rule<dist_kind_class, models::DistKind> const dist_kind = "distribution";
x3::rule<distribution_class, ast::Distribution> const distribution = "distribution";
x3::rule<dist_arg_class, ast::DistArg> const dist_arg = "distribution parameter";
x3::rule<arg_list_class, ast::ArgList> const arg_list = "list";
x3::rule<sync_class, ast::Sync> const sync = "SYNC";
x3::rule<pattern_primary_class, ast::PatternPrimary> const pattern_primary = "phase name";
x3::rule<pattern_term_class, ast::PatternTerm> const pattern_term = "pattern";
x3::rule<pattern_sequence_class, ast::PatternSequence> const pattern_sequence = "pattern";
x3::rule<branch_class, ast::Branch> const branch = "pattern";
x3::rule<alternatives_class, ast::Alternatives> const alternatives = "execution pattern";
x3::rule<scheme_class, models::Scheme> const scheme = "parallelization scheme";
x3::rule<scheduling_class, models::Scheduling> const scheduling = "scheduling";
x3::rule<shape_class, models::Shape> const shape = "problem shape";
x3::rule<dist_role_class, ast::DistRole> const dist_role = "runtime";
x3::rule<expr_role_class, ast::ExprRole> const expr_role = "clause";
x3::rule<subtask_kind_class, ast::SubtaskKind> const subtask_kind = "subtask";
x3::rule<scheme_clause_class, ast::SchemeClause> const scheme_clause = "PARALLELIZATION SCHEME";
x3::rule<scheduling_clause_class, ast::SchedulingClause> const scheduling_clause = "SCHEDULING";
x3::rule<decomposition_class, models::Decomposition> const decomposition = "decomposition";
x3::rule<decomposition_clause_class, ast::DecompositionClause> const decomposition_clause = "DECOMPOSITION";
x3::rule<dist_clause_class, ast::DistClause> const dist_clause = "runtime clause";
x3::rule<expr_clause_class, ast::ExprClause> const expr_clause = "clause";
x3::rule<problem_size_clause_class, ast::ProblemSizeClause> const problem_size_clause = "PROBLEM SIZE";
x3::rule<dependency_clause_class, ast::DependencyClause> const dependency_clause = "DEPENDENCY";
x3::rule<task_clause_class, ast::TaskClause> const task_clause = "TASK";
x3::rule<arc_clause_class, ast::ArcClause> const arc_clause = "ARC";
x3::rule<block_clause_class, ast::Clause> const block_clause = "clause";
x3::rule<subtask_block_class, ast::SubtaskBlock> const subtask_block = "subtask block";
x3::rule<phase_kind_class, ast::PhaseKind> const phase_kind = "phase";
x3::rule<concat_kind_class, models::Concatenation> const concat_kind = "concatenation kind";
x3::rule<machine_role_class, ast::MachineRole> const machine_role = "machine statement";
x3::rule<machine_expr_class, ast::MachineExpr> const machine_expr = "machine statement";
x3::rule<sizeof_decl_class, ast::SizeofDecl> const sizeof_decl = "SIZEOF";
x3::rule<comm_kind_class, models::Communication> const comm_kind = "communication kind";
x3::rule<comm_kind_decl_class, ast::CommKindDecl> const comm_kind_decl = "COMMUNICATION";
x3::rule<collective_call_class, ast::CollectiveCall> const collective_call = "collective";
x3::rule<collective_operation_class, models::CollectiveOperation> const collective_operation =
    "collective operation (BROADCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLTOALL or BARRIER)";
x3::rule<collective_algorithm_class, models::CollectiveAlgorithm> const collective_algorithm =
    "collective algorithm (BINOMIAL, LINEAR, RECURSIVE DOUBLING, RING, REDUCE BROADCAST, PAIRWISE, DISSEMINATION "
    "or FORMULA)";
x3::rule<collective_decl_class, ast::CollectiveDecl> const collective_decl = "COLLECTIVE";
x3::rule<topology_class, models::Topology> const topology = "topology";
x3::rule<topology_decl_class, ast::TopologyDecl> const topology_decl = "TOPOLOGY";
x3::rule<port_sharing_class, models::PortSharing> const port_sharing = "port sharing (FAIR or FIRST COME FIRST SERVED)";
x3::rule<port_sharing_decl_class, ast::PortSharingDecl> const port_sharing_decl = "PORT SHARING";
x3::rule<protocol_class, models::Protocol> const protocol = "protocol (EAGER or RENDEZVOUS)";
x3::rule<protocol_decl_class, ast::ProtocolDecl> const protocol_decl = "PROTOCOL";
x3::rule<segment_statement_class, ast::SegmentStatement> const segment_statement =
    "segment statement (COMMUNICATION TIME, MESSAGE OVERHEAD, PORT TIME, PROTOCOL or END)";
x3::rule<segment_decl_class, ast::SegmentDecl> const segment_decl = "SEGMENT";
x3::rule<placement_class, models::Placement> const placement = "placement (BLOCK or CYCLIC)";
x3::rule<placement_decl_class, ast::PlacementDecl> const placement_decl = "PLACEMENT";
x3::rule<placement_group_class, ast::PlacementGroup> const placement_group = "a node's ranks, as (0, 1, ...)";
x3::rule<placement_list_class, ast::PlacementList> const placement_list = "PLACEMENT";
x3::rule<node_statement_class, ast::NodeStatement> const node_statement =
    "node statement (PROCESSORS, CORES, PLACEMENT, COMMUNICATION TIME, MESSAGE OVERHEAD or END)";
x3::rule<node_decl_class, ast::NodeDecl> const node_decl = "NODE";

program_header_type const program_header_rule = "PROGRAM NAME IS";
variable_decl_type const variable_decl_rule = "VARIABLE";
pattern_decl_type const pattern_decl_rule = "EXECUTION PATTERN";
phase_head_type const phase_head_rule = "phase header";
clause_type const clause_rule = "clause";
end_statement_type const end_statement_rule = "END";
concat_head_type const concat_head_rule = "CONCATENATION IS";
concat_entry_type const concat_entry_rule = "concatenation entry";
machine_header_type const machine_header_rule = "MACHINE NAME IS";
machine_statement_type const machine_statement_rule = "machine statement";

// Words that cannot name anything: they end a list of clauses or mark a barrier.
auto const reserved = kw_end | kw_is | kw_sync | kw_sizeof;
auto const word_start = x3::char_("a-zA-Z_");
auto const word_char = x3::char_("a-zA-Z0-9_");
auto const arrow = x3::lit("->");

// Symbol tables matched as whole words, case-insensitively.
template <typename Symbols>
auto whole_word(Symbols const& symbols) {
  return x3::lexeme[x3::no_case[symbols] >> !word_char];
}

DistKinds const dist_kinds;
Schemes const schemes;
Schedulings const schedulings;
Shapes const shapes;
Decompositions const decompositions;
ConcatKinds const concat_kinds;
PatternCollectives const pattern_collectives;
MachineCollectives const machine_collectives;

auto const identifier_def = x3::raw[x3::lexeme[!reserved >> word_start >> *word_char]];
auto const string_chars_def =
    x3::lexeme['\'' >> *((x3::lit("''") >> x3::attr('\'')) | (x3::char_ - '\'' - '\n')) >> '\''];
auto const string_literal_def = string_chars;
auto const wrapped_def = expression;
auto const expression_list_def = expression >> *(',' > expression);
auto const dist_args_def = dist_arg >> *(',' > dist_arg);
auto const task_chain_def = task_name >> *(arrow > task_name);
auto const number_def = CorrectlyRoundedNumber{};
auto const name_def = identifier;
auto const phase_name_def = identifier;
auto const variable_name_def = identifier;
auto const task_name_def = identifier;
auto const type_name_def = identifier;

auto const sizeof_expr_def = kw_sizeof >> '(' >> identifier >> ')';
auto const call_def = name >> '(' >> -(expression % ',') >> ')';
auto const primary_def = number | sizeof_expr | call | name | ('(' >> expression >> ')');
auto const exponent_def = '^' >> *x3::char_("+-") >> primary;
auto const power_def = primary >> *exponent;
auto const unary_def = *x3::char_("+-") >> power;
auto const product_op_def = x3::char_("*/") >> unary;
auto const product_def = unary >> *product_op;
// "->" is the pattern's arrow, never a minus.
auto const sum_op_char_def = x3::char_('+') | (x3::char_('-') >> !x3::lit('>'));
auto const sum_op_def = sum_op_char >> product;
auto const expression_def = product >> *sum_op;

auto const dist_kind_def = whole_word(dist_kinds);
auto const distribution_def = dist_kind > '(' > -dist_args > ')';
auto const dist_arg_def = distribution | arg_list | string_literal | expression;
auto const arg_list_def = '[' > -dist_args > ']';

auto const sync_def = kw_sync >> x3::attr(true);
// A phase may be named like a collective: only the parenthesis makes a call.
auto const collective_call_def = whole_word(pattern_collectives) >> '(' > wrapped > ')';
auto const pattern_primary_def = collective_call | sync | phase_name | ('(' > alternatives > ')');
auto const pattern_term_def = pattern_primary >> -('{' > wrapped > '}');
auto const pattern_sequence_def = pattern_term >> *(arrow > pattern_term);
auto const probability_def = wrapped >> ':';
auto const branch_def = -probability >> pattern_sequence;
auto const alternatives_def = branch % '|';

auto const scheme_def = whole_word(schemes);
auto const scheduling_def = -kw_static >> whole_word(schedulings);
auto const shape_def = whole_word(shapes);
auto const dist_role_def = (kw_subtask >> kw_runtime >> x3::attr(ast::DistRole::SubtaskRuntime)) |
                           (kw_runtime >> x3::attr(ast::DistRole::Runtime)) |
                           ((kw_interarrival > kw_time) >> x3::attr(ast::DistRole::Interarrival)) |
                           ((kw_join > kw_runtime) >> x3::attr(ast::DistRole::JoinRuntime)) |
                           ((kw_master > kw_service) >> x3::attr(ast::DistRole::MasterService));
auto const expr_role_def = (kw_communication >> kw_volume >> x3::attr(ast::ExprRole::CommunicationVolume)) |
                           (kw_jobs >> x3::attr(ast::ExprRole::Jobs)) | (kw_stages >> x3::attr(ast::ExprRole::Stages)) |
                           (kw_tasks >> kw_per > kw_job >> x3::attr(ast::ExprRole::TasksPerJob)) |
                           ((kw_release > kw_volume) >> x3::attr(ast::ExprRole::ReleaseVolume)) |
                           ((kw_subtask >> kw_memory > kw_volume) >> x3::attr(ast::ExprRole::MemoryVolume)) |
                           ((kw_dispatch > kw_volume) >> x3::attr(ast::ExprRole::DispatchVolume));
auto const subtask_kind_def = (kw_independent >> x3::attr(ast::SubtaskKind::Independent)) |
                              (kw_dependent >> x3::attr(ast::SubtaskKind::Dependent));

auto const scheme_clause_def = kw_parallelization > kw_scheme > kw_is > scheme > ';';
auto const scheduling_clause_def = kw_scheduling > kw_is > scheduling > ';';
auto const decomposition_def = whole_word(decompositions);
auto const decomposition_clause_def = kw_decomposition > kw_is > decomposition > ';';
auto const dist_clause_def = dist_role > kw_is > distribution > ';';
auto const expr_clause_def = expr_role > kw_is > expression > ';';
auto const problem_size_clause_def = kw_problem > kw_size > kw_is > shape > name > '(' > expression_list > ')' > ';';
auto const dependency_clause_def = (kw_dependency | kw_dependencies) > kw_is > expression_list > ';';
auto const task_clause_def = kw_task > task_name > kw_runtime > kw_is > distribution >
                             -(kw_on > kw_processor > wrapped) > ';';
auto const arc_clause_def = kw_arc > task_chain > -(kw_volume > wrapped) > ';';
// Clauses inside a subtask block: no nested blocks, so nesting depth stays bounded.
auto const block_clause_def = scheme_clause | scheduling_clause | dist_clause | expr_clause | problem_size_clause |
                              dependency_clause | task_clause | arc_clause | decomposition_clause;
auto const subtask_block_def = subtask_kind >> kw_subtask > kw_is > -x3::lit(':') > *block_clause > kw_end > ';';
auto const clause_rule_def = scheme_clause | scheduling_clause | dist_clause | expr_clause | problem_size_clause |
                             dependency_clause | task_clause | arc_clause | decomposition_clause | subtask_block;

auto const program_header_rule_def = kw_program > kw_name > kw_is > string_literal > ';';
auto const variable_decl_rule_def = kw_variable > variable_name > -('=' > wrapped) > -(x3::lit("..") > wrapped) > ';';
auto const pattern_decl_rule_def = kw_execution > kw_pattern > kw_is > alternatives > ';';
auto const phase_kind_def =
    (kw_work >> x3::attr(ast::PhaseKind::Work)) | (kw_sequential >> x3::attr(ast::PhaseKind::Sequential));
auto const phase_head_rule_def = phase_kind > kw_phase > phase_name > kw_is > -x3::lit(':');
auto const end_statement_rule_def = kw_end > ';';
auto const concat_head_rule_def = kw_concatenation > kw_is > -x3::lit(':');
auto const concat_kind_def = whole_word(concat_kinds);
auto const concat_entry_rule_def = phase_name > ',' > phase_name > ':' > concat_kind > ';';

auto const machine_header_rule_def = kw_machine > kw_name > kw_is > string_literal > ';';
auto const machine_role_def =
    (kw_rtfactor >> x3::attr(ast::MachineRole::RTFactor)) |
    (kw_communication >> kw_time >> x3::attr(ast::MachineRole::CommunicationTime)) |
    (kw_message >> kw_overhead >> x3::attr(ast::MachineRole::MessageOverhead)) |
    ((kw_barrier > kw_time) >> x3::attr(ast::MachineRole::BarrierTime)) |
    (kw_contention >> x3::attr(ast::MachineRole::Contention)) |
    ((kw_eager > kw_limit) >> x3::attr(ast::MachineRole::EagerLimit)) |
    ((kw_port > kw_time) >> x3::attr(ast::MachineRole::PortTime)) | (kw_ports >> x3::attr(ast::MachineRole::Ports)) |
    (kw_processors >> x3::attr(ast::MachineRole::Processors)) | (kw_cores >> x3::attr(ast::MachineRole::Cores)) |
    ((kw_memory >> kw_bandwidth) >> x3::attr(ast::MachineRole::MemoryBandwidth));
auto const machine_expr_def = machine_role > kw_is > expression > ';';
auto const sizeof_decl_def = kw_sizeof > (('(' > type_name > ')') | type_name) > kw_is > expression > ';';
auto const comm_kind_def = (kw_message > kw_passing >> x3::attr(models::Communication::MessagePassing)) |
                           (kw_shared > kw_memory >> x3::attr(models::Communication::SharedMemory));
auto const comm_kind_decl_def = kw_communication >> kw_is > comm_kind > ';';
auto const collective_operation_def = whole_word(machine_collectives);
auto const collective_algorithm_def =
    (kw_binomial >> x3::attr(models::CollectiveAlgorithm::Binomial)) |
    (kw_linear >> x3::attr(models::CollectiveAlgorithm::Linear)) |
    (kw_recursive > kw_doubling >> x3::attr(models::CollectiveAlgorithm::RecursiveDoubling)) |
    (kw_ring >> x3::attr(models::CollectiveAlgorithm::Ring)) |
    (kw_reduce > kw_broadcast >> x3::attr(models::CollectiveAlgorithm::ReduceBroadcast)) |
    (kw_pairwise >> x3::attr(models::CollectiveAlgorithm::Pairwise)) |
    (kw_dissemination >> x3::attr(models::CollectiveAlgorithm::Dissemination)) |
    (kw_formula >> x3::attr(models::CollectiveAlgorithm::Formula));
auto const collective_decl_def = kw_collective > collective_operation > kw_is > collective_algorithm > ';';
auto const topology_def = (kw_fully >> kw_connected >> x3::attr(models::Topology::FullyConnected)) |
                          (kw_crossbar >> x3::attr(models::Topology::FullyConnected)) |
                          (kw_bus >> x3::attr(models::Topology::Bus)) | (kw_ring >> x3::attr(models::Topology::Ring)) |
                          (kw_mesh >> kw_2d >> x3::attr(models::Topology::Mesh2D)) |
                          (kw_mesh >> kw_3d >> x3::attr(models::Topology::Mesh3D)) |
                          (kw_torus >> kw_2d >> x3::attr(models::Topology::Torus2D)) |
                          (kw_torus >> kw_3d >> x3::attr(models::Topology::Torus3D)) |
                          (kw_hypercube >> x3::attr(models::Topology::Hypercube)) |
                          (kw_fat >> kw_tree >> x3::attr(models::Topology::FatTree));
auto const topology_decl_def = kw_topology > kw_is > topology > ';';
auto const port_sharing_def =
    (kw_fair >> x3::attr(models::PortSharing::Fair)) |
    ((kw_first > kw_come > kw_first > kw_served) >> x3::attr(models::PortSharing::FirstComeFirstServed));
// PORT SHARING is tried before PORT TIME (machine_expr), whose PORT expects TIME.
auto const port_sharing_decl_def = kw_port >> kw_sharing > kw_is > port_sharing > ';';
auto const protocol_def =
    (kw_eager >> x3::attr(models::Protocol::Eager)) | (kw_rendezvous >> x3::attr(models::Protocol::Rendezvous));
auto const protocol_decl_def = kw_protocol > kw_is > protocol > ';';
auto const segment_statement_def = protocol_decl | machine_expr;
auto const segment_decl_def = kw_segment > kw_from > expression > kw_is > -x3::lit(':') >
                              *(!kw_end >> segment_statement) > kw_end > ';';
auto const placement_def =
    (kw_block >> x3::attr(models::Placement::Block)) | (kw_cyclic >> x3::attr(models::Placement::Cyclic));
auto const placement_decl_def = kw_placement > kw_is > placement > ';';
auto const placement_group_def = '(' > expression_list > ')';
// PLACEMENT IS followed by a parenthesis lists the nodes; by a word, names the placement.
auto const placement_list_def = (kw_placement >> kw_is >> &x3::lit('(')) > (placement_group % ',') > ';';
auto const node_statement_def = placement_list | placement_decl | machine_expr;
auto const node_decl_def = kw_node > kw_is > x3::matches[x3::lit(':')] > *(!kw_end >> node_statement) > kw_end > ';';
auto const machine_statement_rule_def = port_sharing_decl | machine_expr | sizeof_decl | comm_kind_decl |
                                        topology_decl | collective_decl | segment_decl | node_decl | variable_decl_rule;

BOOST_SPIRIT_DEFINE(identifier, string_literal, number, sizeof_expr, call, name, phase_name, variable_name, task_name,
                    type_name, primary, exponent, string_chars, wrapped, probability, expression_list, dist_args,
                    task_chain, power, unary, product, product_op, sum_op_char, sum_op, expression, dist_kind,
                    distribution, dist_arg, arg_list, sync, pattern_primary, pattern_term, pattern_sequence, branch,
                    alternatives, scheme, scheduling, shape, dist_role, expr_role, subtask_kind, scheme_clause,
                    scheduling_clause, decomposition, decomposition_clause, dist_clause, expr_clause,
                    problem_size_clause, dependency_clause, task_clause, arc_clause, block_clause, subtask_block,
                    phase_kind, concat_kind, machine_role, machine_expr, sizeof_decl, comm_kind, comm_kind_decl)
// BOOST_SPIRIT_DEFINE takes at most 64 rules at a time (Boost.Preprocessor's limit).
BOOST_SPIRIT_DEFINE(collective_call, collective_operation, collective_algorithm, collective_decl, topology,
                    topology_decl, port_sharing, port_sharing_decl, protocol, protocol_decl, segment_statement,
                    segment_decl, placement, placement_decl, placement_group, placement_list, node_statement, node_decl)
BOOST_SPIRIT_DEFINE(program_header_rule, variable_decl_rule, pattern_decl_rule, phase_head_rule, clause_rule,
                    end_statement_rule, concat_head_rule, concat_entry_rule, machine_header_rule,
                    machine_statement_rule)

}  // namespace pdl::parser

namespace pdl::parser {
program_header_type const& program_header() { return program_header_rule; }
variable_decl_type const& variable_decl() { return variable_decl_rule; }
pattern_decl_type const& pattern_decl() { return pattern_decl_rule; }
phase_head_type const& phase_head() { return phase_head_rule; }
clause_type const& clause() { return clause_rule; }
end_statement_type const& end_statement() { return end_statement_rule; }
concat_head_type const& concat_head() { return concat_head_rule; }
concat_entry_type const& concat_entry() { return concat_entry_rule; }
machine_header_type const& machine_header() { return machine_header_rule; }
machine_statement_type const& machine_statement() { return machine_statement_rule; }
}  // namespace pdl::parser
