// Collective operations a program performs between its phases (BROADCAST(v) in the execution
// pattern, SYNC for the barrier) and the algorithms a machine implements them with
// (COLLECTIVE ALLREDUCE IS RING;). docs/pdl.md "Collectives", docs/semantics.md section Q.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace models {

enum class CollectiveOperation { Broadcast, Reduce, Allreduce, Gather, Scatter, Alltoall, Barrier };
enum class CollectiveAlgorithm {
  Formula,            // BARRIER only: the machine's BARRIER TIME
  Binomial,           // a binomial tree rooted at processor 0: ceil(log2 P) rounds
  Linear,             // the root sends to (or receives from) every other processor in turn
  RecursiveDoubling,  // partners r XOR 2^k exchange everything: log2 P rounds
  Ring,               // reduce-scatter then allgather around the ring: 2(P-1) rounds of v/P bytes
  ReduceBroadcast,    // a binomial REDUCE, then a binomial BROADCAST
  Pairwise,           // round k: r sends to r+k and receives from r-k (mod P), P-1 rounds
  Dissemination,      // round k: r sends to r+2^k (mod P), ceil(log2 P) rounds
};

const char* to_string(CollectiveOperation operation);  // "ALLREDUCE"
const char* to_string(CollectiveAlgorithm algorithm);  // "RECURSIVE DOUBLING"

// The algorithms a machine may choose for an operation, the default first.
const std::vector<CollectiveAlgorithm>& algorithms_for(CollectiveOperation operation);
CollectiveAlgorithm default_algorithm(CollectiveOperation operation);

}  // namespace models
