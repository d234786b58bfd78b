// "Did you mean": the edit distance against values worked by hand, and which names are offered.
#include "app/suggest.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Suggest, EditDistanceCountsTranspositionsAsOneEdit) {
  EXPECT_EQ(app::edit_distance("", "abc"), 3u);
  EXPECT_EQ(app::edit_distance("pmax", "pmax"), 0u);
  EXPECT_EQ(app::edit_distance("pmx", "pmax"), 1u);         // one insertion
  EXPECT_EQ(app::edit_distance("colunms", "columns"), 1u);  // one transposition (Levenshtein: 2)
  EXPECT_EQ(app::edit_distance("kitten", "sitting"), 3u);   // the textbook example
  // The optimal-string-alignment form edits no substring twice: "ca" -> "abc" is 3, where the
  // unrestricted Damerau-Levenshtein distance is 2 (ca -> ac -> abc).
  EXPECT_EQ(app::edit_distance("ca", "abc"), 3u);
}

TEST(Suggest, NearestOffersCloseNamesElsePrefixes) {
  const std::vector<std::string> options{"pmax", "p", "method", "machine", "isoefficiency", "iso-variable", "iso-max"};
  EXPECT_EQ(app::nearest("pmx", options), (std::vector<std::string>{"pmax"}));
  EXPECT_EQ(app::nearest("mahcine", options), (std::vector<std::string>{"machine"}));
  EXPECT_EQ(app::nearest("iso", options), (std::vector<std::string>{"isoefficiency", "iso-variable", "iso-max"}));
  EXPECT_TRUE(app::nearest("frobnicate", options).empty());
  // Names of three characters or fewer allow one edit: "q" may mean "p", and "pm" is one edit
  // from "p" (two from "pmax"), so the prefix rule is not reached.
  EXPECT_EQ(app::nearest("q", options), (std::vector<std::string>{"p"}));
  EXPECT_EQ(app::nearest("pm", options), (std::vector<std::string>{"p"}));
  EXPECT_TRUE(app::nearest("xyz", {"abc"}).empty());
  // Four characters allow two edits; ties are all offered, in the order known.
  EXPECT_EQ(app::nearest("abcd", {"abxy", "xbcy", "abcdefgh"}), (std::vector<std::string>{"abxy", "xbcy"}));
  EXPECT_EQ(app::quoted_alternatives({"a", "b", "c"}), "'a', 'b' or 'c'");
}

}  // namespace
