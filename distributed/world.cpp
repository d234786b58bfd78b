#include "distributed/world.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#ifdef PDL_SCALE_HAVE_MPI
#include "distributed/mpi_communicator.hpp"
#endif

namespace distributed {

namespace {

int environment_number(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return 0;
  // Not a whole number in int's range: no launcher's count.
  int number = 0;
  const char* end = value + std::strlen(value);
  const auto [stop, error] = std::from_chars(value, end, number);
  return error == std::errc() && stop == end ? number : 0;
}

}  // namespace

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    if (const int ranks = environment_number(name); ranks > 0) return ranks;
  }
  // PMIx (srun --mpi=pmix, Open MPI's own launcher) names the rank even where it gives no size.
  if (std::getenv("PMIX_RANK") != nullptr) return 1;
  return 0;
}

bool built_with_mpi() {
#ifdef PDL_SCALE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

World::World(std::unique_ptr<Communicator> communicator, bool started_mpi)
    : communicator_(std::move(communicator)), started_mpi_(started_mpi) {}

World::World(World&& other) noexcept : communicator_(std::move(other.communicator_)), started_mpi_(other.started_mpi_) {
  other.started_mpi_ = false;
}

World& World::operator=(World&& other) noexcept {
  if (this != &other) {
    communicator_ = std::move(other.communicator_);
    started_mpi_ = other.started_mpi_;
    other.started_mpi_ = false;
  }
  return *this;
}

World World::start(int* argc, char*** argv) {
  const int ranks = launched_ranks();
#ifdef PDL_SCALE_HAVE_MPI
  if (ranks > 0) return World(start_mpi(argc, argv), true);
#else
  (void)argc;
  (void)argv;
  if (ranks > 1) {
    throw std::runtime_error("started as " + std::to_string(ranks) +
                             " MPI ranks, but this pdl-scale was built without MPI (docs/scale-out.md)");
  }
#endif
  return World(std::make_unique<SingleProcess>(), false);
}

void World::abort_job(int status) const {
#ifdef PDL_SCALE_HAVE_MPI
  if (started_mpi_ && communicator_ && !communicator_->alone()) abort_mpi(status);
#else
  (void)status;
#endif
}

World::~World() {
#ifdef PDL_SCALE_HAVE_MPI
  if (started_mpi_) {
    communicator_.reset();
    end_mpi();
  }
#endif
}

}  // namespace distributed
