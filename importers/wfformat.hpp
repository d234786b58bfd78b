// The WfCommons reader: a workflow instance in WfFormat 1.5 (github.com/wfcommons/WfFormat), as
// the WfInstances repository holds Pegasus and Makeflow executions, made into a PDL program of
// one ARBITRARY phase (every task with its measured runtime, pinned to a processor of its own),
// the measured runtimes per task category as NUMERICAL data files, and the measured execution as
// a runs file for --validate (docs/import.md).
#pragma once

#include "importers/imported.hpp"

#include <array>
#include <string_view>

namespace importers {

struct WfFormatOptions {
  // Keep Pegasus's auxiliary jobs (staging, directory creation, clean-up, registration) as tasks.
  // Without them, each dropped job's parents become the parents of its children, so the order
  // it imposed is kept.
  bool keep_auxiliary = true;
};

// The names of Pegasus's auxiliary jobs begin with one of these (compared without regard to
// case), as Pegasus's planner names them (its Refiner's stage_in_, stage_out_, stage_inter_ and
// register_; create_dir_; clean_up_; stage_worker_) and as WfCommons' Pegasus parser recognises
// them (cleanup_). A task whose "type" is "auxiliary" or "transfer" (instances before WfFormat
// 1.5 carried one) is auxiliary too.
inline constexpr std::array<std::string_view, 8> kAuxiliaryPrefixes{
    "stage_in_", "stage_out_", "stage_inter_", "stage_worker_", "create_dir_", "cleanup_", "clean_up_", "register_"};

// Reads the instance `text` (named `file_name` in diagnostics; the data and runs files are named
// after its stem, the name without its directory and ".json"). Every problem is a diagnostic at
// its place in the text: errors (at most 20) refuse the instance, warnings do not.
ImportResult import_wfformat(std::string_view text, std::string_view file_name, const WfFormatOptions& options = {},
                             const ImportLimits& limits = {});

}  // namespace importers
