// The semantic pass over a machine file (docs/machine.md).
#include "models/environment.hpp"
#include "models/limits.hpp"
#include "pdl/check.hpp"
#include "pdl/check_detail.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pdl {

namespace {

using detail::Reporter;
using detail::Scope;

const char* role_name(ast::MachineRole role) {
  switch (role) {
    case ast::MachineRole::RTFactor: return "RTFACTOR";
    case ast::MachineRole::CommunicationTime: return "COMMUNICATION TIME";
    case ast::MachineRole::MessageOverhead: return "MESSAGE OVERHEAD";
    case ast::MachineRole::BarrierTime: return "BARRIER TIME";
    case ast::MachineRole::Contention: return "CONTENTION";
    case ast::MachineRole::EagerLimit: return "EAGER LIMIT";
    case ast::MachineRole::PortTime: return "PORT TIME";
    case ast::MachineRole::Ports: return "PORTS";
    case ast::MachineRole::Processors: return "PROCESSORS";
    case ast::MachineRole::Cores: return "CORES";
    case ast::MachineRole::MemoryBandwidth: return "MEMORY BANDWIDTH";
  }
  return "?";
}

// The statements only a NODE gives.
bool in_node_only(ast::MachineRole role) {
  return role == ast::MachineRole::Processors || role == ast::MachineRole::Cores ||
         role == ast::MachineRole::MemoryBandwidth;
}

// What the statements of a machine file have declared so far: each may appear once.
struct SeenStatements {
  std::array<bool, static_cast<std::size_t>(ast::MachineRole::MemoryBandwidth) + 1> role{};  // the last role
  bool kind = false;
  bool topology = false;
  bool port_sharing = false;
  std::map<std::string, bool> size;
};

class MachineChecker {
 public:
  MachineChecker(const Source& source, std::vector<Diagnostic>& out) : reporter_(source, out) {}

  models::Machine run(const ast::Machine& machine) {
    models::Machine model = models::ideal_machine();
    model.name = machine.name.value;
    model.file = reporter_.source().filename();
    model.location = reporter_.location(machine.name);
    model.communication = models::Communication::MessagePassing;
    if (model.name.empty()) reporter_.error(machine.name, "the machine name is empty");

    // Constants first, in order: every expression of the file may use them.
    Scope constants;
    constants.context = "in a constant, which may use the constants declared before it";
    for (const ast::MachineStatement& statement : machine.statements) {
      if (const auto* decl = boost::get<ast::VariableDecl>(&statement)) declare_constant(*decl, constants, model);
    }

    SeenStatements seen;
    std::vector<const ast::SegmentDecl*> segments;  // after every statement: they start from its law
    for (const ast::MachineStatement& statement : machine.statements) {
      if (const auto* e = boost::get<ast::MachineExpr>(&statement)) {
        top_level_expression(*e, constants, seen, model);
      } else if (const auto* s = boost::get<ast::SizeofDecl>(&statement)) {
        sizeof_statement(*s, constants, seen, model);
      } else if (const auto* k = boost::get<ast::CommKindDecl>(&statement)) {
        if (seen.kind) {
          reporter_.error(*k, "duplicate COMMUNICATION IS ...;");
          continue;
        }
        seen.kind = true;
        model.communication = k->kind;
      } else if (const auto* c = boost::get<ast::CollectiveDecl>(&statement)) {
        collective(*c, model);
      } else if (const auto* t = boost::get<ast::TopologyDecl>(&statement)) {
        if (seen.topology) {
          reporter_.error(*t, "duplicate TOPOLOGY IS ...;");
          continue;
        }
        seen.topology = true;
        model.topology = t->topology;
      } else if (const auto* sharing = boost::get<ast::PortSharingDecl>(&statement)) {
        if (seen.port_sharing) {
          reporter_.error(*sharing, "duplicate PORT SHARING IS ...;");
          continue;
        }
        seen.port_sharing = true;
        model.port_sharing = sharing->sharing;
        port_sharing_at_ = sharing;
      } else if (const auto* segment = boost::get<ast::SegmentDecl>(&statement)) {
        segments.push_back(segment);
      } else if (const auto* node_decl = boost::get<ast::NodeDecl>(&statement)) {
        node(*node_decl, constants, model);
      }
    }
    require_port_time(model);
    for (const ast::SegmentDecl* segment : segments) this->segment(*segment, constants, model);
    return model;
  }

 private:
  // A statement `ROLE IS expression;` outside a block: each role once, PROCESSORS, CORES and
  // MEMORY BANDWIDTH only in a NODE.
  void top_level_expression(const ast::MachineExpr& e, const Scope& constants, SeenStatements& seen,
                            models::Machine& model) {
    if (in_node_only(e.role)) {
      reporter_.error(
          e, fmt::format("{} belongs in a NODE: NODE IS: {} IS ...; END;", role_name(e.role), role_name(e.role)));
      return;
    }
    const auto role = static_cast<std::size_t>(e.role);
    if (seen.role[role]) {
      reporter_.error(e, fmt::format("duplicate {}", role_name(e.role)));
      return;
    }
    seen.role[role] = true;
    expression(e, constants, model);
  }

  // VARIABLE name = value;: a constant joins the scope unless its declaration is refused
  // outright (a built-in name, a duplicate, no value).
  void declare_constant(const ast::VariableDecl& decl, Scope& constants, models::Machine& model) {
    const std::string& name = decl.name.name;
    if (name == "P" || name == "L" || name == "T" || name == "S" || detail::canonical_name(name) == "RTFactor") {
      reporter_.error(decl.name, fmt::format("'{}' is built in and cannot be declared as a constant", name));
      return;
    }
    if (constants.names.count(name) != 0) {
      reporter_.error(decl.name, fmt::format("duplicate constant '{}'", name));
      return;
    }
    if (!decl.value) {
      reporter_.error(decl.name, fmt::format("machine constant '{}' needs a value: VARIABLE {} = value;", name, name));
      return;
    }
    const models::Expr expr = detail::convert(decl.value->value, constants, reporter_, nullptr);
    if (const auto value = detail::constant_value(expr, environment_, decl.value->value, reporter_)) {
      environment_.values[name] = *value;
      model.constants[name] = *value;
      model.constant_definitions.push_back({name, expr, reporter_.location(decl.name)});
      if (decl.upper) range(decl, *value, constants, model);
    }
    constants.names.insert(name);
  }

  // SIZEOF type = bytes;: once per type.
  void sizeof_statement(const ast::SizeofDecl& s, const Scope& constants, SeenStatements& seen,
                        models::Machine& model) {
    const std::string type = detail::upper(s.type.name);
    if (seen.size[type]) {
      reporter_.error(s, fmt::format("duplicate SIZEOF {}", type));
      return;
    }
    seen.size[type] = true;
    const models::Expr bytes = detail::convert(s.bytes, constants, reporter_, nullptr);
    if (const auto value = detail::constant_value(bytes, environment_, s.bytes, reporter_)) {
      if (*value <= 0)
        reporter_.error(s.bytes, fmt::format("SIZEOF {} must be > 0 bytes, got {}", type, *value));
      else if (*value > models::kLargestMagnitude) {
        reporter_.error(s.bytes, fmt::format("SIZEOF {} must be at most {:g} bytes, got {}", type,
                                             models::kLargestMagnitude, *value));
      }
      model.sizes[type] = *value;
      model.size_definitions[type] = bytes;
    }
  }

  // COLLECTIVE op IS algorithm;: once per operation, an algorithm that implements it.
  void collective(const ast::CollectiveDecl& decl, models::Machine& model) {
    if (model.collectives.count(decl.operation) != 0) {
      reporter_.error(decl, fmt::format("duplicate COLLECTIVE {}", models::to_string(decl.operation)));
      return;
    }
    const auto& allowed = models::algorithms_for(decl.operation);
    if (std::find(allowed.begin(), allowed.end(), decl.algorithm) == allowed.end()) {
      std::string names;
      for (std::size_t i = 0; i < allowed.size(); ++i) {
        names += std::string(i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + models::to_string(allowed[i]);
      }
      reporter_.error(decl, fmt::format("{} is not an algorithm for {}; it may be {}",
                                        models::to_string(decl.algorithm), models::to_string(decl.operation), names));
      return;
    }
    model.collectives[decl.operation] = decl.algorithm;
  }

  // VARIABLE ts = 36.5 .. 57.4;: the constant takes its lower end here; the upper end is
  // recorded for the upper machine (docs/machine.md, "Interval-valued constants").
  void range(const ast::VariableDecl& decl, double lower, const Scope& constants, models::Machine& model) {
    const models::Expr expr = detail::convert(decl.upper->value, constants, reporter_, nullptr);
    const auto upper = detail::constant_value(expr, environment_, decl.upper->value, reporter_);
    if (!upper) return;
    if (!(lower < *upper)) {
      reporter_.error(decl.upper->value,
                      fmt::format("the range of '{}' must run from its lower end to a larger upper end, "
                                  "got {} .. {}",
                                  decl.name.name, lower, *upper));
      return;
    }
    model.constant_ranges[decl.name.name] = {lower, *upper};
  }

  using Samples = std::vector<std::pair<const char*, std::array<double, 3>>>;  // name, sample values

  // The names an expression of this role may use, and the points at which a cost is tried.
  static Scope role_scope(ast::MachineRole role, const Scope& constants, Samples& samples) {
    Scope scope = constants;
    // S, the bandwidth-sharing factor, is sampled at 1, 2 and 1024 with P at 1, 2 and 1024
    // (docs/machine.md, "Topology and bandwidth sharing").
    switch (role) {
      case ast::MachineRole::RTFactor: scope.context = "in RTFACTOR, which may use the machine's constants"; break;
      case ast::MachineRole::CommunicationTime:
        scope.names.insert({"L", "P", "S"});
        scope.context =
            "in COMMUNICATION TIME, which may use L (bytes), P, S (the bandwidth-sharing factor) and the "
            "machine's constants";
        samples = {{"L", {0, 1, 1e6}}, {"P", {1, 2, 1024}}, {"S", {1, 2, 1024}}};
        break;
      case ast::MachineRole::MessageOverhead:
        scope.names.insert({"L", "P", "S"});
        scope.context =
            "in MESSAGE OVERHEAD, which may use L (bytes), P, S (the bandwidth-sharing factor) and the "
            "machine's constants";
        samples = {{"L", {0, 1, 1e6}}, {"P", {1, 2, 1024}}, {"S", {1, 2, 1024}}};
        break;
      case ast::MachineRole::BarrierTime:
        scope.names.insert("P");
        scope.context = "in BARRIER TIME, which may use P and the machine's constants";
        samples = {{"P", {1, 2, 1024}}};
        break;
      case ast::MachineRole::Contention:
        scope.names.insert({"T", "P"});
        scope.context = "in CONTENTION, which may use T (the phase's runtime), P and the machine's constants";
        samples = {{"T", {0, 1, 1e6}}, {"P", {1, 2, 1024}}};
        break;
      case ast::MachineRole::EagerLimit: scope.context = "in EAGER LIMIT, which may use the machine's constants"; break;
      case ast::MachineRole::PortTime:
        scope.names.insert({"L", "P"});
        scope.context = "in PORT TIME, which may use L (bytes), P and the machine's constants";
        samples = {{"L", {0, 1, 1e6}}, {"P", {1, 2, 1024}}};
        break;
      case ast::MachineRole::Ports: scope.context = "in PORTS, which may use the machine's constants"; break;
      case ast::MachineRole::Processors:
        scope.context = "in a NODE's PROCESSORS, which may use the machine's constants";
        break;
      case ast::MachineRole::Cores: scope.context = "in a NODE's CORES, which may use the machine's constants"; break;
      case ast::MachineRole::MemoryBandwidth:
        scope.context = "in a NODE's MEMORY BANDWIDTH, which may use the machine's constants";
        break;
    }
    return scope;
  }

  // The expression of a statement in its role's scope; for a cost, tried at its sample points.
  std::optional<models::Expr> checked_expression(const ast::MachineExpr& e, const Scope& constants) {
    Samples samples;
    const Scope scope = role_scope(e.role, constants, samples);
    const std::size_t errors = reporter_.errors();
    models::Expr expr = detail::convert(e.value, scope, reporter_, nullptr);
    if (reporter_.errors() != errors) return std::nullopt;
    if (e.role == ast::MachineRole::RTFactor || e.role == ast::MachineRole::Ports || in_node_only(e.role)) {
      return expr;  // constants, checked where they are taken
    }
    // S is sampled only where the expression reads it, so that the points of the other
    // expressions are named as before.
    const std::vector<std::string> mentioned = models::identifiers(expr);
    if (std::find(mentioned.begin(), mentioned.end(), "S") == mentioned.end()) {
      std::erase_if(samples, [](const auto& sample) { return std::string_view{sample.first} == "S"; });
    }
    if (!valid_cost(e, expr, samples)) return std::nullopt;
    return expr;
  }

  void expression(const ast::MachineExpr& e, const Scope& constants, models::Machine& model) {
    std::optional<models::Expr> checked = checked_expression(e, constants);
    if (!checked) return;
    models::Expr expr = std::move(*checked);
    if (e.role == ast::MachineRole::RTFactor) {
      rt_factor(e, std::move(expr), model);
      return;
    }
    if (e.role == ast::MachineRole::Ports) {
      ports(e, std::move(expr), model);
      return;
    }
    switch (e.role) {
      case ast::MachineRole::CommunicationTime: model.communication_time = std::move(expr); break;
      case ast::MachineRole::MessageOverhead: model.message_overhead = std::move(expr); break;
      case ast::MachineRole::BarrierTime: model.barrier_time = std::move(expr); break;
      case ast::MachineRole::Contention: model.contention = std::move(expr); break;
      case ast::MachineRole::EagerLimit:
        model.eager_limit = std::move(expr);
        model.eager_limit_location = reporter_.location(e.value);
        break;
      case ast::MachineRole::PortTime: model.port_time = std::move(expr); break;
      case ast::MachineRole::RTFactor:
      case ast::MachineRole::Ports:
      case ast::MachineRole::Processors:
      case ast::MachineRole::Cores:
      case ast::MachineRole::MemoryBandwidth: break;
    }
  }

  // A whole number of ports per processor and direction, 1 to kMostPorts.
  // SEGMENT FROM b IS: ... END;: the law of the sizes below it (the machine's, or the previous
  // segment's) with the segment's statements; b a constant above the previous segment's.
  void segment(const ast::SegmentDecl& decl, const Scope& constants, models::Machine& model) {
    models::MessageSegment segment =
        model.segments.empty()
            ? models::MessageSegment{{}, model.communication_time, model.message_overhead, model.port_time, {}, {}}
            : model.segments.back();
    segment.location = reporter_.location(decl);
    Scope scope = constants;
    scope.context = "in a SEGMENT's FROM, which may use the machine's constants";
    segment.from = detail::convert(decl.from, scope, reporter_, nullptr);
    const auto from = detail::constant_value(segment.from, environment_, decl.from, reporter_);
    if (!from) return;
    const double below = segment_from_.empty() ? 0.0 : segment_from_.back();
    if (!(*from > below) || *from > models::kLargestMagnitude) {
      reporter_.error(decl.from,
                      segment_from_.empty()
                          ? fmt::format("a SEGMENT must start above 0 bytes (and at most {:g}), got {}",
                                        models::kLargestMagnitude, *from)
                          : fmt::format("SEGMENTs must come in increasing order of FROM: {} after {}", *from, below));
      return;
    }
    std::set<std::string> seen;
    for (const ast::SegmentStatement& statement : decl.statements) {
      if (const auto* protocol = boost::get<ast::ProtocolDecl>(&statement)) {
        if (!seen.insert("PROTOCOL").second) reporter_.error(*protocol, "duplicate PROTOCOL in the SEGMENT");
        segment.protocol = protocol->protocol;
        continue;
      }
      const auto& e = boost::get<ast::MachineExpr>(statement);
      if (!seen.insert(role_name(e.role)).second) {
        reporter_.error(e, fmt::format("duplicate {} in the SEGMENT", role_name(e.role)));
      } else if (e.role == ast::MachineRole::PortTime && !model.port_time) {
        reporter_.error(e, "a SEGMENT's PORT TIME needs the machine's PORT TIME: ports are the whole machine's");
      } else if (auto expr = segment_cost(e, constants)) {
        (e.role == ast::MachineRole::CommunicationTime ? segment.communication_time
         : e.role == ast::MachineRole::MessageOverhead ? segment.message_overhead
                                                       : *segment.port_time) = std::move(*expr);
      }
    }
    segment_from_.push_back(*from);
    model.segments.push_back(std::move(segment));
  }

  std::optional<models::Expr> segment_cost(const ast::MachineExpr& e, const Scope& constants) {
    if (e.role != ast::MachineRole::CommunicationTime && e.role != ast::MachineRole::MessageOverhead &&
        e.role != ast::MachineRole::PortTime) {
      reporter_.error(e, fmt::format("{} does not belong in a SEGMENT, which gives only COMMUNICATION TIME, "
                                     "MESSAGE OVERHEAD, PORT TIME and PROTOCOL",
                                     role_name(e.role)));
      return std::nullopt;
    }
    return checked_expression(e, constants);
  }

  // NODE IS: ... END;: k of the P processors a node (required), on c <= k cores, placed in blocks,
  // in turn or as listed, the law of a message inside a node and its memory bandwidth.
  void node(const ast::NodeDecl& decl, const Scope& constants, models::Machine& model) {
    if (node_seen_) {
      reporter_.error(decl, "duplicate NODE IS ...; a machine's nodes are all alike");
      return;
    }
    node_seen_ = true;
    NodeStatements taken;
    taken.nodes.location = reporter_.location(decl);
    for (const ast::NodeStatement& statement : decl.statements) node_statement(statement, constants, taken);
    if (!taken.processors) {
      if (taken.seen.count("PROCESSORS") == 0) {
        reporter_.error(decl, "a NODE needs PROCESSORS IS k;: how many of the P processors a node holds");
      }
      return;
    }
    if (taken.cores && *taken.cores > *taken.processors) {
      reporter_.error(taken.cores_at->value,
                      fmt::format("a node's CORES ({}) must not exceed its PROCESSORS ({}): leave CORES out for a "
                                  "core a processor",
                                  *taken.cores, *taken.processors));
      return;
    }
    if (taken.list && !detail::check_placement_list(*taken.list, *taken.processors, constants, environment_, reporter_,
                                                    taken.nodes)) {
      return;
    }
    model.nodes = std::move(taken.nodes);
  }

  // What a NODE's statements have given so far.
  struct NodeStatements {
    models::Nodes nodes;
    std::set<std::string> seen;
    std::optional<double> processors, cores;
    const ast::MachineExpr* cores_at = nullptr;
    const ast::PlacementList* list = nullptr;
  };

  void node_statement(const ast::NodeStatement& statement, const Scope& constants, NodeStatements& taken) {
    const auto* placement = boost::get<ast::PlacementDecl>(&statement);
    const auto* list = boost::get<ast::PlacementList>(&statement);
    if (placement || list) {
      if (!taken.seen.insert("PLACEMENT").second) {
        reporter_.error(placement ? static_cast<const boost::spirit::x3::position_tagged&>(*placement) : *list,
                        "duplicate PLACEMENT in the NODE");
        return;
      }
      taken.nodes.placement = placement ? placement->placement : models::Placement::List;
      taken.list = list;
      return;
    }
    const auto& e = boost::get<ast::MachineExpr>(statement);
    if (!taken.seen.insert(role_name(e.role)).second) {
      reporter_.error(e, fmt::format("duplicate {} in the NODE", role_name(e.role)));
      return;
    }
    if (e.role == ast::MachineRole::Processors || e.role == ast::MachineRole::Cores) {
      auto expr = checked_expression(e, constants);
      const auto count = expr ? node_count(e, *expr) : std::nullopt;
      if (!count) return;
      if (e.role == ast::MachineRole::Processors) {
        taken.processors = count;
        taken.nodes.processors = std::move(*expr);
      } else {
        taken.cores = count;
        taken.nodes.cores = std::move(*expr);
        taken.cores_at = &e;
      }
    } else if (e.role == ast::MachineRole::MemoryBandwidth) {
      auto expr = checked_expression(e, constants);
      if (expr && positive_constant(e, *expr)) taken.nodes.memory_bandwidth = std::move(*expr);
    } else if (e.role == ast::MachineRole::CommunicationTime || e.role == ast::MachineRole::MessageOverhead) {
      if (auto expr = checked_expression(e, constants)) {
        (e.role == ast::MachineRole::CommunicationTime ? taken.nodes.communication_time
                                                       : taken.nodes.message_overhead) = std::move(*expr);
      }
    } else {
      reporter_.error(e, fmt::format("{} does not belong in a NODE, which gives only PROCESSORS, CORES, PLACEMENT, "
                                     "COMMUNICATION TIME, MESSAGE OVERHEAD and MEMORY BANDWIDTH",
                                     role_name(e.role)));
    }
  }

  // MEMORY BANDWIDTH: a positive, finite constant.
  bool positive_constant(const ast::MachineExpr& e, const models::Expr& expr) {
    const auto value = detail::constant_value(expr, environment_, e.value, reporter_);
    if (!value) return false;
    if (!(*value > 0 && std::isfinite(*value))) {
      reporter_.error(e.value, fmt::format("a NODE's {} must be a positive number, got {}", role_name(e.role), *value));
      return false;
    }
    return true;
  }

  // PROCESSORS or CORES of a NODE: a whole number from 1 to 2^31 - 1.
  std::optional<double> node_count(const ast::MachineExpr& e, const models::Expr& expr) {
    const auto value = detail::constant_value(expr, environment_, e.value, reporter_);
    if (!value) return std::nullopt;
    if (!(*value >= 1 && *value <= 2147483647.0 && *value == std::floor(*value))) {
      reporter_.error(e.value, fmt::format("a NODE's {} must be a whole number from 1 to 2147483647, got {}",
                                           role_name(e.role), *value));
      return std::nullopt;
    }
    return value;
  }

  // PORTS and PORT SHARING describe ports, which only a PORT TIME gives the machine.
  void require_port_time(const models::Machine& model) {
    if (model.port_time) return;
    if (ports_at_ != nullptr) {
      reporter_.error(ports_at_->value, "PORTS without a PORT TIME: say how long a message holds a port");
    }
    if (port_sharing_at_ != nullptr) {
      reporter_.error(*port_sharing_at_, "PORT SHARING without a PORT TIME: say how long a message holds a port");
    }
  }

  void ports(const ast::MachineExpr& e, models::Expr expr, models::Machine& model) {
    if (const auto value = detail::constant_value(expr, environment_, e.value, reporter_)) {
      if (const auto invalid = models::invalid_ports(*value)) {
        reporter_.error(e.value, *invalid);
        return;
      }
      model.ports = std::move(expr);
      model.ports_location = reporter_.location(e.value);
      ports_at_ = &e;
    }
  }

  void rt_factor(const ast::MachineExpr& e, models::Expr expr, models::Machine& model) {
    if (const auto value = detail::constant_value(expr, environment_, e.value, reporter_)) {
      if (*value <= 0)
        reporter_.error(e.value, fmt::format("RTFACTOR must be > 0, got {}", *value));
      else if (*value < models::kSmallestMagnitude || *value > models::kLargestMagnitude) {
        reporter_.error(e.value, fmt::format("RTFACTOR must lie in [{:g}, {:g}], got {}", models::kSmallestMagnitude,
                                             models::kLargestMagnitude, *value));
      }
      model.rt_factor = *value;
      model.rt_factor_definition = std::move(expr);
    }
  }

  // A cost must be a finite, non-negative time wherever it will be used: try a few points.
  // Reports the first point where it is not and returns false there.
  bool valid_cost(const ast::MachineExpr& e, const models::Expr& expr, const Samples& samples) {
    for (std::size_t i = 0; i < 3; ++i) {
      models::Environment at = environment_;
      std::string point;
      for (const auto& [name, values] : samples) {
        at.values[name] = values[i];
        point += fmt::format("{}{} = {}", point.empty() ? "" : ", ", name, values[i]);
      }
      if (!point.empty()) point = " at " + point;
      const models::Evaluation value = models::evaluate(expr, at);
      if (!value.ok()) {
        reporter_.error(e.value, fmt::format("{} cannot be evaluated{}: {}", role_name(e.role), point, value.error));
        return false;
      }
      if (value.value < 0) {
        reporter_.error(e.value, fmt::format("{} is negative ({}){}", role_name(e.role), value.value, point));
        return false;
      }
      if (value.value != 0.0 && !(value.value >= models::kSmallestTime && value.value <= models::kLargestTime)) {
        const char* what = e.role == ast::MachineRole::EagerLimit ? "a size in bytes" : "a time";
        reporter_.error(e.value, fmt::format("{} is {}{}: {} must be 0 or lie in [{:g}, {:g}]", role_name(e.role),
                                             value.value, point, what, models::kSmallestTime, models::kLargestTime));
        return false;
      }
    }
    return true;
  }

  Reporter reporter_;
  models::Environment environment_;
  const ast::MachineExpr* ports_at_ = nullptr;             // the PORTS statement, if any
  const ast::PortSharingDecl* port_sharing_at_ = nullptr;  // the PORT SHARING statement, if any
  std::vector<double> segment_from_;                       // the FROM of each segment taken
  bool node_seen_ = false;                                 // a NODE statement, taken or refused
};

}  // namespace

MachineCheckResult check_machine(const ast::Machine& machine, const Source& source) {
  MachineCheckResult result;
  models::Machine model = MachineChecker(source, result.diagnostics).run(machine);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  if (!has_errors(result.diagnostics)) result.machine = std::move(model);
  return result;
}

}  // namespace pdl
