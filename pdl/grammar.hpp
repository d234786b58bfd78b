// Declarations of the grammar rules the parser driver (parse.cpp) calls one statement at a
// time. The definitions are in grammar_def.hpp, compiled once in grammar.cpp.
#pragma once

#include "pdl/ast.hpp"
#include "pdl/config.hpp"

#include <boost/spirit/home/x3/nonterminal/rule.hpp>

namespace pdl::parser {

namespace x3 = boost::spirit::x3;

struct program_header_class;
struct variable_decl_class;
struct pattern_decl_class;
struct phase_head_class;
struct clause_class;
struct end_statement_class;
struct concat_head_class;
struct concat_entry_class;
struct machine_header_class;
struct machine_statement_class;

using program_header_type = x3::rule<program_header_class, ast::StringLit>;
using variable_decl_type = x3::rule<variable_decl_class, ast::VariableDecl>;
using pattern_decl_type = x3::rule<pattern_decl_class, ast::Alternatives>;
using phase_head_type = x3::rule<phase_head_class, ast::PhaseHead>;
using clause_type = x3::rule<clause_class, ast::Clause>;
using end_statement_type = x3::rule<end_statement_class>;
using concat_head_type = x3::rule<concat_head_class>;
using concat_entry_type = x3::rule<concat_entry_class, ast::ConcatEntry>;
using machine_header_type = x3::rule<machine_header_class, ast::StringLit>;
using machine_statement_type = x3::rule<machine_statement_class, ast::MachineStatement>;

BOOST_SPIRIT_DECLARE(program_header_type, variable_decl_type, pattern_decl_type, phase_head_type, clause_type,
                     end_statement_type, concat_head_type, concat_entry_type, machine_header_type,
                     machine_statement_type)

// The statement rules: PROGRAM NAME IS '...'; and so on (docs/pdl.md has the EBNF).
program_header_type const& program_header();
variable_decl_type const& variable_decl();
pattern_decl_type const& pattern_decl();
phase_head_type const& phase_head();
clause_type const& clause();
end_statement_type const& end_statement();
concat_head_type const& concat_head();
concat_entry_type const& concat_entry();
machine_header_type const& machine_header();
machine_statement_type const& machine_statement();

}  // namespace pdl::parser
