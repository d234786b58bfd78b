#include "models/collective.hpp"

#include <algorithm>

namespace models {

const char* to_string(CollectiveOperation operation) {
  switch (operation) {
    case CollectiveOperation::Broadcast: return "BROADCAST";
    case CollectiveOperation::Reduce: return "REDUCE";
    case CollectiveOperation::Allreduce: return "ALLREDUCE";
    case CollectiveOperation::Gather: return "GATHER";
    case CollectiveOperation::Scatter: return "SCATTER";
    case CollectiveOperation::Alltoall: return "ALLTOALL";
    case CollectiveOperation::Barrier: return "BARRIER";
  }
  return "BARRIER";
}

const char* to_string(CollectiveAlgorithm algorithm) {
  switch (algorithm) {
    case CollectiveAlgorithm::Formula: return "FORMULA";
    case CollectiveAlgorithm::Binomial: return "BINOMIAL";
    case CollectiveAlgorithm::Linear: return "LINEAR";
    case CollectiveAlgorithm::RecursiveDoubling: return "RECURSIVE DOUBLING";
    case CollectiveAlgorithm::Ring: return "RING";
    case CollectiveAlgorithm::ReduceBroadcast: return "REDUCE BROADCAST";
    case CollectiveAlgorithm::Pairwise: return "PAIRWISE";
    case CollectiveAlgorithm::Dissemination: return "DISSEMINATION";
  }
  return "FORMULA";
}

const std::vector<CollectiveAlgorithm>& algorithms_for(CollectiveOperation operation) {
  using A = CollectiveAlgorithm;
  static const std::vector<A> tree{A::Binomial, A::Linear};
  static const std::vector<A> allreduce{A::RecursiveDoubling, A::Ring, A::ReduceBroadcast};
  static const std::vector<A> alltoall{A::Pairwise};
  static const std::vector<A> barrier{A::Formula, A::Dissemination};
  switch (operation) {
    case CollectiveOperation::Allreduce: return allreduce;
    case CollectiveOperation::Alltoall: return alltoall;
    case CollectiveOperation::Barrier: return barrier;
    default: return tree;
  }
}

CollectiveAlgorithm default_algorithm(CollectiveOperation operation) { return algorithms_for(operation).front(); }

}  // namespace models
