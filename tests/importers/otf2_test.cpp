// The OTF2 reader (docs/import.md, "OTF2 traces") on pipit's ping-pong trace
// (validation/otf2/): its schedule and program against figures computed independently from
// `otf2-print`'s text listing of the trace (Debian's otf2-tools) by a Python script that applies
// the rules docs/import.md states: per rank, the time outside MPI calls from MPI_Init's end to
// MPI_Finalize's start, plus the time in MPI calls without a message, between the messages; the
// messages in order. And bad traces refused with the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "importers/otf2.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

const char* const kTrace = "validation/otf2/ping-pong-otf2/traces.otf2";

importers::ImportResult import_trace(const std::string& path) { return importers::read_otf2({path, "", 0}, {}); }

// The schedule of one rank block of the GOAL text: "calc N", "send Sb to R tag T", ...
std::vector<std::string> rank_operations(const std::string& goal, int rank) {
  const std::size_t begin = goal.find("rank " + std::to_string(rank) + " {");
  const std::size_t end = goal.find("\n}", begin);
  std::vector<std::string> operations;
  const std::regex operation(R"(l\d+: ([a-z]+ [^/\n]*?)\s+//)");
  const std::string block = goal.substr(begin, end - begin);
  for (std::sregex_iterator it(block.begin(), block.end(), operation), stop; it != stop; ++it) {
    operations.push_back((*it)[1]);
  }
  return operations;
}

long long calc_total(const std::vector<std::string>& operations) {
  long long total = 0;
  for (const std::string& op : operations) {
    if (op.starts_with("calc ")) total += std::stoll(op.substr(5));
  }
  return total;
}

TEST(Otf2, PingPongTraceBecomesItsScheduleAndProgram) {
  const importers::ImportResult result = import_trace(kTrace);
  ASSERT_TRUE(result.imported.has_value()) << pdl::format(result.diagnostics);
  ASSERT_EQ(result.imported->data_files.size(), 1u);
  const importers::ImportedFile& goal = result.imported->data_files.front();
  EXPECT_EQ(goal.name, "ping-pong-otf2.goal");
  const std::vector<std::string> rank0 = rank_operations(goal.text, 0), rank1 = rank_operations(goal.text, 1);
  EXPECT_EQ(rank0.size(), 33u);
  EXPECT_EQ(rank1.size(), 33u);
  EXPECT_EQ(calc_total(rank0), 2'376'366);
  EXPECT_EQ(calc_total(rank1), 2'971'099);
  // Rank 0 sends each size to rank 1 with tag 10 and receives it back with tag 20, 16 KiB to 2 MiB.
  std::vector<std::string> messages;
  for (const std::string& op : rank0) {
    if (!op.starts_with("calc")) messages.push_back(op);
  }
  ASSERT_EQ(messages.size(), 16u);
  for (std::size_t k = 0; k < 8; ++k) {
    const std::string bytes = std::to_string(16384u << k);
    EXPECT_EQ(messages[2 * k], "send " + bytes + "b to 1 tag 10");
    EXPECT_EQ(messages[2 * k + 1], "recv " + bytes + "b from 1 tag 20");
  }
  // Messages free (the ideal machine): the longest chain of computation through the exchanges.
  const std::string& program = result.imported->program;
  EXPECT_EQ(program.rfind("// From the OTF2 trace ", 0), 0u);
  test_support::expect_means(program, "MACHINE NAME IS 'ideal';\n", 2, {{solvers::Method::StateSpace, 2997.896}});
  EXPECT_NE(pdl::format(result.imported->notes).find("4 MPI call(s) without a point-to-point message"),
            std::string::npos)
      << pdl::format(result.imported->notes);
}

TEST(Otf2, WhatIsNoTraceIsRefusedWithTheReason) {
  const std::string missing = pdl::format(import_trace("validation/otf2/no-such/traces.otf2").diagnostics);
  EXPECT_NE(missing.find("error: cannot import the OTF2 trace: it is not an OTF2 anchor file"), std::string::npos)
      << missing;
  const std::string text = pdl::format(import_trace("validation/otf2/README.md").diagnostics);
  EXPECT_NE(text.find("error: cannot import the OTF2 trace"), std::string::npos) << text;
}

// A trace whose event files are cut short: refused, not read as a shorter run.
TEST(Otf2, ATruncatedEventFileIsRefused) {
  const std::filesystem::path copy = std::filesystem::temp_directory_path() / "pdl-scale-otf2-truncated";
  std::filesystem::remove_all(copy);
  std::filesystem::copy("validation/otf2/ping-pong-otf2", copy, std::filesystem::copy_options::recursive);
  std::filesystem::resize_file(copy / "traces" / "1.evt", 300);
  const importers::ImportResult result = import_trace((copy / "traces.otf2").string());
  std::filesystem::remove_all(copy);
  ASSERT_FALSE(result.imported.has_value());
  EXPECT_NE(pdl::format(result.diagnostics).find("error: cannot import the OTF2 trace"), std::string::npos)
      << pdl::format(result.diagnostics);
}

}  // namespace
