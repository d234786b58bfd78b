// The execution pattern, the CONCATENATION entries between the work phases it runs back to
// back, and the phases it never runs.
#include "pdl/check_program.hpp"
#include "pdl/parse.hpp"  // kMaxErrors

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <utility>

namespace pdl::detail {

namespace {

namespace x3 = boost::spirit::x3;

constexpr const char* kConcatenationKinds = "NEIGHBOR, NEIGHBOR-TORUS, TORUS, SERIAL, BARRIER";

class PatternChecker {
 public:
  PatternChecker(ProgramContext& context, std::set<std::string>& used)
      : context_(context), reporter_(context.reporter()), used_(used) {}

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
        node.probabilities.push_back(
            context_.quantity(branch.probability->value, Requirement::Probability, "a branch probability"));
        const auto value = reporter_.errors() == errors
                               ? constant_value(node.probabilities.back(), context_.environment(),
                                                branch.probability->value, reporter_)
                               : std::nullopt;
        if (value)
          values.push_back(*value);
        else
          all_known = false;
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

 private:
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
    repeat.count = context_.quantity(t.repeat->value, Requirement::PositiveInteger, "a repetition count");
    repeat.children.push_back(std::move(node));
    return repeat;
  }

  models::PatternNode primary(const ast::PatternPrimary& p, const models::Program& model) {
    models::PatternNode node;
    if (const auto* sync = boost::get<ast::Sync>(&p)) {
      node.kind = models::PatternNode::Kind::Sync;
      node.location = reporter_.location(*sync);
    } else if (const auto* call = boost::get<ast::CollectiveCall>(&p)) {
      node.kind = models::PatternNode::Kind::Collective;
      node.collective = call->operation;
      node.location = reporter_.location(*call);
      node.volume = context_.quantity(call->volume.value, Requirement::NonNegative,
                                      fmt::format("the volume of {}", models::to_string(call->operation)));
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

  ProgramContext& context_;
  Reporter& reporter_;
  std::set<std::string>& used_;
};

class ConcatenationChecker {
 public:
  explicit ConcatenationChecker(ProgramContext& context) : context_(context), reporter_(context.reporter()) {}

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
                                           "synchronises by itself",
                                           id->name));
          valid = false;
        }
      }
      if (!valid) continue;
      check_two_dimensional_joint(entry, model);  // recorded even when wrong: the pair is not "missing"
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
                                              "runs '{}' right after '{}' without a SYNC",
                                              key.first, key.second, key.second, key.first));
      }
    }
    for (const auto& [pair, need] : missing_) {
      reporter_.error_at(
          need.offset,
          fmt::format(
              "missing concatenation between work phases '{}' and '{}': they follow each other with no SYNC between "
              "them; add '{}, {} : KIND;' to a CONCATENATION block, KIND one of {}",
              pair.first, pair.second, pair.first, pair.second, kConcatenationKinds));
    }
  }

 private:
  // A 2-D NEIGHBOR phase's neighbours are processors of a grid without wrap-around: it meets
  // another 2-D phase by NEIGHBOR, SERIAL or BARRIER, and any other phase by SERIAL or BARRIER
  // (docs/semantics.md, N8).
  void check_two_dimensional_joint(const ast::ConcatEntry& entry, const models::Program& model) {
    const auto two_d = [&](const std::string& name) {
      return models::find_work_phase(model, name)->decomposition == models::Decomposition::TwoD;
    };
    const bool first = two_d(entry.first.name), second = two_d(entry.second.name);
    if (!first && !second) return;
    const std::string which = first ? entry.first.name : entry.second.name;
    switch (entry.kind) {
      case models::Concatenation::Serial:
      case models::Concatenation::Barrier: return;
      case models::Concatenation::Neighbor:
        if (first && second) return;
        reporter_.error(entry, fmt::format("concatenation '{}, {}' : NEIGHBOR joins a 2-D phase ('{}') to a phase "
                                           "that is not 2-D: their neighbours are not the same; use SERIAL or BARRIER",
                                           entry.first.name, entry.second.name, which));
        return;
      case models::Concatenation::NeighborTorus:
      case models::Concatenation::Torus:
        reporter_.error(entry, fmt::format("concatenation '{}, {}' : {} wraps around, but 2-D phase '{}' has no "
                                           "wrap-around; use NEIGHBOR, SERIAL or BARRIER",
                                           entry.first.name, entry.second.name, models::to_string(entry.kind), which));
        return;
    }
  }

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
      case models::PatternNode::Kind::Collective:  // every processor takes part: no concatenation
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
          if (i == 0)
            out.first = child.first;
          else
            join(out.last, child.first);
          out.last = std::move(child.last);
        }
        return out;
      }
      case models::PatternNode::Kind::Repeat: {
        out = ends(node.children.at(0), model);
        const models::Evaluation count = models::evaluate(node.count, context_.environment());
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

  std::size_t offset_of(const models::SourceLocation& location) const { return reporter_.source().offset(location); }

  ProgramContext& context_;
  Reporter& reporter_;
  std::set<std::pair<std::string, std::string>> given_;       // pairs with an entry
  std::set<std::pair<std::string, std::string>> used_pairs_;  // given and needed
  std::map<std::pair<std::string, std::string>, Need> missing_;
};

}  // namespace

models::PatternNode check_pattern(const ast::Alternatives& pattern, const models::Program& model,
                                  ProgramContext& context, std::set<std::string>& used) {
  return PatternChecker(context, used).pattern(pattern, model);
}

void check_concatenations(const ast::Program& program, models::Program& model, ProgramContext& context) {
  ConcatenationChecker(context).concatenations(program, model);
}

void report_unused_phases(const ast::Program& program, const std::set<std::string>& used, Reporter& reporter) {
  if (program.patterns.empty()) return;
  for (const ast::Phase& phase : program.phases) {
    if (used.count(phase.head.name.name) == 0) {
      reporter.warning(phase.head.name, fmt::format("phase '{}' is defined but not used in the execution pattern",
                                                    phase.head.name.name));
    }
  }
}

}  // namespace pdl::detail
