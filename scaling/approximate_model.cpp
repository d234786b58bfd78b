// approximate_model(): the execution pattern walked once (sequence, repetition, probabilistic
// alternatives, SYNC), each phase built by its scheme's builder (scheme_builders.hpp) into a
// piece of the series-parallel tree (approximate_builder.hpp), and the pieces joined here as
// their concatenations say.
#include "scaling/approximate_model.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scaling/approximate_builder.hpp"
#include "scaling/scheme_builders.hpp"
#include "scaling/step_transfers.hpp"

namespace scaling {

ScalingError::ScalingError(models::SourceLocation location, const std::string& message)
    : std::runtime_error(message), location_(std::move(location)) {}

namespace {

using detail::ApproximateBuilder;
using detail::kZero;
using detail::Piece;

enum class Joint { Open, Synchronised };

class PatternWalk {
 public:
  PatternWalk(const models::Program& program, const models::Machine& machine, const models::Environment& environment,
              int p)
      : program_(program), builder_(machine, environment, p) {}

  graph::SpTree build() {
    const Piece piece = compile(program_.pattern);
    std::size_t root = builder_.whole(piece);
    if (root == kZero) root = builder_.tree().leaf({"empty program", graph::NodeKind::Task, {}, -1});
    builder_.tree().set_root(root);
    return std::move(builder_.tree());
  }

 private:
  // ---- joining pieces ---------------------------------------------------------------
  // How the end of one piece meets the start of the next, and what the meeting costs.
  std::pair<Joint, std::size_t> joint(const std::string& first, const std::string& second) {
    if (first.empty() || second.empty()) return {Joint::Open, kZero};
    const models::Concatenation* concatenation = models::find_concatenation(program_, first, second);
    const models::WorkPhase* phase = models::find_work_phase(program_, second);
    const models::SourceLocation where = phase ? phase->location : models::SourceLocation{};
    if (concatenation == nullptr) return {Joint::Synchronised, builder_.barrier(where)};
    switch (*concatenation) {
      case models::Concatenation::Serial:
        // A NEIGHBOR instance exchanges its boundary before the processors go on, and each
        // waits for its neighbours' (docs/semantics.md): a neighbour synchronisation, here a
        // barrier without cost, as between two NEIGHBOR instances.
        return {exchanges_boundaries(first) ? Joint::Synchronised : Joint::Open, kZero};
      case models::Concatenation::Barrier: return {Joint::Synchronised, builder_.barrier(where)};
      case models::Concatenation::Neighbor:
      case models::Concatenation::NeighborTorus:
      case models::Concatenation::Torus:
        // Neighbour synchronisation approximated by a barrier: the maximum over processors,
        // then the messages the phase's own exchange does not already charge.
        return {Joint::Synchronised, neighbour_messages(first, second, *concatenation)};
    }
    return {Joint::Synchronised, kZero};
  }

  // The exact model sends one message per unit of `first` and processor of `second` that
  // depends on it across processors (a's volume). Per processor that is at most two between
  // contiguous blocks, and at most three per unit when either side is CYCLIC; a NEIGHBOR
  // phase already charges two in its own exchange. Every processor is charged the most.
  std::size_t neighbour_messages(const std::string& first, const std::string& second, models::Concatenation kind) {
    const models::WorkPhase* a = models::find_work_phase(program_, first);
    const models::WorkPhase* b = models::find_work_phase(program_, second);
    const auto unit_phase = [](const models::WorkPhase* phase) {
      return phase != nullptr &&
             (phase->scheme == models::Scheme::Neighbor || phase->scheme == models::Scheme::NeighborTorus ||
              (phase->scheme == models::Scheme::Independent && phase->scheduling != models::Scheduling::Dynamic));
    };
    if (!unit_phase(a) || !unit_phase(b) || builder_.processors() == 1) return kZero;
    // Two 2-D phases (the checker allows no other NEIGHBOR joint of one): the first's own
    // exchange is every message the joint delivers (N7).
    if (a->decomposition == models::Decomposition::TwoD || b->decomposition == models::Decomposition::TwoD) {
      return kZero;
    }
    const double volume = builder_.value(a->volume, a->location, "communication volume");
    if (volume == 0.0) return kZero;
    const std::int64_t p = builder_.processors();
    const std::int64_t units_a = builder_.count(*a->units, a->location, "number of tasks");
    const std::int64_t units_b = builder_.count(*b->units, b->location, "number of tasks");
    // Both phases' units on processor 0 alone: no dependence crosses processors.
    if (std::min(p, units_a) <= 1 && std::min(p, units_b) <= 1) return kZero;
    const bool cyclic = (a->scheme == models::Scheme::Independent && a->scheduling == models::Scheduling::Cyclic) ||
                        (b->scheme == models::Scheme::Independent && b->scheduling == models::Scheduling::Cyclic);
    const std::int64_t most = (cyclic && units_a == units_b) ? 3 * ((std::max(units_a, units_b) + p - 1) / p) : 2;
    const std::int64_t own = a->scheme == models::Scheme::Independent ? 0 : detail::boundary_messages(units_a, p);
    // The joint's messages are one step, priced at its S (C4's messages); the own exchange was
    // priced at the exchange's S (N5): where the joint's is larger, the difference for the own
    // messages is charged here too.
    double joint_sharing = 1.0, own_sharing = 1.0;
    if (builder_.shares_bandwidth()) {
      const auto placement = [](const models::WorkPhase* phase, std::int64_t units) {
        return detail::UnitPlacement{
            units, phase->scheme == models::Scheme::Independent ? phase->scheduling : models::Scheduling::Block};
      };
      const bool wrap = kind != models::Concatenation::Neighbor || a->scheme == models::Scheme::NeighborTorus ||
                        b->scheme == models::Scheme::NeighborTorus;
      joint_sharing = builder_.sharing(detail::neighbour_joint_transfers(
          placement(a, units_a), placement(b, units_b), p, kind == models::Concatenation::Torus, wrap));
      if (own > 0) {
        own_sharing = builder_.sharing(
            detail::neighbor_exchange_transfers(units_a, p, a->scheme == models::Scheme::NeighborTorus));
      }
    }
    std::size_t top_up = kZero;
    if (own > 0 && joint_sharing > own_sharing) {
      const double more = builder_.step_seconds(builder_.message_cost(volume, b->location, joint_sharing), own, own) -
                          builder_.step_seconds(builder_.message_cost(volume, b->location, own_sharing), own, own);
      if (more > 0.0) {
        top_up = builder_.leaf(
            "communication of " + std::to_string(static_cast<long long>(volume)) +
                " bytes: the joint's sharing S = " + std::to_string(static_cast<long long>(joint_sharing)),
            graph::NodeKind::Communication, distributions::deterministic(more));
      }
    }
    if (most <= own) return top_up;
    const std::size_t extra =
        builder_.send(builder_.message_cost(volume, b->location, joint_sharing), most - own, most - own);
    return top_up == kZero ? extra : builder_.series({top_up, extra});
  }

  // A NEIGHBOR instance of `name` sends something to a neighbour: p > 1, two processors or
  // more with columns and a volume.
  bool exchanges_boundaries(const std::string& name) {
    const models::WorkPhase* phase = models::find_work_phase(program_, name);
    if (phase == nullptr) return false;
    if (phase->scheme != models::Scheme::Neighbor && phase->scheme != models::Scheme::NeighborTorus) return false;
    if (phase->decomposition == models::Decomposition::TwoD) return detail::grid_exchanges(builder_, *phase);
    return detail::boundary_messages(builder_.count(*phase->units, phase->location, "number of tasks"),
                                     builder_.processors()) > 0 &&
           builder_.value(phase->volume, phase->location, "communication volume") > 0.0;
  }

  Piece join(const Piece& a, const Piece& b) {
    if (a.empty) return b;
    if (b.empty) return a;
    Piece r;
    r.empty = false;
    r.first_phase = a.first_phase;
    r.last_phase = b.last_phase;
    const auto [kind, cost] = joint(a.last_phase, b.first_phase);
    if (kind == Joint::Open) {
      if (a.open && b.open) {
        r.head = builder_.then(a.head, b.head);
      } else if (a.open) {
        r.open = false;
        r.head = builder_.then(a.head, b.head);
        r.middle = b.middle;
        r.tail = b.tail;
      } else if (b.open) {
        r.open = false;
        r.head = a.head;
        r.middle = a.middle;
        r.tail = builder_.then(a.tail, b.head);
      } else {
        r.open = false;
        r.head = a.head;
        r.middle = builder_.series({a.middle, builder_.close(builder_.then(a.tail, b.head)), b.middle});
        r.tail = b.tail;
      }
      return r;
    }
    r.open = false;
    r.head = a.head;
    r.tail = b.open ? b.head : b.tail;
    const std::size_t left = a.open ? kZero : builder_.series({a.middle, builder_.close(a.tail)});
    const std::size_t right = b.open ? kZero : builder_.series({builder_.close(b.head), b.middle});
    r.middle = builder_.series({left, cost, right});
    return r;
  }

  // n copies of the piece one after the other, with the piece's own end-to-start joint
  // between copies, as powers: the tree does not grow with n.
  Piece repeat(const Piece& piece, std::int64_t n) {
    if (n == 0 || piece.empty) return {};
    if (n == 1) return piece;
    const auto [kind, cost] = joint(piece.last_phase, piece.first_phase);
    Piece r = piece;
    if (piece.open && kind == Joint::Open) {
      r.head = builder_.repeated(piece.head, n);
      return r;
    }
    r.open = false;
    if (piece.open) {
      r.tail = piece.head;
      r.middle = builder_.series({cost, builder_.power(builder_.series({builder_.close(piece.head), cost}), n - 2)});
      return r;
    }
    const std::size_t between = kind == Joint::Open
                                    ? builder_.close(builder_.then(piece.tail, piece.head))
                                    : builder_.series({builder_.close(piece.tail), cost, builder_.close(piece.head)});
    r.middle = builder_.series({piece.middle, builder_.power(builder_.series({between, piece.middle}), n - 1)});
    return r;
  }

  // ---- the pattern ------------------------------------------------------------------
  Piece compile(const models::PatternNode& node) {
    using Kind = models::PatternNode::Kind;
    switch (node.kind) {
      case Kind::Sequence: {
        Piece piece;
        for (const auto& child : node.children) piece = join(piece, compile(child));
        return piece;
      }
      case Kind::Repeat:
        return repeat(compile(node.children.front()), builder_.count(node.count, node.location, "repetition count"));
      case Kind::Alternatives: return alternatives(node);
      case Kind::PhaseRef: return phase(node.phase, node.location);
      case Kind::Sync:
        if (detail::barrier_sends_messages(builder_.machine())) {
          return detail::approximate_collective(builder_, detail::barrier_of(builder_), node.location);
        }
        return builder_.synchronised(builder_.barrier(node.location));
      case Kind::Collective:
        return detail::approximate_collective(builder_, detail::collective_of(builder_, node), node.location);
    }
    throw std::logic_error("approximate model: unknown pattern node");
  }

  // A mixture of the branches, each closed on both sides.
  Piece alternatives(const models::PatternNode& node) {
    std::vector<double> probabilities;
    std::vector<std::size_t> branches;
    for (std::size_t i = 0; i < node.children.size(); ++i) {
      probabilities.push_back(builder_.value(node.probabilities[i], node.location, "branch probability"));
      std::size_t branch = builder_.whole(compile(node.children[i]));
      if (branch == kZero) branch = builder_.leaf("nothing", graph::NodeKind::Join, {});
      branches.push_back(branch);
    }
    try {
      return builder_.synchronised(builder_.tree().branch(std::move(probabilities), std::move(branches)));
    } catch (const graph::InvalidBranch& error) {
      throw ScalingError(node.location, error.what());
    }
  }

  Piece phase(const std::string& name, const models::SourceLocation& where) {
    if (const models::SequentialPhase* sequential = models::find_sequential_phase(program_, name)) {
      return detail::approximate_sequential(builder_, *sequential);
    }
    const models::WorkPhase* work = models::find_work_phase(program_, name);
    if (work == nullptr) throw ScalingError(where, "no phase named '" + name + "'");
    return detail::builders_of(work->scheme).approximate(builder_, *work);
  }

  const models::Program& program_;
  ApproximateBuilder builder_;
};

}  // namespace

graph::SpTree approximate_model(const models::Program& program, const models::Machine& machine,
                                const models::Environment& environment, int p) {
  if (p < 1 || p > kMaxProcessors) {
    throw std::invalid_argument("processor count must be in [1, " + std::to_string(kMaxProcessors) + "], got " +
                                std::to_string(p));
  }
  return PatternWalk(program, machine, environment, p).build();
}

}  // namespace scaling
