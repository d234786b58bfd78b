// A distribution as bytes and back, for the ranks of a job that pass results to each other
// (docs/scale-out.md): the representation itself, so the copy is the same distribution, bit
// for bit.
#pragma once

#include "distributed/communicator.hpp"
#include "distributions/distribution.hpp"

namespace distributions {

void put_distribution(distributed::Writer& out, const Distribution& distribution);
// Throws std::runtime_error for bytes put_distribution did not write.
Distribution get_distribution(distributed::Reader& in);

}  // namespace distributions
