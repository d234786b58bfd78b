// Phases: the clauses each kind of phase and each parallelization scheme takes, their
// values, and the task graph of ARBITRARY phases.
#include "pdl/check_program.hpp"

#include "models/measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

namespace pdl::detail {

namespace {

namespace x3 = boost::spirit::x3;

// Names of the clauses, as the messages spell them.
constexpr std::string_view kScheme = "PARALLELIZATION SCHEME";
constexpr std::string_view kSubtaskRuntime = "SUBTASK RUNTIME";
constexpr std::string_view kRuntime = "RUNTIME";
constexpr std::string_view kInterarrival = "INTERARRIVAL TIME";
constexpr std::string_view kJoin = "JOIN RUNTIME";
constexpr std::string_view kVolume = "COMMUNICATION VOLUME";
constexpr std::string_view kJobs = "JOBS";
constexpr std::string_view kStages = "STAGES";
constexpr std::string_view kTasksPerJob = "TASKS PER JOB";
constexpr std::string_view kRelease = "RELEASE VOLUME";
constexpr std::string_view kMemoryVolume = "SUBTASK MEMORY VOLUME";
constexpr std::string_view kMasterService = "MASTER SERVICE";
constexpr std::string_view kDispatchVolume = "DISPATCH VOLUME";
constexpr std::string_view kProblemSize = "PROBLEM SIZE";
constexpr std::string_view kDependency = "DEPENDENCY";
constexpr std::string_view kScheduling = "SCHEDULING";
constexpr std::string_view kDecomposition = "DECOMPOSITION";
constexpr std::string_view kTask = "TASK";
constexpr std::string_view kArc = "ARC";
constexpr std::string_view kIndependentBlock = "INDEPENDENT SUBTASK";
constexpr std::string_view kDependentBlock = "DEPENDENT SUBTASK";

std::string_view clause_name(const ast::Clause& clause) {
  struct Visitor {
    std::string_view operator()(const ast::SchemeClause&) const { return kScheme; }
    std::string_view operator()(const ast::SchedulingClause&) const { return kScheduling; }
    std::string_view operator()(const ast::DecompositionClause&) const { return kDecomposition; }
    std::string_view operator()(const ast::DistClause& c) const {
      switch (c.role) {
        case ast::DistRole::SubtaskRuntime: return kSubtaskRuntime;
        case ast::DistRole::Runtime: return kRuntime;
        case ast::DistRole::Interarrival: return kInterarrival;
        case ast::DistRole::JoinRuntime: return kJoin;
        case ast::DistRole::MasterService: return kMasterService;
      }
      return kRuntime;
    }
    std::string_view operator()(const ast::ExprClause& c) const {
      switch (c.role) {
        case ast::ExprRole::CommunicationVolume: return kVolume;
        case ast::ExprRole::Jobs: return kJobs;
        case ast::ExprRole::Stages: return kStages;
        case ast::ExprRole::TasksPerJob: return kTasksPerJob;
        case ast::ExprRole::ReleaseVolume: return kRelease;
        case ast::ExprRole::MemoryVolume: return kMemoryVolume;
        case ast::ExprRole::DispatchVolume: return kDispatchVolume;
      }
      return kVolume;
    }
    std::string_view operator()(const ast::ProblemSizeClause&) const { return kProblemSize; }
    std::string_view operator()(const ast::DependencyClause&) const { return kDependency; }
    std::string_view operator()(const ast::TaskClause&) const { return kTask; }
    std::string_view operator()(const ast::ArcClause&) const { return kArc; }
    std::string_view operator()(const ast::SubtaskBlock& b) const {
      return b.kind == ast::SubtaskKind::Independent ? kIndependentBlock : kDependentBlock;
    }
  };
  return boost::apply_visitor(Visitor{}, clause);
}

const x3::position_tagged& clause_node(const ast::Clause& clause) {
  return boost::apply_visitor(
      [](const auto& node) -> const x3::position_tagged& {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, x3::forward_ast<ast::SubtaskBlock>>)
          return node.get();
        else
          return node;
      },
      clause);
}

// What each scheme needs and accepts (docs/pdl.md, "Parallelization schemes").
struct SchemeRules {
  std::vector<std::string_view> required;
  std::vector<std::string_view> optional;
};

SchemeRules rules_for(models::Scheme scheme) {
  switch (scheme) {
    case models::Scheme::Independent:
      return {{kSubtaskRuntime, kProblemSize}, {kVolume, kScheduling, kMemoryVolume, kMasterService, kDispatchVolume}};
    case models::Scheme::Neighbor:
    case models::Scheme::NeighborTorus:
      return {{kSubtaskRuntime, kProblemSize}, {kVolume, kScheduling, kDecomposition, kMemoryVolume}};
    case models::Scheme::Macropipeline:
      return {{kSubtaskRuntime, kJobs, kStages, kInterarrival}, {kVolume, kMemoryVolume}};
    case models::Scheme::ForkJoin:
      return {{kSubtaskRuntime, kJobs, kTasksPerJob, kInterarrival},
              {kVolume, kJoin, kScheduling, kRelease, kMemoryVolume, kMasterService, kDispatchVolume}};
    case models::Scheme::Paired:
      return {{kDependency, kIndependentBlock, kDependentBlock, kProblemSize}, {kVolume, kScheduling}};
    case models::Scheme::Arbitrary: return {{kTask}, {kArc}};
  }
  return {};
}

std::string join_names(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

class PhaseChecker {
 public:
  explicit PhaseChecker(ProgramContext& context) : context_(context), reporter_(context.reporter()) {}

  void phases(const ast::Program& program, models::Program& model) {
    for (const ast::Phase& phase : program.phases) {
      const std::string& name = phase.head.name.name;
      if (const auto it = defined_.find(name); it != defined_.end()) {
        reporter_.error(phase.head.name, fmt::format("duplicate phase '{}' (first defined at line {})", name,
                                                     reporter_.location(*it->second).line));
        continue;
      }
      defined_[name] = &phase.head.name;
      if (phase.head.kind == ast::PhaseKind::Sequential) {
        model.phases.emplace(name, sequential_phase(phase));
      } else {
        model.phases.emplace(name, work_phase(phase));
      }
    }
  }

 private:
  models::SequentialPhase sequential_phase(const ast::Phase& phase) {
    models::SequentialPhase model;
    model.name = phase.head.name.name;
    model.location = reporter_.location(phase.head);
    bool have_runtime = false;
    for (const ast::Clause& clause : phase.clauses) {
      const auto* d = boost::get<ast::DistClause>(&clause);
      if (d != nullptr && d->role == ast::DistRole::Runtime) {
        if (have_runtime) {
          reporter_.error(*d, fmt::format("duplicate RUNTIME in sequential phase '{}'", model.name));
          continue;
        }
        have_runtime = true;
        model.runtime = check_distribution(d->distribution, context_);
      } else {
        reporter_.error(clause_node(clause),
                        fmt::format("{} is not part of a sequential phase: it has only RUNTIME IS distribution;",
                                    clause_name(clause)));
      }
    }
    if (!have_runtime) {
      reporter_.error(phase.head, fmt::format("sequential phase '{}' needs RUNTIME IS distribution;", model.name));
    }
    return model;
  }

  models::WorkPhase work_phase(const ast::Phase& phase) {
    models::WorkPhase model;
    model.name = phase.head.name.name;
    model.location = reporter_.location(phase.head);
    model.volume = models::Expr::constant(0.0);

    // The scheme decides what the other clauses may be.
    const ast::SchemeClause* scheme = scheme_clause(phase, model.name);
    if (scheme == nullptr) {
      reporter_.error(
          phase.head,
          fmt::format("work phase '{}' has no PARALLELIZATION SCHEME IS ...; (INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS, "
                      "MACROPIPELINE, FORK-JOIN, PAIRED or ARBITRARY)",
                      model.name));
      return model;
    }
    model.scheme = scheme->scheme;
    const SchemeRules rules = rules_for(model.scheme);
    const char* scheme_name = models::to_string(model.scheme);

    const std::set<std::string_view> seen = scheme_clauses(phase, rules, model);
    for (std::string_view required : rules.required) {
      if (seen.count(required) == 0) {
        reporter_.error(phase.head,
                        fmt::format("{} phase '{}' needs {}", scheme_name, model.name,
                                    required == kTask ? std::string("at least one TASK") : std::string(required)));
      }
    }
    farm_clauses(phase, model);
    // Defaults made explicit.
    if ((model.scheme == models::Scheme::ForkJoin) && !model.join) model.join = models::zero_runtime();
    if (model.scheme == models::Scheme::Arbitrary) arbitrary_graph(phase, model);
    if (decomposition_ != nullptr) two_dimensional(model);
    decomposition_ = nullptr;
    if (model.problem_size) units(model);
    measured_tail(phase, model);
    return model;
  }

  // Measured runtimes (NUMERICAL) never exceed their largest sample, but N fresh tasks exceed
  // the largest of M samples with probability N / (N + M) (all N + M exchangeable: the largest is
  // among the N that often). Where that is above 1% for the tasks of one instance, the slowest of
  // them, which a parallel phase waits for, rests on that one value: warned (docs/pdl.md,
  // "Warnings"), with the way out.
  void measured_tail(const ast::Phase& phase, const models::WorkPhase& model) {
    if (!model.runtime || !model.runtime->measurements || model.runtime->measurements->values.empty()) return;
    if (model.runtime->smoothing == models::Smoothing::Tail) return;  // fitted beyond the largest sample
    const std::optional<models::Expr>& draws = model.scheme == models::Scheme::ForkJoin        ? model.tasks_per_job
                                               : model.scheme == models::Scheme::Macropipeline ? std::nullopt
                                                                                               : model.units;
    if (!draws) return;
    const models::Evaluation n = models::evaluate(*draws, context_.environment());
    if (!n.ok() || !(n.value >= 2)) return;  // symbolic (P, an unset variable), or one task
    const models::Measurements& data = *model.runtime->measurements;
    const models::SampleSummary summary = models::summarise(data.values, data.weights);
    const double chance = n.value / (n.value + summary.effective_count);
    if (chance <= 0.01) return;
    for (const ast::Clause& clause : phase.clauses) {
      const auto* d = boost::get<ast::DistClause>(&clause);
      if (d == nullptr || d->role != ast::DistRole::SubtaskRuntime) continue;
      reporter_.warning(
          d->distribution,
          fmt::format(
              "the {:g} tasks of an instance of phase '{}' are drawn from {:g} measured runtimes ('{}'): run side "
              "by side, one of them would exceed the largest measured ({:g}) with probability about {:.0f}%, "
              "which measured data cannot, so the slowest of them rests on that one value; a law fitted to "
              "the data ('pdl-scale fit {}') or NUMERICAL('{}', TAIL) extends the tail",
              n.value, model.name, summary.effective_count, data.file, summary.maximum, 100.0 * chance, data.file,
              data.file));
    }
  }

  // A master (MASTER SERVICE) hands out a DYNAMIC pool's tasks only: refused with a static
  // schedule, and DISPATCH VOLUME only with a master. A FORK-JOIN's DYNAMIC pool without a
  // master sends no results to its drain and gets no release (semantics.md F3), so a COMMUNICATION
  // VOLUME or RELEASE VOLUME there would be dropped unseen; with one, the results go to the master
  // and its dispatch messages are the DISPATCH VOLUME's, so a RELEASE VOLUME is still refused.
  void farm_clauses(const ast::Phase& phase, const models::WorkPhase& model) {
    const bool dynamic = model.scheduling == models::Scheduling::Dynamic;
    const bool master = model.master_service.has_value();
    for (const ast::Clause& clause : phase.clauses) {
      const std::string_view name = clause_name(clause);
      std::string why;
      if (name == kMasterService && !dynamic) {
        why = "a master hands out the tasks of a DYNAMIC pool: give SCHEDULING IS DYNAMIC";
      } else if (name == kDispatchVolume && !master) {
        why = "it is the size of a master's message handing out a task: give MASTER SERVICE IS ...;";
      } else if (model.scheme == models::Scheme::ForkJoin && dynamic && name == kRelease) {
        why = master ? "a master's pool hands out each task with DISPATCH VOLUME instead"
                     : "its pool's tasks receive no release in this model; leave it out or schedule BLOCK or CYCLIC";
      } else if (model.scheme == models::Scheme::ForkJoin && dynamic && name == kVolume && !master) {
        why =
            "its pool's tasks send no results in this model; give the pool a MASTER SERVICE (the results go to "
            "the master), leave it out or schedule BLOCK or CYCLIC";
      }
      if (why.empty()) continue;
      reporter_.error(clause_node(clause),
                      fmt::format("{} is not used by {} phase '{}'{}: {}", name, models::to_string(model.scheme),
                                  model.name, dynamic ? " with SCHEDULING IS DYNAMIC" : "", why));
    }
  }

  // The first PARALLELIZATION SCHEME of the phase (later ones are reported), or null.
  const ast::SchemeClause* scheme_clause(const ast::Phase& phase, const std::string& phase_name) {
    const ast::SchemeClause* scheme = nullptr;
    for (const ast::Clause& clause : phase.clauses) {
      if (const auto* s = boost::get<ast::SchemeClause>(&clause)) {
        if (scheme != nullptr)
          reporter_.error(*s, fmt::format("duplicate PARALLELIZATION SCHEME in phase '{}'", phase_name));
        else
          scheme = s;
      }
    }
    return scheme;
  }

  // Checks the clauses other than the scheme against its rules and adds the accepted ones to
  // the model; returns the names of the clauses the phase gives.
  std::set<std::string_view> scheme_clauses(const ast::Phase& phase, const SchemeRules& rules,
                                            models::WorkPhase& model) {
    std::set<std::string_view> seen;
    for (const ast::Clause& clause : phase.clauses) {
      const std::string_view name = clause_name(clause);
      if (name == kScheme) continue;
      const auto& node = clause_node(clause);
      const bool allowed = std::find(rules.required.begin(), rules.required.end(), name) != rules.required.end() ||
                           std::find(rules.optional.begin(), rules.optional.end(), name) != rules.optional.end();
      if (!allowed) {
        report_not_allowed(node, name, rules, model);
        continue;
      }
      if (name != kTask && name != kArc && !seen.insert(name).second) {
        reporter_.error(node, fmt::format("duplicate {} in phase '{}'", name, model.name));
        continue;
      }
      seen.insert(name);
      work_clause(clause, model);
      if (name == kVolume && model.scheme == models::Scheme::Paired) {
        // The paper's Figure 12 gives one, so it is accepted; what crosses processors is the
        // dependent subtask's volume.
        reporter_.warning(node, fmt::format("the COMMUNICATION VOLUME of PAIRED phase '{}' is not used: a PAIRED phase "
                                            "sends its DEPENDENT SUBTASK's volume between dependent iterations",
                                            model.name));
      }
    }
    return seen;
  }

  void report_not_allowed(const x3::position_tagged& node, std::string_view name, const SchemeRules& rules,
                          const models::WorkPhase& model) {
    if (name == kRuntime) {
      reporter_.error(node, fmt::format("a work phase gives SUBTASK RUNTIME IS ...; (RUNTIME IS is for "
                                        "sequential phases and subtask blocks)"));
    } else {
      std::vector<std::string_view> accepted = rules.required;
      accepted.insert(accepted.end(), rules.optional.begin(), rules.optional.end());
      reporter_.error(node, fmt::format("{} is not used by {} phases; phase '{}' may give {}", name,
                                        models::to_string(model.scheme), model.name, join_names(accepted)));
    }
  }

  void work_clause(const ast::Clause& clause, models::WorkPhase& model) {
    if (const auto* c = boost::get<ast::DistClause>(&clause)) {
      models::RuntimeSpec spec = check_distribution(c->distribution, context_);
      switch (c->role) {
        case ast::DistRole::SubtaskRuntime: model.runtime = std::move(spec); break;
        case ast::DistRole::Interarrival: model.interarrival = std::move(spec); break;
        case ast::DistRole::JoinRuntime: model.join = std::move(spec); break;
        case ast::DistRole::MasterService: model.master_service = std::move(spec); break;
        case ast::DistRole::Runtime: break;
      }
    } else if (const auto* e = boost::get<ast::ExprClause>(&clause)) {
      expression_clause(*e, model);
    } else if (const auto* s = boost::get<ast::SchedulingClause>(&clause)) {
      scheduling_clause(*s, model);
    } else if (const auto* d = boost::get<ast::DecompositionClause>(&clause)) {
      model.decomposition = d->decomposition;
      if (d->decomposition == models::Decomposition::TwoD) decomposition_ = d;
    } else if (const auto* p = boost::get<ast::ProblemSizeClause>(&clause)) {
      problem_size_clause(*p, model);
    } else if (const auto* dep = boost::get<ast::DependencyClause>(&clause)) {
      for (const ast::Expression& distance : *dep) {
        model.dependencies.push_back(
            context_.quantity(distance, Requirement::PositiveInteger, "a DEPENDENCY distance"));
      }
    } else if (const auto* block = boost::get<x3::forward_ast<ast::SubtaskBlock>>(&clause)) {
      subtask_block(block->get(), model);
    } else if (const auto* task = boost::get<ast::TaskClause>(&clause)) {
      task_clause(*task, model);
    } else if (const auto* arc = boost::get<ast::ArcClause>(&clause)) {
      arc_clause(*arc, model);
    }
  }

  void expression_clause(const ast::ExprClause& e, models::WorkPhase& model) {
    switch (e.role) {
      case ast::ExprRole::CommunicationVolume:
        model.volume = context_.quantity(e.value, Requirement::NonNegative, "the COMMUNICATION VOLUME");
        break;
      case ast::ExprRole::Jobs:
        model.jobs = context_.quantity(e.value, Requirement::PositiveInteger, "the number of JOBS");
        break;
      case ast::ExprRole::Stages:
        model.stages = context_.quantity(e.value, Requirement::PositiveInteger, "the number of STAGES");
        break;
      case ast::ExprRole::TasksPerJob:
        model.tasks_per_job = context_.quantity(e.value, Requirement::PositiveInteger, "TASKS PER JOB");
        break;
      case ast::ExprRole::ReleaseVolume:
        model.release_volume = context_.quantity(e.value, Requirement::NonNegative, "the RELEASE VOLUME");
        break;
      case ast::ExprRole::MemoryVolume:
        model.memory_volume = context_.quantity(e.value, Requirement::NonNegative, "the SUBTASK MEMORY VOLUME");
        break;
      case ast::ExprRole::DispatchVolume:
        model.dispatch_volume = context_.quantity(e.value, Requirement::NonNegative, "the DISPATCH VOLUME");
        break;
    }
  }

  void scheduling_clause(const ast::SchedulingClause& s, models::WorkPhase& model) {
    model.scheduling = s.scheduling;
    if (model.scheme == models::Scheme::Paired && model.scheduling == models::Scheduling::Dynamic) {
      reporter_.error(s,
                      "PAIRED phases keep every iteration on its processor: SCHEDULING IS BLOCK or CYCLIC "
                      "(dynamic scheduling of dependent iterations is not modelled)");
    }
    if ((model.scheme == models::Scheme::Neighbor || model.scheme == models::Scheme::NeighborTorus) &&
        model.scheduling != models::Scheduling::Block) {
      reporter_.error(s, fmt::format("{} phases distribute columns in contiguous blocks: only SCHEDULING IS "
                                     "BLOCK is possible",
                                     models::to_string(model.scheme)));
    }
  }

  void problem_size_clause(const ast::ProblemSizeClause& p, models::WorkPhase& model) {
    models::ProblemSize size;
    size.shape = p.shape;
    size.name = p.name.name;
    size.location = reporter_.location(p);
    const std::size_t expected = size.shape == models::Shape::Vector ? 1 : 2;
    if (p.extents.size() != expected) {
      reporter_.error(p, size.shape == models::Shape::Vector
                             ? fmt::format("VECTOR {} takes one extent, VECTOR {}(n); got {}", size.name, size.name,
                                           p.extents.size())
                             : fmt::format("GRID {} takes two extents, GRID {}(height, width); got {}", size.name,
                                           size.name, p.extents.size()));
      return;
    }
    for (const ast::Expression& extent : p.extents) {
      size.extents.push_back(context_.quantity(extent, Requirement::PositiveInteger, "a problem-size extent"));
    }
    model.problem_size = std::move(size);
  }

  void task_clause(const ast::TaskClause& task, models::WorkPhase& model) {
    models::Task t;
    t.name = task.name.name;
    t.runtime = check_distribution(task.runtime, context_);
    if (task.processor) {
      t.processor =
          context_.quantity(task.processor->value, Requirement::NonNegativeInteger, "the processor of a task");
    }
    t.location = reporter_.location(task);
    model.tasks.push_back(std::move(t));
  }

  void arc_clause(const ast::ArcClause& arc, models::WorkPhase& model) {
    if (arc.chain.size() < 2) {
      reporter_.error(arc, "an ARC joins at least two tasks: ARC a -> b;");
      return;
    }
    models::Expr volume = models::Expr::constant(0.0);
    if (arc.volume) volume = context_.quantity(arc.volume->value, Requirement::NonNegative, "the VOLUME of an arc");
    for (std::size_t i = 0; i + 1 < arc.chain.size(); ++i) {
      models::Arc a;
      a.from = arc.chain[i].name;
      a.to = arc.chain[i + 1].name;
      a.volume = volume;
      a.location = reporter_.location(arc.chain[i + 1]);
      model.arcs.push_back(std::move(a));
      arc_nodes_.push_back({&arc.chain[i], &arc.chain[i + 1]});
    }
  }

  void subtask_block(const ast::SubtaskBlock& block, models::WorkPhase& model) {
    const bool independent = block.kind == ast::SubtaskKind::Independent;
    const char* label = independent ? "INDEPENDENT SUBTASK" : "DEPENDENT SUBTASK";
    models::Subtask subtask;
    subtask.volume = models::Expr::constant(0.0);
    bool have_runtime = false;
    bool have_volume = false;
    for (const ast::Clause& clause : block.clauses) {
      const auto* d = boost::get<ast::DistClause>(&clause);
      const auto* e = boost::get<ast::ExprClause>(&clause);
      if (d != nullptr && d->role == ast::DistRole::Runtime) {
        if (have_runtime) reporter_.error(*d, fmt::format("duplicate RUNTIME in the {} block", label));
        have_runtime = true;
        subtask.runtime = check_distribution(d->distribution, context_);
      } else if (e != nullptr && e->role == ast::ExprRole::CommunicationVolume) {
        if (have_volume) reporter_.error(*e, fmt::format("duplicate COMMUNICATION VOLUME in the {} block", label));
        have_volume = true;
        subtask.volume = context_.quantity(e->value, Requirement::NonNegative, "the COMMUNICATION VOLUME");
      } else {
        reporter_.error(clause_node(clause), fmt::format("{} is not part of a subtask block: it has RUNTIME IS "
                                                         "...; and optionally COMMUNICATION VOLUME IS ...;",
                                                         clause_name(clause)));
      }
    }
    if (!have_runtime) reporter_.error(block, fmt::format("the {} block needs RUNTIME IS distribution;", label));
    (independent ? model.independent : model.dependent) = std::move(subtask);
  }

  // A 2-D decomposition splits a GRID's rows and columns over a processor grid without
  // wrap-around (docs/semantics.md, N6-N8).
  void two_dimensional(const models::WorkPhase& model) {
    if (model.scheme == models::Scheme::NeighborTorus) {
      reporter_.error(*decomposition_, fmt::format("DECOMPOSITION IS 2D is for NEIGHBOR phases: a 2-D block "
                                                   "decomposition has no wrap-around, so phase '{}' cannot be "
                                                   "NEIGHBOR-TORUS",
                                                   model.name));
    }
    if (model.problem_size && model.problem_size->shape != models::Shape::Grid) {
      reporter_.error(*decomposition_, fmt::format("DECOMPOSITION IS 2D needs PROBLEM SIZE IS GRID name(height, "
                                                   "width); phase '{}' has VECTOR {}",
                                                   model.name, model.problem_size->name));
    }
  }

  void units(models::WorkPhase& model) {
    const models::ProblemSize& size = *model.problem_size;
    if (size.extents.empty()) return;
    if (size.shape == models::Shape::Vector) {
      model.units = size.extents[0];
    } else if (model.scheme == models::Scheme::Independent || model.decomposition == models::Decomposition::TwoD) {
      model.units = models::Expr::multiply(size.extents[0], size.extents[1]);  // every grid point
    } else {
      model.units = size.extents[1];  // columns
    }
  }

  void arbitrary_graph(const ast::Phase& phase, const models::WorkPhase& model) {
    std::map<std::string, std::size_t> index;
    for (const ast::Clause& clause : phase.clauses) {
      if (const auto* task = boost::get<ast::TaskClause>(&clause)) {
        if (!index.emplace(task->name.name, index.size()).second) {
          reporter_.error(task->name, fmt::format("duplicate task '{}' in phase '{}'", task->name.name, model.name));
        }
      }
    }
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> successors(index.size());  // (task, arc)
    bool complete = true;
    for (std::size_t a = 0; a < arc_nodes_.size(); ++a) {
      const auto [from, to] = arc_nodes_[a];
      for (const ast::Identifier* end : {from, to}) {
        if (index.count(end->name) == 0) {
          reporter_.error(*end, fmt::format("undefined task '{}' in phase '{}'", end->name, model.name));
          complete = false;
        }
      }
      if (complete) successors[index[from->name]].push_back({index[to->name], a});
    }
    if (complete) find_cycle(successors, index, model.name);
    arc_nodes_.clear();
  }

  // Iterative depth-first search (a generated graph may be deep): reports one cycle.
  void find_cycle(const std::vector<std::vector<std::pair<std::size_t, std::size_t>>>& successors,
                  const std::map<std::string, std::size_t>& index, const std::string& phase) {
    std::vector<std::string> names(index.size());
    for (const auto& [name, i] : index) names[i] = name;
    enum Color : char { White, Grey, Black };
    std::vector<Color> color(successors.size(), White);
    for (std::size_t root = 0; root < successors.size(); ++root) {
      if (color[root] != White) continue;
      std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};  // (task, next successor)
      color[root] = Grey;
      while (!stack.empty()) {
        auto& [task, next] = stack.back();
        if (next == successors[task].size()) {
          color[task] = Black;
          stack.pop_back();
          continue;
        }
        const auto [successor, arc] = successors[task][next++];
        if (color[successor] == Grey) {
          std::string cycle;
          bool in_cycle = false;
          for (const auto& frame : stack) {
            if (frame.first == successor) in_cycle = true;
            if (in_cycle) cycle += names[frame.first] + " -> ";
          }
          cycle += names[successor];
          reporter_.error(*arc_nodes_[arc].second,
                          fmt::format("the task graph of ARBITRARY phase '{}' has a cycle: {}", phase, cycle));
          return;
        }
        if (color[successor] == White) {
          color[successor] = Grey;
          stack.push_back({successor, 0});
        }
      }
    }
  }

  ProgramContext& context_;
  Reporter& reporter_;
  std::map<std::string, const ast::Identifier*> defined_;
  std::vector<std::pair<const ast::Identifier*, const ast::Identifier*>> arc_nodes_;  // of the current phase
  const ast::DecompositionClause* decomposition_ = nullptr;  // DECOMPOSITION IS 2D of the current phase
};

}  // namespace

void check_phases(const ast::Program& program, models::Program& model, ProgramContext& context) {
  PhaseChecker(context).phases(program, model);
}

}  // namespace pdl::detail
