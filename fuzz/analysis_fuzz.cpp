// Fuzzes a whole program through the analysis (issue 12): any bytes as a PDL program, checked,
// bound on the ideal machine and analysed by every method on p = 1, 2, 3 with small limits,
// as the command runs it. Nothing may crash, hang or read out of bounds; a program the checks
// accept must give finite, ordered figures (lower <= mean <= upper) or a failure with a
// reason, never NaN or inf. scripts/fuzz 600 analysis_fuzz.
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "models/machine.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

namespace {

// Every method, every p in {1, 2, 3}, with limits that keep one input within a second or so
// under the sanitizers (about ten times slower than a release build), whose work grows with
// the tasks: libFuzzer reports an input over its timeout as a finding.
analysis::Request tiny_request() {
  analysis::Request request;
  request.processors = {1, 2, 3};
  request.methods.assign(solvers::all_methods().begin(), solvers::all_methods().end());
  request.max_exact_tasks = 300;
  request.solver_options.bounds.grid.max_points = 256;
  request.solver_options.bounds.reduction_work = 50'000;
  request.solver_options.bounds.fulkerson_points = 128;
  request.solver_options.bounds.kleindorfer_work = 5'000'000;
  request.solver_options.bounds.duplication_budget = 2'000;
  request.threads = 1;
  request.solver_options.monte_carlo.samples = 200;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.state_space.max_states = 20000;
  request.solver_options.state_space.memory_budget_bytes = std::uint64_t{256} << 20;
  request.solver_options.series_parallel.grid.max_points = 256;
  return request;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const pdl::ParseResult parsed = pdl::parse(text, "fuzz.pdl");
  if (!parsed.ast) return 0;
  // NUMERICAL files are not read (a fuzzed name could be a FIFO or a device): such a program
  // fails when bound, with its reason, which is fine here.
  pdl::CheckOptions options;
  options.read_measurements = false;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  if (!checked.program) return 0;
  analysis::MachineInput input;
  input.program = std::make_shared<const models::Program>(*checked.program);
  input.machine = models::ideal_machine();
  const auto cases = analysis::make_cases({input}, {}, false);
  if (!cases.ok()) return 0;  // a variable without a value: a failure with its reason
  static const analysis::Request request = tiny_request();
  const auto study = analysis::run_study(*cases.value, request, {});
  if (!study.ok()) return 0;  // a value the model refuses once bound, at its place
  for (std::size_t c = 0; c < study.value->cases().size(); ++c) {
    for (int p : study.value->processors()) {
      for (solvers::Method method : study.value->methods()) {
        const analysis::Row& row = study.value->at(c, p, method);
        const solvers::Result& r = row.result;
        if (!r.solved()) continue;
        if (!std::isfinite(r.mean) || !std::isfinite(r.lower) || !std::isfinite(r.upper) || r.lower > r.upper) {
          std::abort();
        }
        if (row.speedup && !std::isfinite(*row.speedup)) std::abort();
        if (row.speedup_lower && row.speedup_upper && !(*row.speedup_lower <= *row.speedup_upper)) std::abort();
      }
    }
  }
  return 0;
}
