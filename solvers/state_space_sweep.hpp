// Internal to the state-space solver (state_space.hpp): the level-by-level sweep of the chain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "solvers/progress.hpp"
#include "solvers/state_space.hpp"
#include "solvers/state_space_model.hpp"

namespace solvers::state_space_detail {

// What each state carries besides the probability of entering it.
enum class Payload {
  None,          // the mean only: sum of P(enter) / exit rate
  Moments,       // E[entry time; enter] and E[entry time²; enter]: mean and variance
  Uniformised,   // P(enter at jump n of the uniformised chain), n < width: the distribution
};

struct SweepSettings {
  Payload payload = Payload::None;
  std::size_t width = 0;        // doubles per state
  double uniform_rate = 0.0;    // Lambda of the uniformisation
  std::uint64_t budget = 0;
  std::int64_t max_states = 0;
  int threads = 0;
};

struct SweepOutcome {
  double mean = 0.0;             // sum of P(enter) / exit rate
  double absorbed = 0.0;         // probability of reaching the end (1 up to rounding)
  std::vector<double> end_payload;
  std::int64_t states = 0;
  double peak_bytes = 0.0;
};

// Sweeps the chain of m once. Throws StateSpaceTooLarge (quoting `estimate`) when the live
// levels outgrow settings.budget or the states visited settings.max_states. `progress` hears,
// after each batch of states, the states visited over the estimate's count when the estimate
// is complete, else the levels swept over the absorbing state's level.
SweepOutcome sweep(const CompiledGraph& m, const SweepSettings& settings, const StateSpaceEstimate& estimate,
                   const ProgressFunction& progress = {});

}  // namespace solvers::state_space_detail
