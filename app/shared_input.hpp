// The input files of a job of several ranks: rank 0 reads each and broadcasts what it found,
// so that every rank checks and analyses the same bytes and the file system is read once
// (docs/scale-out.md). The ranks run the same command over the same input, so they ask for the
// same files in the same order: each read is a collective.
#pragma once

#include "app/usage_error.hpp"
#include "distributed/communicator.hpp"
#include "pdl/file_reader.hpp"

namespace app {

// pdl::read_file for a process alone; for a job, rank 0's read of every file, on every rank.
// `ranks` must outlive the reader.
pdl::FileReader rank_0_reads(const distributed::Communicator& ranks);

// Whether every rank was started with the same arguments (argv[0], the program's path, aside):
// the first collective of a job, before any rank can refuse or read alone. When they differ (an
// MPMD launch, a wrapper that adds an option on some ranks), every rank is refused with each
// command line and the ranks that ran it (rank 0 prints it), so that every rank exits 2 and none
// waits on a collective another rank never reaches.
Check same_arguments_on_every_rank(int argc, char** argv, const distributed::Communicator& ranks);

}  // namespace app
