// The input files of a job of several ranks: rank 0 reads each and broadcasts what it found,
// so that every rank checks and analyses the same bytes and the file system is read once
// (docs/scale-out.md). The ranks run the same command over the same input, so they ask for the
// same files in the same order: each read is a collective.
#pragma once

#include "distributed/communicator.hpp"
#include "pdl/file_reader.hpp"

namespace app {

// pdl::read_file for a process alone; for a job, rank 0's read of every file, on every rank.
// `ranks` must outlive the reader.
pdl::FileReader rank_0_reads(const distributed::Communicator& ranks);

}  // namespace app
