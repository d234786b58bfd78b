// The model the calibration and prediction-interval tests and benchmarks fit: 64 independent
// tasks of `runtime` (a law of the program variable tc) spread over p processors, then a barrier
// of ts ceil(log2 P), ts a machine constant (no barrier on one processor). With deterministic
// tasks, T(p) = ceil(64/p) tc + ts ceil(log2 p).
#pragma once

#include <memory>
#include <string>

#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"

namespace test_support {

inline constexpr const char* kBarrierMachine =
    "MACHINE NAME IS 'm';\n"
    "VARIABLE ts = 50;\n"
    "BARRIER TIME IS ts*ceil(log2(max(P, 2)));\n";

inline analysis::MachineInput tasks_and_barrier(const std::string& runtime = "DETERMINISTIC(tc)") {
  const std::string program =
      "PROGRAM NAME IS 'tasks';\nEXECUTION PATTERN IS w -> SYNC;\nVARIABLE tc = 10;\nWORK PHASE w IS:\n"
      "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS " +
      runtime + ";\n  PROBLEM SIZE IS VECTOR a(64);\nEND;\n";
  const models::Machine machine = machine_of_text(kBarrierMachine);
  analysis::MachineInput input;
  input.program = std::make_shared<const models::Program>(program_of_text(program, machine));
  input.machine = machine;
  return input;
}

}  // namespace test_support
