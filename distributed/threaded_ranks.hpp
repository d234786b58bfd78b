// A job of several ranks inside one process, one thread per rank: the distributed code paths
// run and are tested without MPI, and give what an MPI job of as many ranks gives (the
// collectives have the same meaning; only the transport differs).
#pragma once

#include <functional>

#include "distributed/communicator.hpp"

namespace distributed {

// Runs body(communicator) on `ranks` threads at once, each with its rank's communicator, and
// returns when every one has returned. An exception thrown by a rank is rethrown here (the
// lowest rank's) once all have ended; a rank that throws while the others wait in a
// collective leaves them waiting, so bodies should fail together as the real ranks do.
void run_threaded_ranks(int ranks, const std::function<void(const Communicator&)>& body);

}  // namespace distributed
