// "Did you mean": the known names nearest to a misspelt one, for the command line's options and
// the program's variables.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace app {

// The optimal-string-alignment form of the Damerau–Levenshtein distance: insertions,
// deletions, substitutions and transpositions of two adjacent characters cost 1 each, so that
// "pmx" is 1 from "pmax" and "colunms" 1 from "columns".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The known names `given` may have meant, in the order of `known`: those at the least edit
// distance when it is at most 2 (at most 1 for a name of three characters or fewer, where two
// edits change most of it); failing that, those that `given` begins (a prefix of at least two
// characters: "grid" for "grid-points"). A name equal to `given` is offered too (the caller
// compares "-pmax" with "--pmax" without their dashes). Empty when none is close.
std::vector<std::string> nearest(std::string_view given, const std::vector<std::string>& known);

// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_alternatives(const std::vector<std::string>& names);

}  // namespace app
