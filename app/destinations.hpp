// Where a run writes (-o, --plot), checked once the inputs are loaded and before the analysis
// starts: a long run must not end in a write that fails, or in one that destroys its input.
#pragma once

#include <string>
#include <vector>

#include "app/load.hpp"
#include "app/command.hpp"

namespace app {

// The program `program_file`, every machine file, and every measured data file the program
// read on each machine (NUMERICAL, with $ARCH replaced by that machine's name).
std::vector<RunInput> run_inputs(const std::string& program_file, const std::vector<Loaded>& machines);

// Checks every file the run writes (`outputs`: -o, --plot, --tail-plot, --breakdown-plot,
// --write-fit, --validation-plot, as the command declares them): each can be written
// (check_output_path); none lands on a regular file the run reads (the program, the machine
// files, measured data: run_inputs; and `declared`, the command's further inputs: other
// programs, the runs of --calibrate and --validate, every --set-file; the same device and inode,
// so that ./prog.pdl, a symbolic or a hard link to the program are caught; a device or FIFO is
// written through, not replaced, so it may be both); and no two are the same file (except a
// character device such as /dev/null, which takes both one after the other).
// Refused ("pdl-scale: error: ...") at the first problem. In a job of several ranks (`ranks`,
// null for a process alone) only rank 0 writes, so rank 0's file system decides and every rank
// returns its verdict (a collective): no rank leaves while the others go on.
Check check_destinations(const std::vector<OutputFile>& outputs, const std::vector<RunInput>& declared,
                         const std::string& program_file, const std::vector<Loaded>& machines,
                         const distributed::Communicator* ranks);

}  // namespace app
