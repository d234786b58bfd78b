// The loss analysis of the paper's section 5: each phase alone, every other phase made free.
#pragma once

#include <string>
#include <vector>

#include "models/program.hpp"

namespace analysis {

// The names of the program's phases that the execution pattern runs, in order of first use.
std::vector<std::string> pattern_phases(const models::Program& program);

// The name the loss analysis gives the case where every phase is free and only the barriers
// (SYNC) cost: SYNC is a keyword, so no phase has this name.
inline constexpr const char* kBarriersOnly = "SYNC";

// True when the execution pattern has a SYNC or a collective (BROADCAST(v), ...).
bool pattern_has_sync(const models::Program& program);

// The program with every phase except `kept` made free: runtimes DETERMINISTIC(0) and
// communication volumes 0 (so no message either). Barriers (SYNC) still cost what the machine
// says. This is the paper's loss analysis (section 5): "the execution time of all program
// phases not considered should be set to deterministic runtimes with mean value 0".
models::Program with_only_phase(const models::Program& program, const std::string& kept);

}  // namespace analysis
