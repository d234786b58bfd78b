// Shared by the WfCommons reader's tests: a small hand-written instance, places in a text found
// by searching it (independently of the reader's own positions), and the program checked.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "importers/wfformat.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"
#include "tests/support/case_from_text.hpp"

namespace wfformat_test {

// The instances vendored in validation/wfinstances/ (the tests run from the repository's root).
inline const std::vector<std::string>& vendored() {
  static const std::vector<std::string> files{
      "validation/wfinstances/srasearch-chameleon-10a-001.json",
      "validation/wfinstances/epigenomics-chameleon-hep-1seq-100k-001.json",
      "validation/wfinstances/seismology-chameleon-100p-001.json",
      "validation/wfinstances/blast-chameleon-small-001.json",
      "validation/wfinstances/bwa-chameleon-small-001.json",
  };
  return files;
}

using test_support::read_file;

// Four tasks: split, then two works, then merge; 1.5 + max(4.25, 6) + 0.75 = 8.25 s on the
// critical path. Each test changes one thing in it.
inline const char* const kTiny = R"({
  "name": "tiny",
  "schemaVersion": "1.5",
  "runtimeSystem": {"name": "Pegasus", "version": "5.0"},
  "workflow": {
    "specification": {
      "tasks": [
        {"name": "split_ID01", "id": "split_ID01", "parents": [], "children": ["work_ID02", "work_ID03"],
         "inputFiles": ["in.txt"], "outputFiles": ["a.part", "b.part"]},
        {"name": "work_ID02", "id": "work_ID02", "parents": ["split_ID01"], "children": ["merge_ID04"],
         "inputFiles": ["a.part"], "outputFiles": ["a.out"]},
        {"name": "work_ID03", "id": "work_ID03", "parents": ["split_ID01"], "children": ["merge_ID04"],
         "inputFiles": ["b.part"], "outputFiles": ["b.out"]},
        {"name": "merge_ID04", "id": "merge_ID04", "parents": ["work_ID02", "work_ID03"], "children": [],
         "inputFiles": ["a.out", "b.out"], "outputFiles": ["result"]}
      ],
      "files": [
        {"id": "in.txt", "sizeInBytes": 100},
        {"id": "a.part", "sizeInBytes": 40},
        {"id": "b.part", "sizeInBytes": 60},
        {"id": "a.out", "sizeInBytes": 7},
        {"id": "b.out", "sizeInBytes": 9},
        {"id": "result", "sizeInBytes": 16}
      ]
    },
    "execution": {
      "makespanInSeconds": 12.5,
      "executedAt": "2020-12-19T21:31:53Z",
      "tasks": [
        {"id": "split_ID01", "runtimeInSeconds": 1.5, "command": {"program": "split"}},
        {"id": "work_ID02", "runtimeInSeconds": 4.25, "command": {"program": "work"}},
        {"id": "work_ID03", "runtimeInSeconds": 6, "command": {"program": "work"}},
        {"id": "merge_ID04", "runtimeInSeconds": 0.75, "command": {"program": "merge"}}
      ],
      "machines": [
        {"nodeName": "node-1", "cpu": {"coreCount": 4, "speedInMHz": 2400}},
        {"nodeName": "node-2", "cpu": {"coreCount": 4}}
      ]
    }
  }
}
)";

// `text` with the first `from` replaced by `to` (a test failure if there is none).
inline std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no '" << from << "' to replace";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct Place {
  std::size_t line = 0;
  std::size_t column = 0;
};

// The 1-based line and column of the byte `offset` of `text`.
inline Place place_of(std::string_view text, std::size_t offset) {
  Place place{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++place.line;
      place.column = 1;
    } else {
      ++place.column;
    }
  }
  return place;
}

// The place of the `nth` (0-based) occurrence of `what` in `text`, plus `skip` bytes.
inline Place place_of(std::string_view text, std::string_view what, std::size_t nth = 0, std::size_t skip = 0) {
  std::size_t at = text.find(what);
  for (std::size_t i = 0; i < nth && at != std::string_view::npos; ++i) at = text.find(what, at + 1);
  EXPECT_NE(at, std::string_view::npos) << "no '" << what << "' in the text";
  return place_of(text, at == std::string_view::npos ? 0 : at + skip);
}

inline importers::ImportResult import_text(const std::string& text, const importers::WfFormatOptions& options = {},
                                           const importers::ImportLimits& limits = {}) {
  return importers::import_wfformat(text, "dir/tiny.json", options, limits);
}

// The first diagnostic of `severity` whose message contains `words` is at `place`.
inline void expect_at(const std::vector<pdl::Diagnostic>& diagnostics, pdl::Severity severity, Place place,
                      std::string_view words) {
  for (const pdl::Diagnostic& d : diagnostics) {
    if (d.severity != severity || d.message.find(words) == std::string::npos) continue;
    EXPECT_EQ(d.file, "dir/tiny.json");
    EXPECT_EQ(d.line, place.line) << pdl::format(d);
    EXPECT_EQ(d.column, place.column) << pdl::format(d);
    EXPECT_NE(d.message.find(words), std::string::npos) << pdl::format(d);
    return;
  }
  ADD_FAILURE() << "no diagnostic of that severity saying '" << words << "' in:\n" << pdl::format(diagnostics);
}

// A refusal: no program, and its first error at `place`, saying `words`.
inline void expect_refused(const importers::ImportResult& result, Place place, std::string_view words) {
  EXPECT_FALSE(result.imported.has_value());
  ASSERT_TRUE(pdl::has_errors(result.diagnostics));
  expect_at(result.diagnostics, pdl::Severity::Error, place, words);
}

// The program parsed and checked as the command checks a program file.
inline std::optional<models::Program> checked_program(const std::string& program) {
  const pdl::ParseResult parsed = pdl::parse(program, "imported.pdl");
  EXPECT_TRUE(parsed.ast.has_value()) << pdl::format(parsed.diagnostics);
  if (!parsed.ast) return std::nullopt;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source);
  EXPECT_TRUE(checked.program.has_value()) << pdl::format(checked.diagnostics);
  EXPECT_EQ(pdl::count(checked.diagnostics, pdl::Severity::Warning), 0u) << pdl::format(checked.diagnostics);
  return checked.program;
}

}  // namespace wfformat_test
