// Starting and ending the run's processes: alone, or as the ranks of an MPI job when a
// launcher (mpirun, mpiexec, srun) started this process as one (docs/scale-out.md).
#pragma once

#include <memory>

#include "distributed/communicator.hpp"

namespace distributed {

// The ranks of the job this process was launched into, from what the launcher puts in the
// environment (Open MPI's OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK, Slurm's SLURM_NTASKS
// under srun --mpi); 0 when no launcher started it (a plain run).
int launched_ranks();

// True when this build can run as an MPI job (configured with PDL_SCALE_MPI and MPI found).
bool built_with_mpi();

class World {
 public:
  // MPI is started (MPI_Init_thread, MPI_THREAD_MULTIPLE) when a launcher started this
  // process and the build has MPI; otherwise the world is this one process. Throws
  // std::runtime_error when a launcher started a job of several ranks and the build has no MPI
  // (each rank would do the whole run and print it), or when MPI cannot give the threads the
  // queues need.
  static World start(int* argc, char*** argv);

  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  ~World();  // ends MPI when it was started

  const Communicator& communicator() const { return *communicator_; }

  // Ends every rank of the job at once with `status` (MPI_Abort), for a failure one rank may
  // meet alone while the others wait in a collective; returns when the world is one process.
  void abort_job(int status) const;

 private:
  World(std::unique_ptr<Communicator> communicator, bool started_mpi);
  std::unique_ptr<Communicator> communicator_;
  bool started_mpi_ = false;
};

}  // namespace distributed
