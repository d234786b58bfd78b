// The OTF2 reader: the trace's definitions and events read with the OTF2 library into one list of
// operations per MPI rank, written as a GOAL schedule, and that schedule imported by the GOAL
// reader (docs/import.md, "OTF2 traces").
#include "importers/otf2.hpp"

#include <fmt/format.h>
#include <otf2/otf2.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "importers/goal.hpp"
#include "pdl/parse.hpp"

namespace importers {

namespace {

enum class Kind { Calc, Send, Recv };

struct TraceOperation {
  Kind kind = Kind::Calc;
  std::uint64_t amount = 0;  // calc: ticks; send, recv: bytes
  std::uint32_t peer = 0;    // a world rank
  std::uint32_t tag = 0;
  std::uint64_t time = 0;  // ticks since the trace's global offset, where it ends (calc) or happens
};

// What one rank's events leave: its operations, and the computation since its last one.
struct RankState {
  std::vector<TraceOperation> operations;
  std::uint64_t accrue_from = 0;  // computation accrues from here (MPI_Init's end, else the first event)
  std::uint64_t pending = 0;      // ticks of computation not yet an operation
  std::uint64_t mpi_entered = 0;  // where the outermost MPI call began
  int mpi_depth = 0;
  bool seen = false;
  bool message_in_call = false;  // the outermost MPI call has a send or a receive
  bool finished = false;         // MPI_Finalize entered: nothing after it counts
};

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<std::uint64_t> members;
};

struct Trace {
  std::uint64_t resolution = 0;  // ticks per second
  std::uint64_t offset = 0;
  std::map<std::uint32_t, std::string> strings;
  std::map<std::uint32_t, std::string> regions;  // region -> name
  std::map<std::uint32_t, Group> groups;
  std::map<std::uint32_t, std::uint32_t> communicator_group;
  std::vector<std::uint64_t> locations;
  std::map<std::uint64_t, std::uint32_t> rank_of_location;  // from the MPI COMM_LOCATIONS group
  std::vector<RankState> ranks;
  std::size_t other_mpi_calls = 0;  // calls without a message (collectives, ...): computation
  std::uint64_t other_mpi_ticks = 0;
  std::size_t ignored_locations = 0;  // threads beside the ranks' first
  std::size_t operations = 0;
  std::size_t max_operations = 0;
  std::optional<std::string> error;  // the first problem; reading stops there
  std::string library_error;         // what the OTF2 library said last
};

Trace& trace_of(void* data) { return *static_cast<Trace*>(data); }

// The rank a location's events belong to, or null (a thread beside the rank's first, say).
RankState* rank_state(Trace& trace, OTF2_LocationRef location) {
  const auto found = trace.rank_of_location.find(location);
  return found == trace.rank_of_location.end() ? nullptr : &trace.ranks[found->second];
}

// --- definitions ---

OTF2_CallbackCode on_clock(void* data, std::uint64_t resolution, std::uint64_t offset, std::uint64_t, std::uint64_t) {
  trace_of(data).resolution = resolution;
  trace_of(data).offset = offset;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  trace_of(data).strings[self] = text != nullptr ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag, OTF2_StringRef, std::uint32_t,
                            std::uint32_t) {
  Trace& trace = trace_of(data);
  trace.regions[self] = trace.strings[name];
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, std::uint64_t,
                              OTF2_LocationGroupRef) {
  trace_of(data).locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag, std::uint32_t count, const std::uint64_t* members) {
  trace_of(data).groups[self] = Group{type, paradigm, std::vector<std::uint64_t>(members, members + count)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_communicator(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                                  OTF2_CommFlag) {
  trace_of(data).communicator_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

// --- events ---

bool is_mpi(const Trace& trace, OTF2_RegionRef region, std::string* name) {
  const auto found = trace.regions.find(region);
  if (found == trace.regions.end() || !found->second.starts_with("MPI_")) return false;
  *name = found->second;
  return true;
}

void first_event(RankState& rank, OTF2_TimeStamp time) {
  if (rank.seen) return;
  rank.seen = true;
  rank.accrue_from = time;
}

OTF2_CallbackCode on_enter(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  Trace& trace = trace_of(data);
  RankState* rank = rank_state(trace, location);
  std::string name;
  if (rank == nullptr || rank->finished) return OTF2_CALLBACK_SUCCESS;
  first_event(*rank, time);
  if (!is_mpi(trace, region, &name)) return OTF2_CALLBACK_SUCCESS;
  if (rank->mpi_depth++ > 0) return OTF2_CALLBACK_SUCCESS;
  if (time > rank->accrue_from) rank->pending += time - rank->accrue_from;
  rank->accrue_from = time;
  rank->mpi_entered = time;
  rank->message_in_call = false;
  if (name == "MPI_Finalize") rank->finished = true;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_leave(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           OTF2_RegionRef region) {
  Trace& trace = trace_of(data);
  RankState* rank = rank_state(trace, location);
  std::string name;
  if (rank == nullptr || rank->finished || !is_mpi(trace, region, &name) || rank->mpi_depth == 0) {
    return OTF2_CALLBACK_SUCCESS;
  }
  if (--rank->mpi_depth > 0) return OTF2_CALLBACK_SUCCESS;
  if (name == "MPI_Init" || name == "MPI_Init_thread") {
    rank->pending = 0;  // what came before MPI is set up is not the program's work
  } else if (!rank->message_in_call) {
    rank->pending += time - rank->mpi_entered;  // a collective, MPI_Comm_rank, ...: time the schedule keeps as work
    ++trace.other_mpi_calls;
    trace.other_mpi_ticks += time - rank->mpi_entered;
  }
  rank->accrue_from = time;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode add(Trace& trace, OTF2_LocationRef location, TraceOperation operation) {
  RankState* rank = rank_state(trace, location);
  if (rank == nullptr || rank->finished) return OTF2_CALLBACK_SUCCESS;
  first_event(*rank, operation.time);
  if (rank->mpi_depth == 0) {  // a message event outside any MPI region: its computation ends here
    rank->pending += operation.time - std::min(operation.time, rank->accrue_from);
    rank->accrue_from = operation.time;
  }
  rank->message_in_call = true;
  if (rank->pending > 0) {
    rank->operations.push_back({Kind::Calc, rank->pending, 0, 0, operation.time});
    rank->pending = 0;
  }
  rank->operations.push_back(operation);
  if ((trace.operations += 2) > trace.max_operations) {
    trace.error = fmt::format(
        "the trace has more than {} operations, more than an imported program can hold "
        "(docs/import.md); it is not read further",
        trace.max_operations);
    return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

// The world rank of `peer` in `communicator`, or an error.
std::optional<std::uint32_t> world_rank(Trace& trace, OTF2_CommRef communicator, std::uint32_t peer) {
  const auto group = trace.communicator_group.find(communicator);
  if (group != trace.communicator_group.end()) {
    const auto members = trace.groups.find(group->second);
    if (members != trace.groups.end() && members->second.type == OTF2_GROUP_TYPE_COMM_GROUP &&
        peer < members->second.members.size()) {
      return static_cast<std::uint32_t>(members->second.members[peer]);
    }
  }
  trace.error = fmt::format("a message names rank {} of communicator {}, whose members the trace does not define", peer,
                            communicator);
  return std::nullopt;
}

OTF2_CallbackCode on_message(void* data, OTF2_LocationRef location, OTF2_TimeStamp time, Kind kind, std::uint32_t peer,
                             OTF2_CommRef communicator, std::uint32_t tag, std::uint64_t bytes) {
  Trace& trace = trace_of(data);
  const std::optional<std::uint32_t> world = world_rank(trace, communicator, peer);
  if (!world) return OTF2_CALLBACK_INTERRUPT;
  return add(trace, location, {kind, bytes, *world, tag, time});
}

OTF2_CallbackCode on_send(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                          std::uint32_t receiver, OTF2_CommRef communicator, std::uint32_t tag, std::uint64_t bytes) {
  return on_message(data, location, time, Kind::Send, receiver, communicator, tag, bytes);
}

OTF2_CallbackCode on_isend(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           std::uint32_t receiver, OTF2_CommRef communicator, std::uint32_t tag, std::uint64_t bytes,
                           std::uint64_t) {
  return on_message(data, location, time, Kind::Send, receiver, communicator, tag, bytes);
}

// A receive is where it completes (MPI_Recv's return, the MPI_Wait of an MPI_Irecv): what follows
// it on the rank waits for its message, what lies between an MPI_Irecv and its completion does not.
OTF2_CallbackCode on_recv(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                          std::uint32_t sender, OTF2_CommRef communicator, std::uint32_t tag, std::uint64_t bytes) {
  return on_message(data, location, time, Kind::Recv, sender, communicator, tag, bytes);
}

OTF2_CallbackCode on_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, void* data, OTF2_AttributeList*,
                           std::uint32_t sender, OTF2_CommRef communicator, std::uint32_t tag, std::uint64_t bytes,
                           std::uint64_t) {
  return on_message(data, location, time, Kind::Recv, sender, communicator, tag, bytes);
}

OTF2_ErrorCode on_library_error(void* data, const char*, std::uint64_t, const char*, OTF2_ErrorCode code,
                                const char* format, va_list arguments) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, arguments);
  static_cast<Trace*>(data)->library_error = fmt::format("{} ({})", text, OTF2_Error_GetName(code));
  return code;
}

using Reader = std::unique_ptr<OTF2_Reader, decltype(&OTF2_Reader_Close)>;

void read_definitions(OTF2_Reader* reader, Trace& trace) {
  OTF2_GlobalDefReader* definitions = OTF2_Reader_GetGlobalDefReader(reader);
  if (definitions == nullptr) {
    trace.error = "its global definitions cannot be read";
    return;
  }
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_communicator);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, definitions, callbacks, &trace);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  std::uint64_t read = 0;
  if (OTF2_Reader_ReadAllGlobalDefinitions(reader, definitions, &read) != OTF2_SUCCESS) {
    trace.error = "its global definitions cannot be read";
  }
  OTF2_Reader_CloseGlobalDefReader(reader, definitions);
}

// Rank i is the i-th member of the MPI paradigm's COMM_LOCATIONS group (as Score-P writes it).
void assign_ranks(Trace& trace) {
  for (const auto& [reference, group] : trace.groups) {
    if (group.type != OTF2_GROUP_TYPE_COMM_LOCATIONS || group.paradigm != OTF2_PARADIGM_MPI) continue;
    for (std::size_t rank = 0; rank < group.members.size(); ++rank) {
      trace.rank_of_location.emplace(group.members[rank], static_cast<std::uint32_t>(rank));
    }
    trace.ranks.resize(group.members.size());
    break;
  }
  if (trace.ranks.empty()) {
    trace.error = "it defines no MPI ranks (no COMM_LOCATIONS group of the MPI paradigm): only MPI traces are read";
  } else if (trace.resolution == 0) {
    trace.error = "it gives no clock resolution (CLOCK_PROPERTIES)";
  }
  trace.ignored_locations = trace.locations.size() - trace.rank_of_location.size();
}

void read_events(OTF2_Reader* reader, Trace& trace) {
  for (const std::uint64_t location : trace.locations) OTF2_Reader_SelectLocation(reader, location);
  const bool local_definitions = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(reader);
  for (const std::uint64_t location : trace.locations) {
    if (local_definitions) {
      if (OTF2_DefReader* definitions = OTF2_Reader_GetDefReader(reader, location)) {
        std::uint64_t read = 0;
        OTF2_Reader_ReadAllLocalDefinitions(reader, definitions, &read);
        OTF2_Reader_CloseDefReader(reader, definitions);
      }
    }
    OTF2_Reader_GetEvtReader(reader, location);
  }
  if (local_definitions) OTF2_Reader_CloseDefFiles(reader);
  OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader);
  OTF2_GlobalEvtReaderCallbacks* callbacks = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(callbacks, on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(callbacks, on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(callbacks, on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(callbacks, on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(callbacks, on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(callbacks, on_irecv);
  OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, callbacks, &trace);
  OTF2_GlobalEvtReaderCallbacks_Delete(callbacks);
  std::uint64_t read = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalEvents(reader, events, &read);
  if (status != OTF2_SUCCESS && status != OTF2_ERROR_INTERRUPTED_BY_CALLBACK && !trace.error) {
    trace.error = fmt::format("its events cannot be read after {} of them", read);
  }
  OTF2_Reader_CloseGlobalEvtReader(reader, events);
  OTF2_Reader_CloseEvtFiles(reader);
}

// The trace read, or the reason it cannot be; `max_operations` bounds what is read.
Trace read_trace(const std::string& path, std::size_t max_operations) {
  Trace trace;
  trace.max_operations = max_operations;
  const OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(on_library_error, &trace);
  Reader reader(std::filesystem::is_regular_file(path) ? OTF2_Reader_Open(path.c_str()) : nullptr, &OTF2_Reader_Close);
  if (!reader) {
    trace.error = "it is not an OTF2 anchor file (traces.otf2) that the OTF2 library opens";
  } else {
    OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
    read_definitions(reader.get(), trace);
    if (!trace.error) assign_ranks(trace);
    if (!trace.error) read_events(reader.get(), trace);
  }
  reader.reset();
  OTF2_Error_RegisterCallback(previous, nullptr);
  // The computation after a rank's last message, up to MPI_Finalize or its last event.
  for (std::size_t r = 0; r < trace.ranks.size() && !trace.error; ++r) {
    RankState& rank = trace.ranks[r];
    if (rank.pending > 0) rank.operations.push_back({Kind::Calc, rank.pending, 0, 0, rank.accrue_from});
  }
  return trace;
}

std::uint64_t nanoseconds(const Trace& trace, std::uint64_t ticks) {
  return static_cast<std::uint64_t>(std::llround(static_cast<long double>(ticks) * 1e9L / trace.resolution));
}

// The schedule as GOAL text: each rank's operations in their order, each after the one before.
std::string goal_text(const Trace& trace, const std::string& name) {
  std::string out = fmt::format(
      "// The OTF2 trace {}, as pdl-scale import otf2 reads it (docs/import.md): each rank's operations\n"
      "// in the order of its events, each after the one before; calc is the time between MPI calls (and\n"
      "// in MPI calls without a point-to-point message) in nanoseconds; the comments give each\n"
      "// operation's time in seconds since the trace's start.\n"
      "num_ranks {}\n",
      name, trace.ranks.size());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    fmt::format_to(std::back_inserter(out), "rank {} {{\n", r);
    const std::vector<TraceOperation>& operations = trace.ranks[r].operations;
    for (std::size_t k = 0; k < operations.size(); ++k) {
      const TraceOperation& op = operations[k];
      const double seconds =
          static_cast<double>(op.time - std::min(op.time, trace.offset)) / static_cast<double>(trace.resolution);
      if (op.kind == Kind::Calc) {
        fmt::format_to(std::back_inserter(out), "l{}: calc {}", k + 1, nanoseconds(trace, op.amount));
      } else {
        fmt::format_to(std::back_inserter(out), "l{}: {} {}b {} {} tag {}", k + 1,
                       op.kind == Kind::Send ? "send" : "recv", op.amount, op.kind == Kind::Send ? "to" : "from",
                       op.peer, op.tag);
      }
      fmt::format_to(std::back_inserter(out), "  // {:.9f} s\n", seconds);
      if (k > 0) fmt::format_to(std::back_inserter(out), "l{} requires l{}\n", k + 1, k);
    }
    out += "}\n";
  }
  return out;
}

pdl::Diagnostic trace_diagnostic(const std::string& file, pdl::Severity severity, std::string message) {
  pdl::Diagnostic diagnostic;
  diagnostic.severity = severity;
  diagnostic.file = file;
  diagnostic.message = std::move(message);
  return diagnostic;
}

// What the reader decided, said once each.
void add_notes(const Trace& trace, const std::string& file, std::vector<pdl::Diagnostic>& notes) {
  if (trace.other_mpi_calls > 0) {
    notes.push_back(trace_diagnostic(
        file, pdl::Severity::Note,
        fmt::format("{} MPI call(s) without a point-to-point message (collectives, MPI_Comm_rank, ...) are kept as "
                    "computation of their measured time, {:.6f} s in all: the schedule has no collectives",
                    trace.other_mpi_calls,
                    static_cast<double>(trace.other_mpi_ticks) / static_cast<double>(trace.resolution))));
  }
  if (trace.ignored_locations > 0) {
    notes.push_back(trace_diagnostic(file, pdl::Severity::Note,
                                     fmt::format("{} location(s) that are not an MPI rank (threads beside a rank's "
                                                 "first, say) are left out",
                                                 trace.ignored_locations)));
  }
}

}  // namespace

ImportResult read_otf2(const ImportInput& input, const ImportLimits& limits) {
  const std::size_t max_program = limits.max_program_bytes > 0 ? limits.max_program_bytes : pdl::kMaxSourceBytes;
  // Every operation costs a program at least 50 bytes (its TASK line): no more can fit.
  const Trace trace = read_trace(input.filename, max_program / 50);
  if (trace.error) {
    std::string message = "cannot import the OTF2 trace: " + *trace.error;
    if (!trace.library_error.empty()) message += "; the OTF2 library says: " + trace.library_error;
    return {std::nullopt, {trace_diagnostic(input.filename, pdl::Severity::Error, std::move(message))}};
  }
  const std::filesystem::path path(input.filename);
  std::string stem = path.parent_path().filename().string();  // a trace is its directory: ping-pong-otf2
  if (stem.empty() || stem == "." || stem == "..") stem = path.stem().string();
  const std::string goal_name = stem + ".goal";
  const std::string schedule = goal_text(trace, input.filename);
  ImportResult result = read_goal({goal_name, schedule, 0}, limits);
  if (!result.imported) return result;
  result.imported->program = fmt::format(
                                 "// From the OTF2 trace {}: the GOAL schedule {} beside this program,\n"
                                 "// imported as below.\n",
                                 input.filename, goal_name) +
                             result.imported->program;
  result.imported->data_files.push_back({goal_name, schedule});
  add_notes(trace, input.filename, result.imported->notes);
  return result;
}

}  // namespace importers
