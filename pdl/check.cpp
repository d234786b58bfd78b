// The semantic pass over a PDL program (docs/pdl.md, "Checks").
#include "pdl/check.hpp"

#include "models/environment.hpp"
#include "models/validate.hpp"
#include "pdl/check_detail.hpp"
#include "pdl/measurements.hpp"
#include "pdl/parse.hpp"  // kMaxErrors

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string_view>

namespace pdl {

namespace {

using detail::Reporter;
using detail::Scope;
namespace x3 = boost::spirit::x3;

constexpr const char* kConcatenationKinds = "NEIGHBOR, NEIGHBOR-TORUS, TORUS, SERIAL, BARRIER";

// What a requirement on a constant quantity means.
enum class Requirement { NonNegative, Positive, PositiveInteger, NonNegativeInteger, Probability };

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
constexpr std::string_view kProblemSize = "PROBLEM SIZE";
constexpr std::string_view kDependency = "DEPENDENCY";
constexpr std::string_view kScheduling = "SCHEDULING";
constexpr std::string_view kTask = "TASK";
constexpr std::string_view kArc = "ARC";
constexpr std::string_view kIndependentBlock = "INDEPENDENT SUBTASK";
constexpr std::string_view kDependentBlock = "DEPENDENT SUBTASK";

std::string_view clause_name(const ast::Clause& clause) {
  struct Visitor {
    std::string_view operator()(const ast::SchemeClause&) const { return kScheme; }
    std::string_view operator()(const ast::SchedulingClause&) const { return kScheduling; }
    std::string_view operator()(const ast::DistClause& c) const {
      switch (c.role) {
        case ast::DistRole::SubtaskRuntime: return kSubtaskRuntime;
        case ast::DistRole::Runtime: return kRuntime;
        case ast::DistRole::Interarrival: return kInterarrival;
        case ast::DistRole::JoinRuntime: return kJoin;
      }
      return kRuntime;
    }
    std::string_view operator()(const ast::ExprClause& c) const {
      switch (c.role) {
        case ast::ExprRole::CommunicationVolume: return kVolume;
        case ast::ExprRole::Jobs: return kJobs;
        case ast::ExprRole::Stages: return kStages;
        case ast::ExprRole::TasksPerJob: return kTasksPerJob;
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
        if constexpr (std::is_same_v<T, x3::forward_ast<ast::SubtaskBlock>>) return node.get();
        else return node;
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
      return {{kSubtaskRuntime, kProblemSize}, {kVolume, kScheduling}};
    case models::Scheme::Neighbor:
    case models::Scheme::NeighborTorus:
      return {{kSubtaskRuntime, kProblemSize}, {kVolume, kScheduling}};
    case models::Scheme::Macropipeline:
      return {{kSubtaskRuntime, kJobs, kStages, kInterarrival}, {kVolume}};
    case models::Scheme::ForkJoin:
      return {{kSubtaskRuntime, kJobs, kTasksPerJob, kInterarrival}, {kVolume, kJoin, kScheduling}};
    case models::Scheme::Paired:
      return {{kDependency, kIndependentBlock, kDependentBlock, kProblemSize}, {kVolume, kScheduling}};
    case models::Scheme::Arbitrary:
      return {{kTask}, {kArc}};
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

class Checker {
 public:
  Checker(const Source& source, std::vector<Diagnostic>& out, const CheckOptions& options)
      : reporter_(source, out), machine_(options.machine ? *options.machine : models::ideal_machine()),
        sets_(options.sets), read_measurements_(options.read_measurements) {
    environment_.values["RTFactor"] = machine_.rt_factor;
    for (const auto& [type, bytes] : machine_.sizes) environment_.sizes[type] = bytes;
  }

  models::Program run(const ast::Program& program) {
    models::Program model;
    model.name = program.name.value;
    model.file = reporter_.source().filename();
    if (model.name.empty()) reporter_.error(program.name, "the program name is empty");
    variables(program, model);
    phases(program, model);
    if (program.patterns.empty()) {
      reporter_.error(program.name, "the program has no EXECUTION PATTERN IS ...;");
    } else {
      for (std::size_t i = 1; i < program.patterns.size(); ++i) {
        reporter_.error(program.patterns[i], "duplicate EXECUTION PATTERN: a program has exactly one");
      }
      model.pattern = pattern(program.patterns.front(), model);
    }
    concatenations(program, model);
    unused_phases(program);
    return model;
  }

 private:
  // ---- Variables --------------------------------------------------------------------------
  void variables(const ast::Program& program, models::Program& model) {
    Scope scope;
    scope.context = "in a default value, which may use the variables declared before it";
    for (const ast::VariableDecl& decl : program.variables) {
      const std::string& name = decl.name.name;
      const std::string lower_name = [&] {
        std::string s = name;
        for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        return s;
      }();
      if (lower_name == "rtfactor" || name == "P") {
        reporter_.error(decl.name, fmt::format("'{}' is built in and cannot be declared as a variable", name));
        continue;
      }
      if (scope.names.count(name) != 0) {
        reporter_.error(decl.name, fmt::format("duplicate variable '{}'", name));
        continue;
      }
      models::Variable variable;
      variable.name = name;
      variable.location = reporter_.location(decl);
      if (decl.value) {
        variable.default_value = detail::convert(decl.value->value, scope, reporter_, nullptr);
      }
      if (const auto set = sets_.find(name); set != sets_.end()) {
        environment_.values[name] = set->second;
      } else if (variable.default_value) {
        if (auto value = detail::constant_value(*variable.default_value, environment_, decl.value->value, reporter_)) {
          environment_.values[name] = *value;
        }
      }
      scope.names.insert(name);
      model.variables.push_back(std::move(variable));
    }
    program_scope_.names = scope.names;
    program_scope_.names.insert("P");
    program_scope_.names.insert("RTFactor");
    program_scope_.context = "";
  }

  models::Expr expression(const ast::Expression& e) {
    return detail::convert(e, program_scope_, reporter_, &machine_.sizes);
  }

  // Converts and, when the value is known now, checks it.
  models::Expr quantity(const ast::Expression& e, Requirement requirement, std::string_view what) {
    const std::size_t errors = reporter_.errors();
    models::Expr expr = expression(e);
    if (reporter_.errors() != errors) return expr;
    const auto value = detail::constant_value(expr, environment_, e, reporter_);
    if (!value) return expr;
    const double v = *value;
    const bool integer = std::floor(v) == v;
    switch (requirement) {
      case Requirement::NonNegative:
        if (v < 0) reporter_.error(e, fmt::format("{} must be >= 0, got {}", what, v));
        break;
      case Requirement::Positive:
        if (v <= 0) reporter_.error(e, fmt::format("{} must be > 0, got {}", what, v));
        break;
      case Requirement::PositiveInteger:
        if (v < 1 || !integer) reporter_.error(e, fmt::format("{} must be an integer >= 1, got {}", what, v));
        break;
      case Requirement::NonNegativeInteger:
        if (v < 0 || !integer) reporter_.error(e, fmt::format("{} must be an integer >= 0, got {}", what, v));
        break;
      case Requirement::Probability:
        if (v < 0 || v > 1) reporter_.error(e, fmt::format("{} must lie in [0, 1], got {}", what, v));
        break;
    }
    return expr;
  }

  // ---- Distributions ----------------------------------------------------------------------
  models::RuntimeSpec distribution(const ast::Distribution& d) {
    models::RuntimeSpec spec;
    spec.kind = d.kind;
    spec.location = reporter_.location(d);
    const char* name = models::to_string(spec.kind);
    const std::size_t errors = reporter_.errors();
    const auto expect_expression = [&](const ast::DistArg& arg) -> const ast::Expression* {
      if (const auto* e = boost::get<ast::Expression>(&arg)) return e;
      reporter_.error(d, fmt::format("{} takes numbers here, not a {}", name,
                                     boost::get<ast::StringLit>(&arg) ? "string" : "list or distribution"));
      return nullptr;
    };
    switch (spec.kind) {
      case models::DistKind::Numerical: {
        const ast::StringLit* file =
            d.args.size() == 1 || d.args.size() == 2 ? boost::get<ast::StringLit>(&d.args[0]) : nullptr;
        if (file == nullptr) {
          reporter_.error(d, "NUMERICAL takes one quoted file name, e.g. NUMERICAL('runtimes.$ARCH'), and "
                             "optionally EMPIRICAL or SMOOTHED");
          return spec;
        }
        spec.file = file->value;
        if (d.args.size() == 2) {
          const std::optional<models::Smoothing> smoothing = smoothing_keyword(d.args[1]);
          if (!smoothing) {
            reporter_.error(d, "NUMERICAL: the second argument is EMPIRICAL (the default: the measured values) "
                               "or SMOOTHED (a kernel density), e.g. NUMERICAL('runtimes.txt', SMOOTHED)");
            return spec;
          }
          spec.smoothing = *smoothing;
        }
        if (numerical_file(*file) && read_measurements_) spec.measurements = measurements(*file);
        return spec;
      }
      case models::DistKind::PhaseType: {
        const ast::ArgList* alpha = d.args.size() == 2 ? boost::get<x3::forward_ast<ast::ArgList>>(&d.args[0]) ? &boost::get<x3::forward_ast<ast::ArgList>>(&d.args[0])->get() : nullptr : nullptr;
        const ast::ArgList* rows = d.args.size() == 2 ? boost::get<x3::forward_ast<ast::ArgList>>(&d.args[1]) ? &boost::get<x3::forward_ast<ast::ArgList>>(&d.args[1])->get() : nullptr : nullptr;
        if (alpha == nullptr || rows == nullptr) {
          reporter_.error(d, "PHASETYPE takes an initial vector and a subgenerator matrix, e.g. "
                             "PHASETYPE([1, 0], [[-2, 2], [0, -3]])");
          return spec;
        }
        spec.order = alpha->size();
        for (const ast::DistArg& a : *alpha) {
          if (const ast::Expression* e = expect_expression(a)) spec.params.push_back(expression(*e));
        }
        if (rows->size() != spec.order) {
          reporter_.error(d, fmt::format("PHASETYPE: the subgenerator has {} rows, the initial vector {} entries",
                                         rows->size(), spec.order));
          return spec;
        }
        for (const ast::DistArg& r : *rows) {
          const auto* row = boost::get<x3::forward_ast<ast::ArgList>>(&r);
          if (row == nullptr || row->get().size() != spec.order) {
            reporter_.error(d, fmt::format("PHASETYPE: every row of the subgenerator needs {} entries in brackets",
                                           spec.order));
            return spec;
          }
          for (const ast::DistArg& a : row->get()) {
            if (const ast::Expression* e = expect_expression(a)) spec.params.push_back(expression(*e));
          }
        }
        break;
      }
      case models::DistKind::Mixture: {
        if (d.args.empty() || d.args.size() % 2 != 0) {
          reporter_.error(d, "MIXTURE takes pairs (weight, distribution), e.g. "
                             "MIXTURE(0.3, EXPONENTIAL(1), 0.7, ERLANG(2, 1))");
          return spec;
        }
        for (std::size_t i = 0; i < d.args.size(); i += 2) {
          if (const ast::Expression* e = expect_expression(d.args[i])) spec.params.push_back(expression(*e));
          const auto* component = boost::get<x3::forward_ast<ast::Distribution>>(&d.args[i + 1]);
          if (component == nullptr) {
            reporter_.error(d, fmt::format("MIXTURE: argument {} must be a distribution", i + 2));
            return spec;
          }
          spec.components.push_back(distribution(component->get()));
        }
        break;
      }
      default:
        for (const ast::DistArg& arg : d.args) {
          if (const ast::Expression* e = expect_expression(arg)) spec.params.push_back(expression(*e));
        }
        break;
    }
    if (reporter_.errors() != errors) return spec;
    // Check the numbers when they are all known now.
    std::vector<double> values;
    for (const models::Expr& p : spec.params) {
      const auto value = detail::constant_value(p, environment_, d, reporter_);
      if (!value) return spec;
      values.push_back(*value);
    }
    if (const std::string problem = models::check_parameters(spec.kind, spec.order, values); !problem.empty()) {
      reporter_.error(d, "invalid distribution: " + problem);
    }
    return spec;
  }

  // True when the name is usable.
  bool numerical_file(const ast::StringLit& file) {
    const std::string& name = file.value;
    if (name.empty()) {
      reporter_.error(file, "NUMERICAL: the file name is empty");
      return false;
    }
    for (std::size_t i = name.find('$'); i != std::string::npos; i = name.find('$', i + 1)) {
      if (name.compare(i, 5, "$ARCH") != 0) {
        reporter_.error(file, fmt::format("NUMERICAL: unknown substitution in '{}': only $ARCH (the machine's "
                                          "name) is replaced", name));
        return false;
      }
    }
    return true;
  }

  // EMPIRICAL or SMOOTHED, in any case, as a bare name.
  static std::optional<models::Smoothing> smoothing_keyword(const ast::DistArg& arg) {
    const auto* e = boost::get<ast::Expression>(&arg);
    if (e == nullptr || !e->rest.empty() || !e->first.rest.empty() || !e->first.first.signs.empty() ||
        !e->first.first.operand.exponents.empty()) {
      return std::nullopt;
    }
    const auto* name = boost::get<ast::Identifier>(&e->first.first.operand.base);
    if (name == nullptr) return std::nullopt;
    std::string word = name->name;
    for (char& c : word) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
    if (word == "EMPIRICAL") return models::Smoothing::Empirical;
    if (word == "SMOOTHED") return models::Smoothing::Smoothed;
    return std::nullopt;
  }

  // Reads the data file: its own errors are reported in it (file:line:col), followed by a note
  // at the NUMERICAL that asked for it.
  std::optional<models::Measurements> measurements(const ast::StringLit& file) {
    const std::string resolved = models::resolve_file(file.value, machine_.name);
    std::filesystem::path path(resolved);
    if (path.is_relative()) path = std::filesystem::path(reporter_.source().filename()).parent_path() / path;
    const std::string shown = path.lexically_normal().string();
    const std::string via = file.value == resolved
                                ? std::string()
                                : fmt::format(" ('{}' on machine '{}')", file.value, machine_.name);
    MeasurementsResult read = read_measurements(shown);
    if (!read.read_error.empty()) {
      reporter_.error(file, fmt::format("NUMERICAL: cannot read '{}'{}: {}", shown, via, read.read_error));
      return std::nullopt;
    }
    if (!read.measurements) {
      for (Diagnostic& diagnostic : read.diagnostics) reporter_.add(std::move(diagnostic));
      reporter_.note(file, fmt::format("in the measured data '{}'{} of this NUMERICAL", shown, via));
      return std::nullopt;
    }
    read.measurements->machine = machine_.name;
    return std::move(read.measurements);
  }

  // ---- Phases -----------------------------------------------------------------------------
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
        model.runtime = distribution(d->distribution);
      } else {
        reporter_.error(clause_node(clause), fmt::format(
            "{} is not part of a sequential phase: it has only RUNTIME IS distribution;", clause_name(clause)));
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
    const ast::SchemeClause* scheme = nullptr;
    for (const ast::Clause& clause : phase.clauses) {
      if (const auto* s = boost::get<ast::SchemeClause>(&clause)) {
        if (scheme != nullptr) reporter_.error(*s, fmt::format("duplicate PARALLELIZATION SCHEME in phase '{}'", model.name));
        else scheme = s;
      }
    }
    if (scheme == nullptr) {
      reporter_.error(phase.head, fmt::format(
          "work phase '{}' has no PARALLELIZATION SCHEME IS ...; (INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS, "
          "MACROPIPELINE, FORK-JOIN, PAIRED or ARBITRARY)", model.name));
      return model;
    }
    model.scheme = scheme->scheme;
    const SchemeRules rules = rules_for(model.scheme);
    const char* scheme_name = models::to_string(model.scheme);

    std::set<std::string_view> seen;
    for (const ast::Clause& clause : phase.clauses) {
      const std::string_view name = clause_name(clause);
      if (name == kScheme) continue;
      const auto& node = clause_node(clause);
      const bool allowed = std::find(rules.required.begin(), rules.required.end(), name) != rules.required.end() ||
                           std::find(rules.optional.begin(), rules.optional.end(), name) != rules.optional.end();
      if (!allowed) {
        if (name == kRuntime) {
          reporter_.error(node, fmt::format("a work phase gives SUBTASK RUNTIME IS ...; (RUNTIME IS is for "
                                            "sequential phases and subtask blocks)"));
        } else {
          std::vector<std::string_view> accepted = rules.required;
          accepted.insert(accepted.end(), rules.optional.begin(), rules.optional.end());
          reporter_.error(node, fmt::format("{} is not used by {} phases; phase '{}' may give {}", name,
                                            scheme_name, model.name, join_names(accepted)));
        }
        continue;
      }
      if (name != kTask && name != kArc && !seen.insert(name).second) {
        reporter_.error(node, fmt::format("duplicate {} in phase '{}'", name, model.name));
        continue;
      }
      seen.insert(name);
      work_clause(clause, model);
    }
    for (std::string_view required : rules.required) {
      if (seen.count(required) == 0) {
        reporter_.error(phase.head, fmt::format("{} phase '{}' needs {}", scheme_name, model.name,
                                                required == kTask ? std::string("at least one TASK")
                                                                  : std::string(required)));
      }
    }
    // Defaults made explicit.
    if ((model.scheme == models::Scheme::ForkJoin) && !model.join) model.join = models::zero_runtime();
    if (model.scheme == models::Scheme::Arbitrary) arbitrary_graph(phase, model);
    if (model.problem_size) units(model);
    return model;
  }

  void work_clause(const ast::Clause& clause, models::WorkPhase& model) {
    if (const auto* c = boost::get<ast::DistClause>(&clause)) {
      models::RuntimeSpec spec = distribution(c->distribution);
      switch (c->role) {
        case ast::DistRole::SubtaskRuntime: model.runtime = std::move(spec); break;
        case ast::DistRole::Interarrival: model.interarrival = std::move(spec); break;
        case ast::DistRole::JoinRuntime: model.join = std::move(spec); break;
        case ast::DistRole::Runtime: break;
      }
    } else if (const auto* e = boost::get<ast::ExprClause>(&clause)) {
      switch (e->role) {
        case ast::ExprRole::CommunicationVolume:
          model.volume = quantity(e->value, Requirement::NonNegative, "the COMMUNICATION VOLUME");
          break;
        case ast::ExprRole::Jobs:
          model.jobs = quantity(e->value, Requirement::PositiveInteger, "the number of JOBS");
          break;
        case ast::ExprRole::Stages:
          model.stages = quantity(e->value, Requirement::PositiveInteger, "the number of STAGES");
          break;
        case ast::ExprRole::TasksPerJob:
          model.tasks_per_job = quantity(e->value, Requirement::PositiveInteger, "TASKS PER JOB");
          break;
      }
    } else if (const auto* s = boost::get<ast::SchedulingClause>(&clause)) {
      model.scheduling = s->scheduling;
      if ((model.scheme == models::Scheme::Neighbor || model.scheme == models::Scheme::NeighborTorus) &&
          model.scheduling != models::Scheduling::Block) {
        reporter_.error(*s, fmt::format("{} phases distribute columns in contiguous blocks: only SCHEDULING IS "
                                        "BLOCK is possible", models::to_string(model.scheme)));
      }
    } else if (const auto* p = boost::get<ast::ProblemSizeClause>(&clause)) {
      models::ProblemSize size;
      size.shape = p->shape;
      size.name = p->name.name;
      size.location = reporter_.location(*p);
      const std::size_t expected = size.shape == models::Shape::Vector ? 1 : 2;
      if (p->extents.size() != expected) {
        reporter_.error(*p, size.shape == models::Shape::Vector
                                ? fmt::format("VECTOR {} takes one extent, VECTOR {}(n); got {}", size.name, size.name, p->extents.size())
                                : fmt::format("GRID {} takes two extents, GRID {}(height, width); got {}", size.name, size.name, p->extents.size()));
        return;
      }
      for (const ast::Expression& extent : p->extents) {
        size.extents.push_back(quantity(extent, Requirement::PositiveInteger, "a problem-size extent"));
      }
      model.problem_size = std::move(size);
    } else if (const auto* dep = boost::get<ast::DependencyClause>(&clause)) {
      for (const ast::Expression& distance : *dep) {
        model.dependencies.push_back(quantity(distance, Requirement::PositiveInteger, "a DEPENDENCY distance"));
      }
    } else if (const auto* block = boost::get<x3::forward_ast<ast::SubtaskBlock>>(&clause)) {
      subtask_block(block->get(), model);
    } else if (const auto* task = boost::get<ast::TaskClause>(&clause)) {
      models::Task t;
      t.name = task->name.name;
      t.runtime = distribution(task->runtime);
      if (task->processor) {
        t.processor = quantity(task->processor->value, Requirement::NonNegativeInteger, "the processor of a task");
      }
      t.location = reporter_.location(*task);
      model.tasks.push_back(std::move(t));
    } else if (const auto* arc = boost::get<ast::ArcClause>(&clause)) {
      if (arc->chain.size() < 2) {
        reporter_.error(*arc, "an ARC joins at least two tasks: ARC a -> b;");
        return;
      }
      models::Expr volume = models::Expr::constant(0.0);
      if (arc->volume) volume = quantity(arc->volume->value, Requirement::NonNegative, "the VOLUME of an arc");
      for (std::size_t i = 0; i + 1 < arc->chain.size(); ++i) {
        models::Arc a;
        a.from = arc->chain[i].name;
        a.to = arc->chain[i + 1].name;
        a.volume = volume;
        a.location = reporter_.location(arc->chain[i + 1]);
        model.arcs.push_back(std::move(a));
        arc_nodes_.push_back({&arc->chain[i], &arc->chain[i + 1]});
      }
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
        subtask.runtime = distribution(d->distribution);
      } else if (e != nullptr && e->role == ast::ExprRole::CommunicationVolume) {
        if (have_volume) reporter_.error(*e, fmt::format("duplicate COMMUNICATION VOLUME in the {} block", label));
        have_volume = true;
        subtask.volume = quantity(e->value, Requirement::NonNegative, "the COMMUNICATION VOLUME");
      } else {
        reporter_.error(clause_node(clause), fmt::format("{} is not part of a subtask block: it has RUNTIME IS "
                                                         "...; and optionally COMMUNICATION VOLUME IS ...;",
                                                         clause_name(clause)));
      }
    }
    if (!have_runtime) reporter_.error(block, fmt::format("the {} block needs RUNTIME IS distribution;", label));
    (independent ? model.independent : model.dependent) = std::move(subtask);
  }

  void units(models::WorkPhase& model) {
    const models::ProblemSize& size = *model.problem_size;
    if (size.extents.empty()) return;
    if (size.shape == models::Shape::Vector) {
      model.units = size.extents[0];
    } else if (model.scheme == models::Scheme::Independent) {
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
          reporter_.error(*arc_nodes_[arc].second, fmt::format(
              "the task graph of ARBITRARY phase '{}' has a cycle: {}", phase, cycle));
          return;
        }
        if (color[successor] == White) {
          color[successor] = Grey;
          stack.push_back({successor, 0});
        }
      }
    }
  }

  // ---- Execution pattern ------------------------------------------------------------------
  models::PatternNode pattern(const ast::Alternatives& alternatives, const models::Program& model) {
    models::PatternNode node;
    node.location = reporter_.location(alternatives.front());
    if (alternatives.size() == 1) {
      const ast::Branch& only = alternatives.front();
      if (only.probability) {
        reporter_.error(only.probability->value, "a branch probability needs alternatives: (p1: a | p2: b)");
      }
      return sequence(only.sequence, model);
    }
    node.kind = models::PatternNode::Kind::Alternatives;
    std::vector<double> values;
    bool all_known = true;
    for (const ast::Branch& branch : alternatives) {
      if (!branch.probability) {
        reporter_.error(branch, "every alternative needs a probability: (p1: a | p2: b)");
        all_known = false;
        node.probabilities.push_back(models::Expr::constant(0.0));
      } else {
        const std::size_t errors = reporter_.errors();
        node.probabilities.push_back(quantity(branch.probability->value, Requirement::Probability, "a branch probability"));
        const auto value = reporter_.errors() == errors
            ? detail::constant_value(node.probabilities.back(), environment_, branch.probability->value, reporter_)
            : std::nullopt;
        if (value) values.push_back(*value);
        else all_known = false;
      }
      node.children.push_back(sequence(branch.sequence, model));
    }
    if (all_known) {
      double total = 0;
      for (double v : values) total += v;
      if (std::fabs(total - 1.0) > 1e-9) {
        // At the first branch: X3 does not tag a bracketed Alternatives (a container held in a
        // forward_ast), its branches are tagged.
        reporter_.error(alternatives.front(), fmt::format("the branch probabilities sum to {}, not 1", total));
      }
    }
    return node;
  }

  models::PatternNode sequence(const ast::PatternSequence& terms, const models::Program& model) {
    if (terms.size() == 1) return term(terms.front(), model);
    models::PatternNode node;
    node.kind = models::PatternNode::Kind::Sequence;
    node.location = reporter_.location(terms);
    for (const ast::PatternTerm& t : terms) node.children.push_back(term(t, model));
    return node;
  }

  models::PatternNode term(const ast::PatternTerm& t, const models::Program& model) {
    models::PatternNode node = primary(t.primary, model);
    if (!t.repeat) return node;
    models::PatternNode repeat;
    repeat.kind = models::PatternNode::Kind::Repeat;
    repeat.location = reporter_.location(t);
    repeat.count = quantity(t.repeat->value, Requirement::PositiveInteger, "a repetition count");
    repeat.children.push_back(std::move(node));
    return repeat;
  }

  models::PatternNode primary(const ast::PatternPrimary& p, const models::Program& model) {
    models::PatternNode node;
    if (const auto* sync = boost::get<ast::Sync>(&p)) {
      node.kind = models::PatternNode::Kind::Sync;
      node.location = reporter_.location(*sync);
    } else if (const auto* id = boost::get<ast::Identifier>(&p)) {
      node.kind = models::PatternNode::Kind::PhaseRef;
      node.phase = id->name;
      node.location = reporter_.location(*id);
      used_.insert(id->name);
      if (model.phases.count(id->name) == 0) {
        std::string known;
        for (const auto& [name, phase] : model.phases) known += (known.empty() ? "" : ", ") + name;
        reporter_.error(*id, fmt::format("phase '{}' is used in the execution pattern but never defined{}", id->name,
                                         known.empty() ? std::string() : " (defined: " + known + ")"));
      }
    } else if (const auto* inner = boost::get<x3::forward_ast<ast::Alternatives>>(&p)) {
      return pattern(inner->get(), model);
    }
    return node;
  }

  // ---- Concatenations ---------------------------------------------------------------------
  struct End {
    std::string phase;  // empty: SYNC or a sequential phase, which synchronise
    models::SourceLocation location;
    std::size_t offset = 0;
  };
  struct Ends {
    std::vector<End> first;
    std::vector<End> last;
  };
  struct Need {
    std::size_t offset;
  };

  // Records the pairs (a, b) of work phases that follow each other. Pairs with an entry
  // are marked used; the others are missing. The pairs of two alternatives multiply, so
  // the walk stops once kMaxErrors pairs are missing: the program is wrong anyway, and a
  // valid one has at most as many pairs as it has entries.
  void join(const std::vector<End>& last, const std::vector<End>& first) {
    for (const End& a : last) {
      if (a.phase.empty()) continue;
      for (const End& b : first) {
        if (b.phase.empty()) continue;
        if (missing_.size() >= kMaxErrors) return;
        auto pair = std::make_pair(a.phase, b.phase);
        if (given_.count(pair) != 0) {
          used_pairs_.insert(std::move(pair));
        } else {
          missing_.emplace(std::move(pair), Need{b.offset});
        }
      }
    }
  }

  Ends ends(const models::PatternNode& node, const models::Program& model) {
    Ends out;
    switch (node.kind) {
      case models::PatternNode::Kind::Sync:
        out.first = out.last = {End{}};
        return out;
      case models::PatternNode::Kind::PhaseRef: {
        End end;
        // Only work phases need a concatenation; a sequential phase synchronises.
        if (models::find_work_phase(model, node.phase) != nullptr) end.phase = node.phase;
        end.offset = offset_of(node.location);
        out.first = out.last = {end};
        return out;
      }
      case models::PatternNode::Kind::Sequence: {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          Ends child = ends(node.children[i], model);
          if (i == 0) out.first = child.first;
          else join(out.last, child.first);
          out.last = std::move(child.last);
        }
        return out;
      }
      case models::PatternNode::Kind::Repeat: {
        out = ends(node.children.at(0), model);
        const models::Evaluation count = models::evaluate(node.count, environment_);
        if (!count.ok() || count.value > 1) join(out.last, out.first);
        return out;
      }
      case models::PatternNode::Kind::Alternatives: {
        // The union of the branches' ends, each phase once (linear in the branches).
        std::set<std::string> first_seen;
        std::set<std::string> last_seen;
        for (const models::PatternNode& child : node.children) {
          Ends e = ends(child, model);
          for (End& end : e.first) {
            if (first_seen.insert(end.phase).second) out.first.push_back(std::move(end));
          }
          for (End& end : e.last) {
            if (last_seen.insert(end.phase).second) out.last.push_back(std::move(end));
          }
        }
        return out;
      }
    }
    return out;
  }

  std::size_t offset_of(const models::SourceLocation& location) const {
    return reporter_.source().offset(location);
  }

  void concatenations(const ast::Program& program, models::Program& model) {
    std::vector<const ast::ConcatEntry*> entries;
    for (const ast::ConcatEntry& entry : program.concatenations) {
      bool valid = true;
      for (const ast::Identifier* id : {&entry.first, &entry.second}) {
        if (model.phases.count(id->name) == 0) {
          reporter_.error(*id, fmt::format("concatenation names undefined phase '{}'", id->name));
          valid = false;
        } else if (models::find_work_phase(model, id->name) == nullptr) {
          reporter_.error(*id, fmt::format("concatenation joins work phases; '{}' is a sequential phase, which "
                                           "synchronises by itself", id->name));
          valid = false;
        }
      }
      if (!valid) continue;
      const auto key = std::make_pair(entry.first.name, entry.second.name);
      if (!given_.insert(key).second) {
        reporter_.error(entry, fmt::format("duplicate concatenation '{}, {}'", key.first, key.second));
        continue;
      }
      model.concatenations[key] = entry.kind;
      entries.push_back(&entry);
    }
    if (program.patterns.empty()) return;
    ends(model.pattern, model);
    for (const ast::ConcatEntry* entry : entries) {
      const auto key = std::make_pair(entry->first.name, entry->second.name);
      if (used_pairs_.count(key) == 0) {
        reporter_.warning(*entry, fmt::format("concatenation '{}, {}' is never used: the execution pattern never "
                                              "runs '{}' right after '{}' without a SYNC", key.first, key.second,
                                              key.second, key.first));
      }
    }
    for (const auto& [pair, need] : missing_) {
      reporter_.error_at(need.offset, fmt::format(
          "missing concatenation between work phases '{}' and '{}': they follow each other with no SYNC between "
          "them; add '{}, {} : KIND;' to a CONCATENATION block, KIND one of {}",
          pair.first, pair.second, pair.first, pair.second, kConcatenationKinds));
    }
  }

  void unused_phases(const ast::Program& program) {
    if (program.patterns.empty()) return;
    for (const ast::Phase& phase : program.phases) {
      if (used_.count(phase.head.name.name) == 0) {
        reporter_.warning(phase.head.name, fmt::format("phase '{}' is defined but not used in the execution pattern",
                                                       phase.head.name.name));
      }
    }
  }

  Reporter reporter_;
  models::Machine machine_;
  std::map<std::string, double> sets_;
  bool read_measurements_ = true;
  models::Environment environment_;
  Scope program_scope_;
  std::map<std::string, const ast::Identifier*> defined_;
  std::set<std::string> used_;
  std::set<std::pair<std::string, std::string>> given_;       // pairs with an entry
  std::set<std::pair<std::string, std::string>> used_pairs_;  // given and needed
  std::map<std::pair<std::string, std::string>, Need> missing_;
  std::vector<std::pair<const ast::Identifier*, const ast::Identifier*>> arc_nodes_;  // of the current phase
};

void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
}

}  // namespace

CheckResult check(const ast::Program& program, const Source& source, const CheckOptions& options) {
  CheckResult result;
  Checker checker(source, result.diagnostics, options);
  models::Program model = checker.run(program);
  sort_by_position(result.diagnostics);
  if (!has_errors(result.diagnostics)) result.program = std::move(model);
  return result;
}

}  // namespace pdl
