#include "importers/goal_program.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>

namespace importers::goal {

namespace {

char letter(OpKind kind) {
  switch (kind) {
    case OpKind::Calc: return 'c';
    case OpKind::Send: return 's';
    case OpKind::Recv: return 'r';
  }
  return 'c';
}

void append_name(std::string& out, char kind, const Operation& op) {
  fmt::format_to(std::back_inserter(out), "{}{}_{}", kind, op.rank, op.position);
}

// A calc's nanoseconds as microseconds, written exactly (1500 -> 1.5, 7 -> 0.007).
std::string microseconds(std::uint64_t nanoseconds) {
  const std::uint64_t whole = nanoseconds / 1000, thousandths = nanoseconds % 1000;
  if (thousandths == 0) return fmt::format("{}", whole);
  std::string fraction = fmt::format("{:03}", thousandths);
  while (fraction.back() == '0') fraction.pop_back();
  return fmt::format("{}.{}", whole, fraction);
}

// A send, a receive and a receive's start take no time of their own: the machine prices their
// message (its overheads, latency and port time), semantics.md M4, M12.
void append_task(std::string& out, char kind, const Operation& op) {
  out += "  TASK ";
  append_name(out, kind, op);
  fmt::format_to(std::back_inserter(out), " RUNTIME IS DETERMINISTIC({}) ON PROCESSOR {};\n",
                 kind == 'c' ? microseconds(op.amount) : std::string("0"), op.rank);
}

void append_arc(std::string& out, char from_kind, const Operation& from, char to_kind, const Operation& to,
                std::uint64_t volume) {
  out += "  ARC ";
  append_name(out, from_kind, from);
  out += " -> ";
  append_name(out, to_kind, to);
  if (volume > 0) fmt::format_to(std::back_inserter(out), " VOLUME {}", volume);
  out += ";\n";
}

// A file name as a comment or a PDL string may hold it: on one line, quotes doubled.
std::string printable(std::string_view text, bool in_string) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte < 0x20 || byte == 0x7f ? '?' : c;
    if (in_string && c == '\'') out += '\'';
  }
  return out;
}

std::string header(const ImportInput& input, const Schedule& schedule, const Graph& graph) {
  std::size_t counts[3] = {0, 0, 0};
  for (const Operation& op : schedule.operations) ++counts[static_cast<int>(op.kind)];
  const std::filesystem::path path(input.filename);
  std::string name = path.stem().string();
  if (name.empty()) name = "goal";
  return fmt::format(
      "// Imported from {0} (docs/import.md), a GOAL schedule of LogGOPSim:\n"
      "// {1} ranks, {2} operations ({3} calc, {4} send, {5} recv), {6} messages.\n"
      "// Times are in microseconds: GOAL gives a calc's time in nanoseconds, so calc T is DETERMINISTIC(T/1000).\n"
      "// A send or a recv is a task of no time on its rank, and a message an ARC from the send to the recv with\n"
      "// the bytes sent as VOLUME, which the machine prices (examples/machines/loggopsim.machine: LogGOPSim's\n"
      "// defaults). Rank r runs on processor r: analyse the program on {1} processors.\n"
      "// Task names: c calc, s send, r recv, p the start of a recv that an irequires names; then R_K for the\n"
      "// K-th operation of the block of rank R.\n"
      "PROGRAM NAME IS '{7}';\n"
      "EXECUTION PATTERN IS schedule;\n\n"
      "WORK PHASE schedule IS:\n"
      "  PARALLELIZATION SCHEME IS ARBITRARY;\n",
      printable(path.filename().string(), false), schedule.ranks, schedule.operations.size(), counts[0], counts[1],
      counts[2], graph.messages, printable(name, true));
}

class ProgramWriter {
 public:
  ProgramWriter(const Schedule& schedule, const Graph& graph) : schedule_(schedule), graph_(graph) {}

  // Every arc whose head the program declares at `key`, in order.
  void arcs_into(std::string& out, std::uint64_t key) {
    const std::size_t operations = schedule_.operations.size();
    for (; next_arc_ < graph_.arcs.size(); ++next_arc_) {
      const Arc& arc = graph_.arcs[next_arc_];
      if (declaration_key(graph_, arc.to, operations) != key) return;
      const auto [from_kind, from] = node(arc.from);
      const auto [to_kind, to] = node(arc.to);
      append_arc(out, from_kind, *from, to_kind, *to, arc.volume);
    }
  }

 private:
  std::pair<char, const Operation*> node(std::uint32_t index) const {
    const std::size_t operations = schedule_.operations.size();
    if (index < operations) {
      const Operation& op = schedule_.operations[index];
      return {letter(op.kind), &op};
    }
    return {'p', &schedule_.operations[graph_.started[index - operations]]};
  }

  const Schedule& schedule_;
  const Graph& graph_;
  std::size_t next_arc_ = 0;
};

}  // namespace

std::size_t task_bytes(const Operation& operation) {
  std::string line;
  append_task(line, letter(operation.kind), operation);
  return line.size();
}

std::size_t arc_bytes(const Operation& from, const Operation& to) {
  std::string line;
  append_arc(line, letter(from.kind), from, letter(to.kind), to, 0);
  return line.size();
}

Written write_program(const ImportInput& input, const Schedule& schedule, const Graph& graph,
                      std::size_t max_program_bytes) {
  Written written;
  std::string& out = written.program;
  out = header(input, schedule, graph);
  ProgramWriter writer(schedule, graph);
  for (std::uint32_t i = 0; i < schedule.operations.size(); ++i) {
    const Operation& op = schedule.operations[i];
    if (i == 0 || op.rank != schedule.operations[i - 1].rank)
      fmt::format_to(std::back_inserter(out), "  // rank {}\n", op.rank);
    if (graph.start_of[i] != kNone) {
      append_task(out, 'p', op);
      writer.arcs_into(out, 2 * std::uint64_t{i});
    }
    append_task(out, letter(op.kind), op);
    writer.arcs_into(out, 2 * std::uint64_t{i} + 1);
    if (i + 1 == schedule.operations.size()) out += "END;\n";
    if (out.size() > max_program_bytes) {
      written.refusal = diagnose(input, op.place, pdl::Severity::Error, program_too_large(max_program_bytes));
      written.program.clear();
      return written;
    }
  }
  return written;
}

}  // namespace importers::goal
