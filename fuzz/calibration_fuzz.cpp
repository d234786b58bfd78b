// Fuzzes runs files and set-files through calibration and validation (issue 31), as the command
// runs them: the input is a runs file, then optionally a form feed and a --set-file's text; its
// first byte picks the command (--check of the runs, --calibrate --fit tc,ts, --validate, or both
// with prediction intervals at p = 1, 2). Files are served from memory, nothing is written. Each
// run must end with exit status 0 and no non-finite figure in its CSV, or with exit status 2 and
// a message ("error:"); never status 1, a crash, a hang or an out-of-bounds read.
// scripts/fuzz 1800 calibration_fuzz.
#include "app/cli.hpp"
#include "app/commands.hpp"
#include "app/options.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

// examples/calibration/tasks.pdl and barrier.machine, without their comments.
constexpr const char* kProgram =
    "PROGRAM NAME IS 'tasks';\nEXECUTION PATTERN IS work -> SYNC;\nVARIABLE tc = 10;\n"
    "WORK PHASE work IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS EXPONENTIAL(tc);\n"
    "  PROBLEM SIZE IS VECTOR tasks(64);\nEND;\n";
constexpr const char* kMachine =
    "MACHINE NAME IS 'barrier-tree';\nVARIABLE ts = 50;\nBARRIER TIME IS ts*ceil(log2(max(P, 2)));\n";

std::vector<std::string> arguments_for(std::uint8_t choice) {
  std::vector<std::string> args = {
      "pdl-scale", "tasks.pdl", "--machine", "barrier.machine", "--set-file", "fuzz.sets", "--format",
      "csv",       "--memory",  "256M",      "--time-limit",    "20s",        "--threads", "1"};
  switch (choice % 4) {
    case 0: return {"pdl-scale", "runs.csv", "--check"};
    case 1: args.insert(args.end(), {"--calibrate", "runs.csv", "--fit", "tc,ts"}); break;
    case 2: args.insert(args.end(), {"--validate", "runs.csv"}); break;
    default:
      args.insert(args.end(),
                  {"--calibrate", "runs.csv", "--fit", "tc", "--validate", "runs.csv", "--p", "1,2", "--draws", "20"});
  }
  return args;
}

// A non-finite figure as the report prints one.
bool has_non_finite(const std::string& text) {
  for (const char* word : {"nan", "NaN", "inf", "Inf"}) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
      const bool starts = at == 0 || std::string(",: +-(").find(text[at - 1]) != std::string::npos;
      const std::size_t end = at + std::string(word).size();
      const bool ends = end == text.size() || std::string(",\n %)").find(text[end]) != std::string::npos;
      if (starts && ends) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t split = body.find('\f');
  const std::map<std::string, std::string> files = {
      {"tasks.pdl", kProgram},
      {"barrier.machine", kMachine},
      {"runs.csv", body.substr(0, split)},
      {"fuzz.sets", split == std::string::npos ? std::string() : body.substr(split + 1)}};
  app::Options options;
  options.read_file = [&files](const std::string& path, std::size_t limit) {
    pdl::FileFacts facts;
    const auto file = files.find(path);
    if (file == files.end()) return facts;
    facts.exists = facts.regular = true;
    facts.size = file->second.size();
    facts.text = file->second.substr(0, limit + 1);
    return facts;
  };
  std::vector<std::string> args = arguments_for(data[0]);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  std::ostringstream out, err;
  int status = 0;
  try {
    status = app::run_command(static_cast<int>(argv.size()), argv.data(), options, out, err, false);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "internal error: %s\n", error.what());
    std::abort();
  }
  if (status == app::kExitSuccess && !has_non_finite(out.str())) return 0;
  if (status == app::kExitInput && err.str().find("error:") != std::string::npos) return 0;
  std::fprintf(stderr, "exit %d\n--- out\n%s--- err\n%s", status, out.str().c_str(), err.str().c_str());
  std::abort();
}
