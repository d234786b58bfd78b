// A Result as bytes and back, for the ranks of a job that pass results to each other
// (docs/scale-out.md): every field, so the copy reports exactly as the original.
#pragma once

#include "distributed/communicator.hpp"
#include "solvers/result.hpp"

namespace solvers {

void put_result(distributed::Writer& out, const Result& result);
// Throws std::runtime_error for bytes put_result did not write.
Result get_result(distributed::Reader& in);

}  // namespace solvers
