// The generic workload model of a PDL program (docs/pdl.md): plain values built by
// pdl::check and consumed by the scalers. Quantities that depend on variables or on the
// processor count stay symbolic (models::Expr) until the scaler binds them.
//
// Every default is explicit here: a field a scheme does not use is empty (std::nullopt or an
// empty vector), a field it uses always holds a value, filled from the documented default
// when the program did not give one (docs/pdl.md).
#pragma once

#include "models/collective.hpp"
#include "models/expr.hpp"
#include "models/measurements.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace models {

// A place in a PDL or machine file; line and column are 1-based, 0 when built in.
struct SourceLocation {
  std::string file;
  std::size_t line = 0;
  std::size_t column = 0;
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// ---- Runtime distributions, kept symbolic ------------------------------------------------
// Parameter conventions (docs/pdl.md, "Distributions"); all times are in the program's time
// unit and may mention RTFactor:
//   Deterministic   params = {value}
//   Exponential     params = {mean}
//   Erlang          params = {k, scale}: k phases each of mean scale (mean k*scale)
//   GeneralErlang   params = {m1, m2, ...}: stages in series with the given means
//   HyperExponential params = {p1, m1, p2, m2, ...}: branch probabilities and means
//   Uniform         params = {low, high}
//   Normal          params = {mu, sigma}: the normal truncated at 0
//   LogNormal       params = {median, sigma[, shift]}: ln(X - shift) ~ N(ln median, sigma)
//   Weibull         params = {shape k, scale[, shift]}: P(X - shift > x) = exp(-(x/scale)^k)
//   Pareto          params = {alpha, scale}: P(X > x) = (scale/x)^alpha from x = scale, alpha > 2
//   PhaseType       params = alpha (order values) then the subgenerator row by row (order^2)
//   Mixture         params = {w1, w2, ...}, components = the mixed distributions
//   Samples         params = the measured runtimes
//   Histogram       params = {v1, w1, v2, w2, ...}: values and weights
//   Numerical       file = the file name as written, "$ARCH" not yet substituted;
//                   measurements = the data pdl::check read from it for its machine (empty
//                   when the check was told not to read data files), smoothing = how the
//                   distribution is built from them (NUMERICAL('file', SMOOTHED))
enum class DistKind {
  Deterministic,
  Exponential,
  Erlang,
  GeneralErlang,
  HyperExponential,
  Uniform,
  Normal,
  LogNormal,
  Weibull,
  Pareto,
  PhaseType,
  Mixture,
  Samples,
  Histogram,
  Numerical,
};

struct RuntimeSpec {
  DistKind kind = DistKind::Deterministic;
  std::vector<Expr> params;
  std::vector<RuntimeSpec> components;         // Mixture only
  std::size_t order = 0;                       // PhaseType only: the number of phases
  std::string file;                            // Numerical only
  Smoothing smoothing = Smoothing::Empirical;  // Numerical only
  std::optional<Measurements> measurements;    // Numerical only
  SourceLocation location;
  friend bool operator==(const RuntimeSpec&, const RuntimeSpec&) = default;
};

// The keyword of a distribution as PDL writes it, e.g. "ERLANG".
const char* to_string(DistKind kind);
// The runtime as PDL text, e.g. "ERLANG(100, 1*RTFactor)".
std::string to_string(const RuntimeSpec& spec);
// DETERMINISTIC(0): the default of optional runtimes (interarrival, join).
RuntimeSpec zero_runtime();
// The NUMERICAL file name with every "$ARCH" replaced by the machine's name.
std::string resolve_file(const std::string& file, const std::string& machine_name);

// ---- Execution pattern ----------------------------------------------------------------
struct PatternNode {
  enum class Kind {
    Sequence,      // children in order
    Repeat,        // children[0] repeated `count` times
    Alternatives,  // children[i] with probability probabilities[i]
    PhaseRef,      // the phase `phase`
    Sync,          // a global synchronisation (barrier) of all processors
    Collective,    // `collective` of `volume` bytes among all processors (BROADCAST(v), ...)
  };
  Kind kind = Kind::Sequence;
  std::string phase;
  Expr count;
  std::vector<Expr> probabilities;
  std::vector<PatternNode> children;
  CollectiveOperation collective = CollectiveOperation::Broadcast;  // Collective only
  Expr volume;                                                      // Collective only: bytes
  SourceLocation location;
};

// The pattern as PDL text, e.g. "w1 -> SYNC -> w2{iterations}".
std::string to_string(const PatternNode& pattern);

// ---- Phases ----------------------------------------------------------------------------
enum class Scheme { Independent, Neighbor, NeighborTorus, Macropipeline, ForkJoin, Paired, Arbitrary };
enum class Scheduling { Block, Cyclic, Dynamic };
enum class Shape { Vector, Grid };
// How a NEIGHBOR phase distributes its problem: in blocks of columns over a row of processors
// (1D, the default), or a GRID's points in rectangular blocks over a pr x pc grid of
// processors (2D; docs/pdl.md, "2-D decomposition").
enum class Decomposition { OneD, TwoD };

const char* to_string(Scheme scheme);                // "NEIGHBOR-TORUS"
const char* to_string(Scheduling scheduling);        // "BLOCK"
const char* to_string(Shape shape);                  // "GRID"
const char* to_string(Decomposition decomposition);  // "2D"

// VECTOR A(n) or GRID B(h, w).
struct ProblemSize {
  Shape shape = Shape::Vector;
  std::string name;
  std::vector<Expr> extents;  // {n} or {h, w}
  SourceLocation location;
};

// One of the two subtasks of a PAIRED loop iteration.
struct Subtask {
  RuntimeSpec runtime;
  Expr volume;  // bytes sent with the subtask's result (default 0)
};

// A task of an ARBITRARY phase.
struct Task {
  std::string name;
  RuntimeSpec runtime;
  std::optional<Expr> processor;  // ON PROCESSOR k: runs on processor k mod p (0-based)
  SourceLocation location;
};

// A dependency of an ARBITRARY phase: `to` starts after `from` has finished.
struct Arc {
  std::string from;
  std::string to;
  Expr volume;  // bytes sent along the arc (default 0)
  SourceLocation location;
};

struct WorkPhase {
  std::string name;
  Scheme scheme = Scheme::Independent;

  // Runtime of one task (INDEPENDENT), one column (NEIGHBOR*), one stage of one job
  // (MACROPIPELINE), one forked task (FORK-JOIN). Empty for PAIRED and ARBITRARY.
  std::optional<RuntimeSpec> runtime;
  // INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS, PAIRED.
  std::optional<ProblemSize> problem_size;
  // The unit count derived from the problem size: tasks (INDEPENDENT: n or h*w), columns
  // (NEIGHBOR*: n or w; a 2-D NEIGHBOR phase: h*w grid points) or loop iterations (PAIRED: n
  // or w). Empty for the other schemes.
  std::optional<Expr> units;
  // Bytes exchanged by the phase (default 0): per task / per column boundary / per job; in a
  // 2-D NEIGHBOR phase per grid point along a block edge.
  Expr volume;
  // NEIGHBOR: DECOMPOSITION IS 1D (default) or 2D (only with a GRID).
  Decomposition decomposition = Decomposition::OneD;
  // INDEPENDENT and PAIRED: BLOCK (default), CYCLIC, DYNAMIC. NEIGHBOR*: always BLOCK.
  Scheduling scheduling = Scheduling::Block;

  // PAIRED
  std::vector<Expr> dependencies;  // DEPENDENCY IS d1, d2, ...
  std::optional<Subtask> independent;
  std::optional<Subtask> dependent;

  // MACROPIPELINE and FORK-JOIN
  std::optional<Expr> jobs;
  std::optional<RuntimeSpec> interarrival;
  std::optional<Expr> stages;         // MACROPIPELINE
  std::optional<Expr> tasks_per_job;  // FORK-JOIN
  std::optional<RuntimeSpec> join;    // FORK-JOIN: the drain collecting a job (default 0)
  // FORK-JOIN: bytes processor 0 sends each other processor with tasks to start a job (docs/
  // semantics.md F7); none: no release message, the job starts on the previous drain (F4).
  std::optional<Expr> release_volume;
  // INDEPENDENT, NEIGHBOR*, MACROPIPELINE, FORK-JOIN: the bytes each task moves to and from its
  // node's memory (docs/semantics.md M16); none: no memory bound.
  std::optional<Expr> memory_volume;
  // INDEPENDENT and FORK-JOIN with SCHEDULING IS DYNAMIC: a master that hands out each task
  // (docs/semantics.md I6): its time per task, and the bytes of its message handing one out
  // (none: 0); COMMUNICATION VOLUME is then each task's result to the master.
  std::optional<RuntimeSpec> master_service;
  std::optional<Expr> dispatch_volume;

  // ARBITRARY
  std::vector<Task> tasks;
  std::vector<Arc> arcs;

  SourceLocation location;
};

struct SequentialPhase {
  std::string name;
  RuntimeSpec runtime;
  SourceLocation location;
};

using Phase = std::variant<WorkPhase, SequentialPhase>;

// How two consecutive work phases with no SYNC between them are joined (docs/pdl.md).
enum class Concatenation { Neighbor, NeighborTorus, Torus, Serial, Barrier };
const char* to_string(Concatenation concatenation);

struct Variable {
  std::string name;
  std::optional<Expr> default_value;  // empty: a value must be given when binding
  SourceLocation location;
};

struct Program {
  std::string name;
  std::string file;
  std::vector<Variable> variables;  // in declaration order; defaults may use earlier ones
  PatternNode pattern;
  std::map<std::string, Phase> phases;
  std::map<std::pair<std::string, std::string>, Concatenation> concatenations;
};

// True when the program declares a variable `name` (VARIABLE name ...;).
bool declares_variable(const Program& program, const std::string& name);

// The expressions that set how much work the program holds: problem sizes, unit counts,
// DEPENDENCY distances, JOBS, STAGES, TASKS PER JOB, and the pattern's repetition counts and
// branch probabilities. Not the rates: runtimes, volumes, a master's service, placements.
std::vector<const Expr*> size_expressions(const Program& program);

// nullptr when there is no work phase of that name.
const WorkPhase* find_work_phase(const Program& program, const std::string& name);
const SequentialPhase* find_sequential_phase(const Program& program, const std::string& name);
// nullptr when the pair needs no concatenation or has none.
const Concatenation* find_concatenation(const Program& program, const std::string& first, const std::string& second);

}  // namespace models
