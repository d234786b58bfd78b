#include "models/dump.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace models {

namespace {

std::string number(double value) { return fmt::format("{}", value); }

// " // = 400" when the expression is not a plain number and can be computed now.
std::string value_comment(const Expr& expr, const Environment& environment, std::string_view unit = "") {
  if (expr.kind == Expr::Kind::Number) return {};
  const Evaluation value = evaluate(expr, environment);
  if (!value.ok()) return {};
  return fmt::format("  // = {}{}", number(value.value), unit);
}

bool bind_parameters(RuntimeSpec& spec, const Environment& environment) {
  for (Expr& p : spec.params) {
    const Evaluation value = evaluate(p, environment);
    if (!value.ok()) return false;
    p = Expr::constant(value.value);
  }
  for (RuntimeSpec& component : spec.components) {
    if (!bind_parameters(component, environment)) return false;
  }
  return true;
}

// "  // = ERLANG(100, 1)" when binding changes the text.
std::string bound_runtime(const RuntimeSpec& spec, const Environment& environment) {
  RuntimeSpec bound = spec;
  if (!bind_parameters(bound, environment)) return {};
  const std::string text = to_string(bound);
  return text == to_string(spec) ? std::string() : "  // = " + text;
}

void runtime_line(std::string& out, std::string_view indent, std::string_view clause, const RuntimeSpec& spec,
                  const Environment& environment, const std::string& machine_name) {
  out += fmt::format("{}{} IS {};", indent, clause, to_string(spec));
  if (spec.kind == DistKind::Numerical) {
    out += fmt::format("  // file '{}'", resolve_file(spec.file, machine_name));
    if (spec.measurements) {
      const SampleSummary s = summarise(spec.measurements->values, spec.measurements->weights);
      out += fmt::format(": {} {}, mean {:.6g}, cv {:.4g}", s.count,
                         spec.measurements->weights.empty() ? "samples" : "histogram rows", s.mean, s.cv);
    }
  } else {
    out += bound_runtime(spec, environment);
  }
  out += '\n';
}

void expr_line(std::string& out, std::string_view indent, std::string_view clause, const Expr& expr,
               const Environment& environment, std::string_view unit = "") {
  out += fmt::format("{}{} IS {};{}\n", indent, clause, to_string(expr), value_comment(expr, environment, unit));
}

// PROBLEM SIZE IS ...; with the units it makes at these values.
void problem_size_line(std::string& out, const WorkPhase& phase, const Environment& env) {
  const ProblemSize& size = *phase.problem_size;
  std::string extents;
  for (const Expr& e : size.extents) extents += (extents.empty() ? "" : ", ") + to_string(e);
  out += fmt::format("  PROBLEM SIZE IS {} {}({});", to_string(size.shape), size.name, extents);
  if (phase.units) {
    const char* unit = phase.scheme == Scheme::Independent          ? "tasks"
                       : phase.scheme == Scheme::Paired             ? "loop iterations"
                       : phase.decomposition == Decomposition::TwoD ? "grid points"
                                                                    : "columns";
    const Evaluation n = evaluate(*phase.units, env);
    if (n.ok())
      out += fmt::format("  // {} {}", number(n.value), unit);
    else
      out += fmt::format("  // {} {}", to_string(*phase.units), unit);
  }
  out += '\n';
}

void work_phase(std::string& out, const WorkPhase& phase, const Environment& env, const std::string& machine_name) {
  out += fmt::format("WORK PHASE {} IS:\n", phase.name);
  out += fmt::format("  PARALLELIZATION SCHEME IS {};\n", to_string(phase.scheme));
  if (phase.runtime) runtime_line(out, "  ", "SUBTASK RUNTIME", *phase.runtime, env, machine_name);
  if (phase.problem_size) problem_size_line(out, phase, env);
  // Only a 2-D decomposition is written: 1-D programs dump as before.
  if (phase.decomposition == Decomposition::TwoD) {
    out += fmt::format("  DECOMPOSITION IS {};\n", to_string(phase.decomposition));
  }
  if (!phase.dependencies.empty()) {
    std::string list;
    for (const Expr& d : phase.dependencies) list += (list.empty() ? "" : ", ") + to_string(d);
    out += fmt::format("  DEPENDENCY IS {};\n", list);
  }
  const auto subtask = [&](const char* label, const Subtask& s) {
    out += fmt::format("  {} SUBTASK IS:\n", label);
    runtime_line(out, "    ", "RUNTIME", s.runtime, env, machine_name);
    expr_line(out, "    ", "COMMUNICATION VOLUME", s.volume, env, " bytes");
    out += "  END;\n";
  };
  if (phase.independent) subtask("INDEPENDENT", *phase.independent);
  if (phase.dependent) subtask("DEPENDENT", *phase.dependent);
  if (phase.jobs) expr_line(out, "  ", "JOBS", *phase.jobs, env);
  if (phase.stages) expr_line(out, "  ", "STAGES", *phase.stages, env);
  if (phase.tasks_per_job) expr_line(out, "  ", "TASKS PER JOB", *phase.tasks_per_job, env);
  if (phase.interarrival) runtime_line(out, "  ", "INTERARRIVAL TIME", *phase.interarrival, env, machine_name);
  if (phase.join) runtime_line(out, "  ", "JOIN RUNTIME", *phase.join, env, machine_name);
  if (phase.release_volume) expr_line(out, "  ", "RELEASE VOLUME", *phase.release_volume, env, " bytes");
  if (phase.memory_volume) expr_line(out, "  ", "SUBTASK MEMORY VOLUME", *phase.memory_volume, env, " bytes");
  if (phase.master_service) runtime_line(out, "  ", "MASTER SERVICE", *phase.master_service, env, machine_name);
  if (phase.dispatch_volume) expr_line(out, "  ", "DISPATCH VOLUME", *phase.dispatch_volume, env, " bytes");
  for (const Task& task : phase.tasks) {
    out += fmt::format("  TASK {} RUNTIME IS {}", task.name, to_string(task.runtime));
    if (task.processor) out += " ON PROCESSOR " + to_string(*task.processor);
    out += ";\n";
  }
  for (const Arc& arc : phase.arcs) {
    out += fmt::format("  ARC {} -> {} VOLUME {};\n", arc.from, arc.to, to_string(arc.volume));
  }
  if (phase.scheme != Scheme::Arbitrary) expr_line(out, "  ", "COMMUNICATION VOLUME", phase.volume, env, " bytes");
  if (phase.scheme == Scheme::Independent || phase.scheme == Scheme::Neighbor ||
      phase.scheme == Scheme::NeighborTorus || phase.scheme == Scheme::Paired || phase.scheme == Scheme::ForkJoin) {
    out += fmt::format("  SCHEDULING IS {};\n", to_string(phase.scheduling));
  }
  out += "END;\n";
}

}  // namespace

std::string dump(const Program& program, const Machine& machine, const Environment& environment,
                 const std::map<std::string, double>& given, const DumpNotes& notes) {
  std::string out;
  out += fmt::format("// The normalized model of {} on machine '{}'{}.\n", program.file, machine.name,
                     notes.produced_by.empty() ? std::string() : " (" + notes.produced_by + ")");
  out += fmt::format("PROGRAM NAME IS '{}';\n", program.name);
  out += fmt::format("EXECUTION PATTERN IS {};\n", to_string(program.pattern));
  if (!program.variables.empty()) out += '\n';
  for (const Variable& variable : program.variables) {
    const auto value = environment.values.find(variable.name);
    const std::string origin = given.count(variable.name) != 0 ? notes.given_by
                               : variable.default_value        ? "default " + to_string(*variable.default_value)
                                                               : "unbound";
    if (value != environment.values.end()) {
      out += fmt::format("VARIABLE {} = {};  // {}\n", variable.name, number(value->second), origin);
    } else {
      out += fmt::format("VARIABLE {};  // {}\n", variable.name, origin);
    }
  }
  for (const auto& [name, phase] : program.phases) {
    out += '\n';
    if (const auto* work = std::get_if<WorkPhase>(&phase)) {
      work_phase(out, *work, environment, machine.name);
    } else {
      const auto& sequential = std::get<SequentialPhase>(phase);
      out += fmt::format("SEQUENTIAL PHASE {} IS:\n", name);
      runtime_line(out, "  ", "RUNTIME", sequential.runtime, environment, machine.name);
      out += "END;\n";
    }
  }
  if (!program.concatenations.empty()) {
    out += "\nCONCATENATION IS:\n";
    for (const auto& [pair, kind] : program.concatenations) {
      out += fmt::format("  {}, {} : {};\n", pair.first, pair.second, to_string(kind));
    }
    out += "END;\n";
  }
  out += "\n// The machine:\n";
  std::string machine_text = dump(machine);
  std::size_t start = 0;
  while (start < machine_text.size()) {
    const std::size_t end = machine_text.find('\n', start);
    out += "// " + machine_text.substr(start, end - start) + '\n';
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string dump(const Machine& machine) {
  std::string out;
  out += fmt::format("MACHINE NAME IS '{}';{}\n", machine.name, machine.file.empty() ? "  // built in" : "");
  for (const auto& [name, value] : machine.constants) {
    const auto range = machine.constant_ranges.find(name);
    if (range == machine.constant_ranges.end())
      out += fmt::format("VARIABLE {} = {};\n", name, number(value));
    else
      out += fmt::format("VARIABLE {} = {} .. {};\n", name, number(range->second.first), number(range->second.second));
  }
  out += fmt::format("RTFACTOR IS {};\n", number(machine.rt_factor));
  for (const auto& [type, bytes] : machine.sizes) out += fmt::format("SIZEOF {} IS {};\n", type, number(bytes));
  out += fmt::format("COMMUNICATION IS {};\n", to_string(machine.communication));
  out += fmt::format("TOPOLOGY IS {};\n", to_string(machine.topology));
  out += fmt::format("COMMUNICATION TIME IS {};\n", to_string(machine.communication_time));
  out += fmt::format("MESSAGE OVERHEAD IS {};\n", to_string(machine.message_overhead));
  out += fmt::format("BARRIER TIME IS {};\n", to_string(machine.barrier_time));
  if (machine.contention) out += fmt::format("CONTENTION IS {};\n", to_string(*machine.contention));
  if (machine.eager_limit) out += fmt::format("EAGER LIMIT IS {};\n", to_string(*machine.eager_limit));
  if (machine.port_time) out += fmt::format("PORT TIME IS {};\n", to_string(*machine.port_time));
  if (machine.ports) out += fmt::format("PORTS IS {};\n", to_string(*machine.ports));
  if (machine.port_sharing != PortSharing::FirstComeFirstServed) {
    out += fmt::format("PORT SHARING IS {};\n", to_string(machine.port_sharing));
  }
  if (machine.nodes) {
    const Nodes& nodes = *machine.nodes;
    out += fmt::format("NODE IS:\n  PROCESSORS IS {};\n", to_string(nodes.processors));
    if (nodes.cores) out += fmt::format("  CORES IS {};\n", to_string(*nodes.cores));
    if (nodes.placement == Placement::List) {
      std::vector<std::string> groups;
      for (const auto& ranks : nodes.listed) groups.push_back(fmt::format("({})", fmt::join(ranks, ", ")));
      out += fmt::format("  PLACEMENT IS {};\n", fmt::join(groups, ", "));
    } else {
      out += fmt::format("  PLACEMENT IS {};\n", to_string(nodes.placement));
    }
    if (nodes.communication_time) {
      out += fmt::format("  COMMUNICATION TIME IS {};\n", to_string(*nodes.communication_time));
    }
    if (nodes.message_overhead) out += fmt::format("  MESSAGE OVERHEAD IS {};\n", to_string(*nodes.message_overhead));
    if (nodes.memory_bandwidth) out += fmt::format("  MEMORY BANDWIDTH IS {};\n", to_string(*nodes.memory_bandwidth));
    out += "END;\n";
  }
  for (const MessageSegment& segment : machine.segments) {
    out += fmt::format("SEGMENT FROM {} IS:\n", to_string(segment.from));
    out += fmt::format("  COMMUNICATION TIME IS {};\n", to_string(segment.communication_time));
    out += fmt::format("  MESSAGE OVERHEAD IS {};\n", to_string(segment.message_overhead));
    if (segment.port_time) out += fmt::format("  PORT TIME IS {};\n", to_string(*segment.port_time));
    if (segment.protocol) out += fmt::format("  PROTOCOL IS {};\n", to_string(*segment.protocol));
    out += "END;\n";
  }
  for (const auto& [operation, algorithm] : machine.collectives) {
    out += fmt::format("COLLECTIVE {} IS {};\n", to_string(operation), to_string(algorithm));
  }
  return out;
}

}  // namespace models
