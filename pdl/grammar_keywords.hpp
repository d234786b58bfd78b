// The words of PDL and machine files: a keyword parser that is case-insensitive and ends at a
// word boundary, and every keyword of the grammar (grammar_def.hpp, which alone includes this).
#pragma once

#include <boost/spirit/home/x3.hpp>

#include <string>
#include <string_view>

namespace pdl::parser {

namespace x3 = boost::spirit::x3;

// ---- Lexical helpers ------------------------------------------------------------------
inline bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// A case-insensitive keyword (given in lower case) that ends at a word boundary. Its name
// in messages is the keyword in upper case, e.g. 'IS'.
struct Keyword : x3::parser<Keyword> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;

  constexpr explicit Keyword(std::string_view word_) : word(word_) {}

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute&) const {
    x3::skip_over(first, last, context);
    Iterator it = first;
    for (char c : word) {
      if (it == last || lower(*it) != c) return false;
      ++it;
    }
    if (it != last && is_word_char(*it)) return false;
    first = it;
    return true;
  }

  std::string_view word;
};

}  // namespace pdl::parser

namespace boost::spirit::x3 {
template <>
struct get_info<pdl::parser::Keyword> {
  using result_type = std::string;
  std::string operator()(pdl::parser::Keyword const& keyword) const {
    std::string out = "'";
    for (char c : keyword.word) out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    return out + "'";
  }
};
}  // namespace boost::spirit::x3

namespace pdl::parser {

// Keywords.
constexpr Keyword kw_arc{"arc"}, kw_barrier{"barrier"}, kw_communication{"communication"}, kw_binomial{"binomial"},
    kw_broadcast{"broadcast"}, kw_collective{"collective"}, kw_dissemination{"dissemination"}, kw_doubling{"doubling"},
    kw_formula{"formula"}, kw_linear{"linear"}, kw_pairwise{"pairwise"}, kw_recursive{"recursive"}, kw_reduce{"reduce"},
    kw_ring{"ring"}, kw_concatenation{"concatenation"}, kw_contention{"contention"}, kw_decomposition{"decomposition"},
    kw_dependency{"dependency"}, kw_dependencies{"dependencies"}, kw_dependent{"dependent"}, kw_end{"end"},
    kw_execution{"execution"}, kw_independent{"independent"}, kw_interarrival{"interarrival"}, kw_is{"is"},
    kw_job{"job"}, kw_jobs{"jobs"}, kw_join{"join"}, kw_machine{"machine"}, kw_memory{"memory"}, kw_message{"message"},
    kw_name{"name"}, kw_on{"on"}, kw_overhead{"overhead"}, kw_parallelization{"parallelization"}, kw_passing{"passing"},
    kw_pattern{"pattern"}, kw_per{"per"}, kw_phase{"phase"}, kw_problem{"problem"}, kw_processor{"processor"},
    kw_program{"program"}, kw_rtfactor{"rtfactor"}, kw_runtime{"runtime"}, kw_scheduling{"scheduling"},
    kw_scheme{"scheme"}, kw_sequential{"sequential"}, kw_shared{"shared"}, kw_size{"size"}, kw_sizeof{"sizeof"},
    kw_stages{"stages"}, kw_static{"static"}, kw_subtask{"subtask"}, kw_sync{"sync"}, kw_task{"task"},
    kw_tasks{"tasks"}, kw_time{"time"}, kw_variable{"variable"}, kw_volume{"volume"}, kw_work{"work"},
    kw_eager{"eager"}, kw_limit{"limit"}, kw_port{"port"}, kw_ports{"ports"}, kw_release{"release"};
// The words of a farm's master (MASTER SERVICE IS d; DISPATCH VOLUME IS v;).
constexpr Keyword kw_master{"master"}, kw_service{"service"}, kw_dispatch{"dispatch"};
// The words of TOPOLOGY IS ...; ("2d" begins with a digit: a keyword still ends at a word boundary).
constexpr Keyword kw_topology{"topology"}, kw_fully{"fully"}, kw_connected{"connected"}, kw_crossbar{"crossbar"},
    kw_bus{"bus"}, kw_mesh{"mesh"}, kw_torus{"torus"}, kw_2d{"2d"}, kw_3d{"3d"}, kw_hypercube{"hypercube"},
    kw_fat{"fat"}, kw_tree{"tree"};
// The words of PORT SHARING IS ...;.
constexpr Keyword kw_sharing{"sharing"}, kw_fair{"fair"}, kw_first{"first"}, kw_come{"come"}, kw_served{"served"};
// The words of SEGMENT FROM b IS: ... END;.
constexpr Keyword kw_segment{"segment"}, kw_from{"from"}, kw_protocol{"protocol"}, kw_rendezvous{"rendezvous"};
// The words of NODE IS: ... END;.
constexpr Keyword kw_node{"node"}, kw_processors{"processors"}, kw_cores{"cores"}, kw_placement{"placement"},
    kw_block{"block"}, kw_cyclic{"cyclic"}, kw_bandwidth{"bandwidth"};

}  // namespace pdl::parser
