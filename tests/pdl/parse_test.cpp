// The parser: what it accepts, the AST it builds, how it reports and recovers.
#include "models/environment.hpp"
#include "test_util.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace pdl {
namespace {

using test::independent;
using test::parse_and_check;
using test::program_with;

TEST(Parse, PaperFiguresParseAsPrinted) {
  const ParseResult r = parse(test::read("examples/paper/figures.pdl"), "figures.pdl");
  ASSERT_TRUE(r.ast) << format(r.diagnostics);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(r.ast->name.value, "prgA");
  ASSERT_EQ(r.ast->phases.size(), 3u);
  EXPECT_EQ(r.ast->phases[0].head.name.name, "w1");
  EXPECT_EQ(r.ast->phases[2].clauses.size(), 6u);  // scheme, dependency, 2 blocks, size, volume
  ASSERT_EQ(r.ast->concatenations.size(), 2u);
  EXPECT_EQ(r.ast->concatenations[1].second.name, "w3");
  ASSERT_EQ(r.ast->patterns.size(), 1u);
  EXPECT_EQ(r.ast->patterns[0][0].sequence.size(), 5u);  // w1 -> sync -> w2 -> w2 -> w3
}

TEST(Parse, KeywordsAreCaseInsensitiveAndCommentsAreSkipped) {
  const std::string text =
      "program name is 'lower'; /* block\ncomment */ execution pattern is a; // line comment\n"
      "Work Phase a Is:\n parallelization scheme is neighbor-torus; subtask runtime is erlang(2, 1);\n"
      " problem size is vector v(8); end;\nconcatenation is: end;";
  const auto r = parse_and_check(text);
  EXPECT_TRUE(r.ok()) << r.text();
}

TEST(Parse, ArrowIsNotMinus) {
  const auto r = parse_and_check(program_with("a{n-1} -> sync -> a", "VARIABLE n = 3;\n" + independent("a")) +
                                 "CONCATENATION IS: a, a : BARRIER; END;");
  EXPECT_TRUE(r.ok()) << r.text();
}

TEST(Parse, EmptyFile) {
  const ParseResult r = parse("", "e.pdl");
  EXPECT_FALSE(r.ast);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "the file is empty");
  EXPECT_EQ(r.diagnostics[0].line, 1u);
}

TEST(Parse, DiagnosticFormatHasSourceLineAndCaret) {
  const ParseResult r = parse("PROGRAM NAME IS 'x';\nEXECUTION PATTERN IS w1 w2;\n", "f.pdl");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(format(r.diagnostics[0]),
            "f.pdl:2:25: error: expected ';' but found 'w2'\n"
            "EXECUTION PATTERN IS w1 w2;\n"
            "                        ^\n");
}

TEST(Parse, RecoversAndReportsSeveralErrors) {
  const std::string text =
      program_with("a -> sync -> b",
                   "WORK PHASE a IS:\n  PARALLELIZATION SCHEME IS;\n  SUBTASK RUNTIME IS EXPONENTIAL(1)\n"
                   "  PROBLEM SIZE IS VECTOR A(10);\nEND;\n"
                   "WORK PHASE b IS:\n  SUBTASK RUNTIME IS ERLANG(8 1);\nEND;\nBOGUS;\nVARIABLE = 3;\n");
  const ParseResult r = parse(text, "f.pdl");
  EXPECT_FALSE(r.ast);
  ASSERT_EQ(r.diagnostics.size(), 5u) << format(r.diagnostics);
  EXPECT_EQ(r.diagnostics[0].line, 4u);   // missing scheme name
  EXPECT_EQ(r.diagnostics[1].line, 6u);   // missing ';' (reported where the next clause starts)
  EXPECT_EQ(r.diagnostics[2].line, 9u);   // ERLANG(8 1)
  EXPECT_EQ(r.diagnostics[3].line, 11u);  // BOGUS
  EXPECT_EQ(r.diagnostics[4].line, 12u);  // VARIABLE without a name
}

TEST(Parse, StopsAfterTooManyErrors) {
  std::string text = "PROGRAM NAME IS 'x';\n";
  for (int i = 0; i < 100; ++i) text += "VARIABLE = 1;\n";
  const ParseResult r = parse(text, "f.pdl");
  EXPECT_EQ(count(r.diagnostics, Severity::Error), kMaxErrors + 1);
  EXPECT_NE(r.diagnostics.back().message.find("too many errors"), std::string::npos);
}

TEST(Parse, NestingIsBounded) {
  const auto nested = [](std::size_t depth) {
    return program_with(
        "a", "VARIABLE x = " + std::string(depth, '(') + "1" + std::string(depth, ')') + ";\n" + independent("a"));
  };
  EXPECT_TRUE(parse_and_check(nested(kMaxNesting)).ok());
  const auto deep = parse_and_check(nested(kMaxNesting + 1));
  EXPECT_FALSE(deep.ok());
  EXPECT_NE(deep.first().find("nesting too deep"), std::string::npos);
}

TEST(Parse, BinaryAndNonAsciiAreRefused) {
  EXPECT_NE(parse(std::string("PROGRAM\0NAME", 12), "b").diagnostics.at(0).message.find("binary"), std::string::npos);
  EXPECT_NE(parse("PROGRAM NAME IS 'x'; \xc3\xa9", "b").diagnostics.at(0).message.find("non-ASCII"), std::string::npos);
  // ... but non-ASCII text is fine in comments and strings.
  EXPECT_TRUE(
      parse_and_check("// caf\xc3\xa9\nPROGRAM NAME IS 'caf\xc3\xa9';\nEXECUTION PATTERN IS a;\n" + independent("a"))
          .ok());
}

TEST(Parse, TruncatedInputsAreReportedAtTheEnd) {
  const std::string full = test::read("examples/paper/figures.pdl");
  // Every prefix of a valid program either parses or fails with diagnostics; none crashes.
  for (std::size_t n = 0; n < full.size(); n += 7) {
    const ParseResult r = parse(full.substr(0, n), "t.pdl");
    if (!r.ast) {
      EXPECT_FALSE(r.diagnostics.empty()) << n;
    }
  }
}

TEST(Parse, MachineFile) {
  const MachineParseResult r = parse_machine(test::read("examples/machines/cluster.machine"), "cluster.machine");
  ASSERT_TRUE(r.ast) << format(r.diagnostics);
  EXPECT_EQ(r.ast->name.value, "cluster");
  EXPECT_EQ(r.ast->statements.size(), 10u);
}

TEST(Parse, StringsDoubleTheirQuotes) {
  const ParseResult r = parse("PROGRAM NAME IS 'it''s';", "s.pdl");
  ASSERT_TRUE(r.ast) << format(r.diagnostics);
  EXPECT_EQ(r.ast->name.value, "it's");
}

TEST(Parse, LongFlatExpressionsDoNotRecurse) {
  std::string sum = "1";
  for (int i = 0; i < 200000; ++i) sum += "+1";
  const auto r =
      parse_and_check(program_with("a{" + sum + "}", independent("a")) + "CONCATENATION IS: a, a : SERIAL; END;");
  ASSERT_TRUE(r.ok()) << r.text().substr(0, 500);
  const auto& count = r.checked.program->pattern.count;
  EXPECT_EQ(models::evaluate(count, {}).value, 200001.0);
}

// A constant written with 17 significant digits (as --write-fit writes it) reads back to the
// same double: numbers are correctly rounded (issue 31: X3's own real parser put 628 of 3,008
// random constants one ulp off). Random doubles of every magnitude, each in its shortest and its
// 17-digit form.
TEST(Parse, NumbersAreCorrectlyRounded) {
  std::mt19937_64 random(31);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::string variables;
  std::vector<double> written;
  for (int i = 0; i < 3008; ++i) {
    const double value = mantissa(random) * std::pow(10.0, exponent(random));
    written.push_back(value);
    variables +=
        fmt::format("VARIABLE v{} = {};\n", i, i % 2 == 0 ? fmt::format("{:.17g}", value) : fmt::format("{}", value));
  }
  const auto r = parse_and_check(program_with("a", independent("a")) + variables);
  ASSERT_TRUE(r.ok()) << r.text().substr(0, 500);
  const auto& declared = r.checked.program->variables;
  ASSERT_EQ(declared.size(), written.size());
  int off = 0;
  for (std::size_t i = 0; i < written.size(); ++i) {
    ASSERT_TRUE(declared[i].default_value);
    const double read = models::evaluate(*declared[i].default_value, {}).value;
    if (read != written[i]) ++off;
  }
  EXPECT_EQ(off, 0) << "of " << written.size() << " constants read back other than written";
}

}  // namespace
}  // namespace pdl
