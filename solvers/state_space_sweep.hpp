// Internal to the state-space solver (state_space.hpp): the level-by-level sweep of the chain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "distributed/communicator.hpp"
#include "solvers/progress.hpp"
#include "solvers/state_space.hpp"
#include "solvers/state_space_model.hpp"

namespace solvers::state_space_detail {

// What each state carries besides the probability of entering it.
enum class Payload {
  None,         // the mean only: sum of P(enter) / exit rate
  Moments,      // E[entry time; enter] and E[entry time²; enter]: mean and variance
  Uniformised,  // P(enter at jump n of the uniformised chain), n < width: the distribution
};

struct SweepSettings {
  Payload payload = Payload::None;
  std::size_t width = 0;      // doubles per state
  double uniform_rate = 0.0;  // Lambda of the uniformisation
  std::uint64_t budget = 0;   // per rank
  std::int64_t max_states = 0;
  int threads = 0;  // per rank
  // The ranks sharing the sweep (state_space_chunks.hpp, state_space_exchange.hpp); null when
  // this process sweeps alone.
  const distributed::Communicator* communicator = nullptr;
};

struct SweepOutcome {
  double mean = 0.0;      // sum of P(enter) / exit rate
  double absorbed = 0.0;  // probability of reaching the end (1 up to rounding)
  std::vector<double> end_payload;
  std::int64_t states = 0;
  double peak_bytes = 0.0;  // of this rank
  // Sum over the states of state_fingerprint (state_space_chunks.hpp): the same for two sweeps
  // that entered the same states with the same probabilities and payloads, to the bit, whatever
  // the threads or ranks (a check of the sweep's determinism; no figure depends on it).
  std::uint64_t fingerprint = 0;
};

// Sweeps the chain of m once; with a communicator, collectively (every rank calls it with the
// same model and settings, and every rank returns the same outcome but for peak_bytes, its own).
// Throws StateSpaceTooLarge (quoting `estimate`) when the live levels outgrow settings.budget
// (on some rank) or the states visited settings.max_states. `progress` hears, after each batch
// of states, the states visited over the estimate's count when the estimate is complete, else
// the levels swept over the absorbing state's level.
SweepOutcome sweep(const CompiledGraph& m, const SweepSettings& settings, const StateSpaceEstimate& estimate,
                   const ProgressFunction& progress = {});

}  // namespace solvers::state_space_detail
