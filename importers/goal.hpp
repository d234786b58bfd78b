// The GOAL reader: a schedule of LogGOPSim (and of LLAMP and ATLAHS, which write it) as one
// ARBITRARY work phase, each rank's calc, send and recv operations its tasks, each matched
// message an ARC that the machine prices (docs/import.md).
#pragma once

#include "importers/imported.hpp"

namespace importers {

ImportResult read_goal(const ImportInput& input, const ImportLimits& limits);

}  // namespace importers
