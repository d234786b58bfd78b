#include "importers/formats.hpp"

#include <algorithm>
#include <array>

#include "importers/goal.hpp"
#include "importers/located.hpp"
#include "importers/otf2.hpp"
#include "importers/wfformat.hpp"

namespace importers {

namespace {

ImportResult read_goal_schedule(const ImportInput& input, const ImportLimits& limits, const ReadOptions&) {
  return read_goal(input, limits);
}

// A JSON document is read whole: a cut one is refused at once, at the end of the part held.
ImportResult read_wfformat_instance(const ImportInput& input, const ImportLimits& limits, const ReadOptions& options) {
  if (input.cut()) {
    Place end{input.text.size(), 1 + static_cast<std::size_t>(std::ranges::count(input.text, '\n'))};
    return {std::nullopt, {diagnose(input, end, pdl::Severity::Error, cut_input_reason(input, limits))}};
  }
  // The reader's budget is what the input leaves of the command's (the command holds at most half
  // of it: docs/import.md), never 0, which would mean none.
  ImportLimits reader_limits = limits;
  if (limits.memory_budget_bytes > 0) {
    reader_limits.memory_budget_bytes -= std::min(limits.memory_budget_bytes - 1, input.text.size());
  }
  return import_wfformat(input.text, input.filename, WfFormatOptions{.keep_auxiliary = options.keep_auxiliary},
                         reader_limits);
}

#ifdef PDL_SCALE_HAVE_OTF2
// The command holds the anchor file's bytes; the OTF2 library reads the trace from its path.
ImportResult read_otf2_trace(const ImportInput& input, const ImportLimits& limits, const ReadOptions&) {
  return read_otf2(input, limits);
}
#endif

constexpr std::array kFormats{
    Format{"goal", "a GOAL schedule of LogGOPSim, LLAMP or ATLAHS (num_ranks, rank blocks of calc, send, recv)",
           read_goal_schedule},
    Format{"wfformat", "a WfCommons workflow instance in WfFormat 1.5 (JSON: tasks, their files and measured runtimes)",
           read_wfformat_instance},
#ifdef PDL_SCALE_HAVE_OTF2
    Format{"otf2", "an OTF2 trace of an MPI program, as Score-P writes it (FILE: its traces.otf2)", read_otf2_trace},
#endif
};

}  // namespace

std::span<const Format> formats() { return kFormats; }

const Format* format_named(std::string_view name) {
  const auto found = std::ranges::find(kFormats, name, &Format::name);
  return found == kFormats.end() ? nullptr : &*found;
}

std::string format_names() {
  std::string names;
  for (const Format& format : kFormats) names += (names.empty() ? "" : ", ") + std::string(format.name);
  return names;
}

}  // namespace importers
