#include "importers/goal.hpp"

#include "importers/goal_graph.hpp"
#include "importers/goal_parser.hpp"
#include "importers/goal_program.hpp"

namespace importers {

namespace {

void append(std::vector<pdl::Diagnostic>& to, std::vector<pdl::Diagnostic>&& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace

// Three stages, each only on the success of the one before: the text into a schedule, the
// schedule into a checked task graph, the graph into PDL.
ImportResult read_goal(const ImportInput& input, const ImportLimits& limits) {
  ImportResult result;
  Holdings holdings(input, limits);
  goal::Parsed parsed = goal::parse_schedule(input, limits, holdings);
  append(result.diagnostics, std::move(parsed.diagnostics));
  if (pdl::has_errors(result.diagnostics)) return result;
  goal::Built built = goal::build_graph(input, parsed.schedule);
  append(result.diagnostics, std::move(built.diagnostics));
  if (pdl::has_errors(result.diagnostics)) return result;
  goal::Written written = goal::write_program(input, parsed.schedule, built.graph, holdings.max_program_bytes());
  if (written.refusal) {
    result.diagnostics.push_back(std::move(*written.refusal));
    return result;
  }
  Imported imported;
  imported.program = std::move(written.program);
  imported.notes = std::move(parsed.notes);
  append(imported.notes, std::move(built.notes));
  result.imported = std::move(imported);
  return result;
}

}  // namespace importers
