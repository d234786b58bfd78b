// The one translation unit that compiles the grammar (Spirit X3 is slow to compile).
#include "pdl/grammar_def.hpp"

namespace pdl::parser {

BOOST_SPIRIT_INSTANTIATE(program_header_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(variable_decl_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(pattern_decl_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(phase_head_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(clause_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(end_statement_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(concat_head_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(concat_entry_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(machine_header_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(machine_statement_type, iterator_type, context_type)

}  // namespace pdl::parser
