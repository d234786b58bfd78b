// Checked models built in code, for tests and benchmarks that need a program without the
// front end: the paper's section 5.1 example and the pieces to assemble others.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

namespace test_support {

using models::Expr;

inline models::RuntimeSpec spec(models::DistKind kind, std::vector<double> params) {
  models::RuntimeSpec result;
  result.kind = kind;
  for (double v : params) result.params.push_back(Expr::constant(v));
  return result;
}
// ERLANG(k, scale): k phases of mean `scale` each (PDL's convention).
inline models::RuntimeSpec erlang(double k, double scale) { return spec(models::DistKind::Erlang, {k, scale}); }
inline models::RuntimeSpec exponential(double mean) { return spec(models::DistKind::Exponential, {mean}); }
inline models::RuntimeSpec fixed(double value) { return spec(models::DistKind::Deterministic, {value}); }

inline models::PatternNode phase_ref(const std::string& name) {
  models::PatternNode node;
  node.kind = models::PatternNode::Kind::PhaseRef;
  node.phase = name;
  return node;
}

inline models::PatternNode repeat(models::PatternNode body, Expr count) {
  models::PatternNode node;
  node.kind = models::PatternNode::Kind::Repeat;
  node.count = std::move(count);
  node.children = {std::move(body)};
  return node;
}

inline models::PatternNode sequence(std::vector<models::PatternNode> children) {
  models::PatternNode node;
  node.kind = models::PatternNode::Kind::Sequence;
  node.children = std::move(children);
  return node;
}

inline models::PatternNode sync_point() {
  models::PatternNode node;
  node.kind = models::PatternNode::Kind::Sync;
  return node;
}

// A phase of `units` equal tasks (INDEPENDENT) or columns (NEIGHBOR*), volume 0.
inline models::WorkPhase unit_phase(const std::string& name, models::Scheme scheme, models::RuntimeSpec runtime,
                                    Expr units) {
  models::WorkPhase w;
  w.name = name;
  w.scheme = scheme;
  w.runtime = std::move(runtime);
  w.units = std::move(units);
  w.volume = Expr::constant(0);
  return w;
}

// MACROPIPELINE "pipe": 6 jobs through 5 Erlang-2 stages, exponential interarrival times of
// mean 1, 10 bytes per job.
inline models::WorkPhase pipeline_phase() {
  models::WorkPhase pipe;
  pipe.name = "pipe";
  pipe.scheme = models::Scheme::Macropipeline;
  pipe.runtime = erlang(2, 1);
  pipe.jobs = Expr::constant(6);
  pipe.stages = Expr::constant(5);
  pipe.interarrival = exponential(1);
  pipe.volume = Expr::constant(10);
  return pipe;
}

// FORK-JOIN "fork": 4 jobs of 7 exponential tasks of mean 1, a join of 0.25.
inline models::WorkPhase fork_join_phase() {
  models::WorkPhase fork;
  fork.name = "fork";
  fork.scheme = models::Scheme::ForkJoin;
  fork.runtime = exponential(1);
  fork.jobs = Expr::constant(4);
  fork.tasks_per_job = Expr::constant(7);
  fork.interarrival = fixed(0);
  fork.join = fixed(0.25);
  fork.volume = Expr::constant(0);
  return fork;
}

// PAIRED: 12 iterations, each waiting for iterations i-1 and i-5; Erlang-5 independent
// parts, dependent parts of 0.5 sending 8 bytes.
inline models::WorkPhase paired_phase(const std::string& name) {
  models::WorkPhase w;
  w.name = name;
  w.scheme = models::Scheme::Paired;
  w.units = Expr::constant(12);
  w.volume = Expr::constant(0);
  w.dependencies = {Expr::constant(1), Expr::constant(5)};
  w.independent = models::Subtask{erlang(5, 1), Expr::constant(0)};
  w.dependent = models::Subtask{fixed(0.5), Expr::constant(8)};
  return w;
}

// The paper's section 5.1 example: NEIGHBOR over `columns` columns, Erlang-8 tasks of mean 8,
// repeated `iterations` times with neighbour synchronisation between iterations.
inline models::Program neighbor_program(models::Scheme scheme = models::Scheme::Neighbor) {
  models::Program program;
  program.name = "neighbor";
  program.phases.emplace("w", unit_phase("w", scheme, erlang(8, 1), Expr::identifier("columns")));
  program.pattern = repeat(phase_ref("w"), Expr::identifier("iterations"));
  program.concatenations[{"w", "w"}] = models::Concatenation::Neighbor;
  return program;
}

// Bound variables on a machine of RTFactor 1.
inline models::Environment environment(std::map<std::string, double, std::less<>> values) {
  models::Environment result;
  result.values = std::move(values);
  result.values["RTFactor"] = 1.0;
  return result;
}

inline models::Environment neighbor_environment(double columns, double iterations) {
  return environment({{"columns", columns}, {"iterations", iterations}});
}

// A message-passing machine: 0.5 + 0.01 L per message, log2(P) per barrier.
inline models::Machine cluster_machine() {
  models::Machine machine = models::ideal_machine();
  machine.name = "cluster";
  machine.communication_time =
      Expr::add(Expr::constant(0.5), Expr::multiply(Expr::constant(0.01), Expr::identifier("L")));
  machine.barrier_time = Expr::call("log2", {Expr::identifier("P")});
  return machine;
}

}  // namespace test_support
