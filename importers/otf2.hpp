// The OTF2 reader (Score-P's trace format): an MPI trace made into the GOAL schedule it
// describes, each rank's time between MPI calls a calc and each point-to-point message a send
// and its receive in the rank's order, and that schedule imported by the GOAL reader
// (docs/import.md, "OTF2 traces"). Built only with Debian's libopen-trace-format2-dev
// (PDL_SCALE_HAVE_OTF2); the build goes on without it and the command then lacks the format.
#pragma once

#include "importers/imported.hpp"

namespace importers {

// `input.filename` is the trace's anchor file (traces.otf2), which the OTF2 library opens with
// the definition and event files beside it; `input.text` is not read.
ImportResult read_otf2(const ImportInput& input, const ImportLimits& limits);

}  // namespace importers
