// The Communicator of an MPI job (compiled only when the build has MPI).
#pragma once

#include <memory>

#include "distributed/communicator.hpp"

namespace distributed {

// MPI_Init_thread with MPI_THREAD_MULTIPLE and a communicator over MPI_COMM_WORLD. Throws
// std::runtime_error when MPI gives less than MPI_THREAD_SERIALIZED.
std::unique_ptr<Communicator> start_mpi(int* argc, char*** argv);
// MPI_Finalize, once every communicator start_mpi made is destroyed.
void end_mpi();
// MPI_Abort(MPI_COMM_WORLD, status): every rank ends.
[[noreturn]] void abort_mpi(int status);

}  // namespace distributed
