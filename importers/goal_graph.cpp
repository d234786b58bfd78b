#include "importers/goal_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

#include "pdl/parse.hpp"

namespace importers::goal {

namespace {

// One side of a message: a send (source = its rank) or a receive (destination = its rank).
struct Endpoint {
  std::uint32_t source = 0;
  std::uint32_t destination = 0;
  std::uint32_t tag = 0;
  std::uint32_t operation = 0;

  auto channel() const { return std::tie(source, destination, tag); }
  auto order() const { return std::tie(source, destination, tag, operation); }
};

// What the notes say once for every operation of their kind: where the first is and how many.
struct Tally {
  std::optional<Place> first;
  std::size_t count = 0;

  void add(Place place) {
    if (count++ == 0) first = place;
  }
};

class GraphBuilder {
 public:
  GraphBuilder(const ImportInput& input, const Schedule& schedule) : input_(input), schedule_(schedule) {}

  Built run() {
    match_messages();
    if (!stopped_) add_dependencies();
    note_tallies();
    if (!stopped_ && !pdl::has_errors(built_.diagnostics)) check_cycles();
    std::stable_sort(built_.graph.arcs.begin(), built_.graph.arcs.end(), [this](const Arc& a, const Arc& b) {
      return declaration_key(built_.graph, a.to, operations()) < declaration_key(built_.graph, b.to, operations());
    });
    return std::move(built_);
  }

 private:
  std::size_t operations() const { return schedule_.operations.size(); }
  const Operation& operation(std::uint32_t index) const { return schedule_.operations[index]; }

  void error(Place place, std::string message) {
    if (stopped_) return;
    built_.diagnostics.push_back(diagnose(input_, place, pdl::Severity::Error, std::move(message)));
    stopped_ = pdl::count(built_.diagnostics, pdl::Severity::Error) >= pdl::kMaxErrors;
  }

  void endpoints(std::vector<Endpoint>& sends, std::vector<Endpoint>& receives) const {
    for (std::uint32_t i = 0; i < operations(); ++i) {
      const Operation& op = operation(i);
      if (op.kind == OpKind::Send) sends.push_back({op.rank, op.peer, op.tag, i});
      if (op.kind == OpKind::Recv) receives.push_back({op.peer, op.rank, op.tag, i});
    }
    const auto by_order = [](const Endpoint& a, const Endpoint& b) { return a.order() < b.order(); };
    std::sort(sends.begin(), sends.end(), by_order);
    std::sort(receives.begin(), receives.end(), by_order);
  }

  // MPI's matching: the k-th send from s to d with tag t takes the k-th receive of d from s with
  // tag t, in the order of their blocks (the programs' order, which MPI's non-overtaking rule keeps).
  void match_messages() {
    std::vector<Endpoint> sends, receives;
    endpoints(sends, receives);
    std::size_t s = 0, r = 0;
    while ((s < sends.size() || r < receives.size()) && !stopped_) {
      const bool from_send = r == receives.size() || (s < sends.size() && sends[s].channel() <= receives[r].channel());
      const Endpoint channel = from_send ? sends[s] : receives[r];
      std::size_t s_end = s, r_end = r;
      while (s_end < sends.size() && sends[s_end].channel() == channel.channel()) ++s_end;
      while (r_end < receives.size() && receives[r_end].channel() == channel.channel()) ++r_end;
      const std::size_t pairs = std::min(s_end - s, r_end - r);
      for (std::size_t k = 0; k < pairs; ++k) message(sends[s + k].operation, receives[r + k].operation);
      for (std::size_t k = s + pairs; k < s_end; ++k) unmatched(sends[k], s_end - s, r_end - r);
      for (std::size_t k = r + pairs; k < r_end; ++k) unmatched(receives[k], s_end - s, r_end - r);
      s = s_end;
      r = r_end;
    }
  }

  void message(std::uint32_t send, std::uint32_t receive) {
    const Operation& from = operation(send);
    const Operation& to = operation(receive);
    if (to.amount < from.amount) {
      built_.diagnostics.push_back(diagnose(
          input_, to.place, pdl::Severity::Warning,
          fmt::format("this receive of {} bytes takes a message of {} bytes (line {}), which MPI would refuse as "
                      "truncated; the message is priced at its {} bytes",
                      to.amount, from.amount, from.place.line, from.amount)));
    }
    if (from.amount == 0) zero_bytes_.add(from.place);
    if (from.rank == to.rank) to_itself_.add(from.place);
    // A PDL arc of 0 bytes sends no message (semantics.md, M3): a message of none is priced as one byte.
    built_.graph.arcs.push_back({std::max<std::uint64_t>(from.amount, 1), send, receive});
    ++built_.graph.messages;
  }

  void unmatched(const Endpoint& end, std::size_t sent, std::size_t received) {
    const Operation& op = operation(end.operation);
    if (op.kind == OpKind::Send) {
      return error(op.place,
                   fmt::format("this send to rank {1} with tag {2} has no receive to match it: rank {0} sends "
                               "{3} message(s) to rank {1} with tag {2}, and rank {1} receives {4} from rank "
                               "{0} with tag {2} (MPI matches them in order)",
                               end.source, end.destination, end.tag, sent, received));
    }
    error(op.place,
          fmt::format("this receive from rank {0} with tag {2} has no send to match it: rank {1} receives {4} "
                      "message(s) from rank {0} with tag {2}, and rank {0} sends {3} to rank {1} with tag "
                      "{2} (MPI matches them in order)",
                      end.source, end.destination, end.tag, sent, received));
  }

  // requires: an arc from the required operation; irequires of a receive: an arc from the
  // receive's start (LogGOPSim starts the dependent once the receive is posted, not once its
  // message is in); irequires of a calc or a send: an arc from it, as requires (LogGOPSim's rank
  // takes a calc's time and a send's overhead on its cpu before the dependent starts either way).
  // The dependencies of a receive that has a start go into the start.
  void add_dependencies() {
    Graph& graph = built_.graph;
    graph.start_of.assign(operations(), kNone);
    for (const Dependency& d : schedule_.dependencies) {
      if (!d.on_start || operation(d.required).kind != OpKind::Recv || graph.start_of[d.required] != kNone) continue;
      graph.start_of[d.required] = static_cast<std::uint32_t>(operations() + graph.started.size());
      graph.started.push_back(d.required);
    }
    for (std::uint32_t start = 0; start < graph.started.size(); ++start) {
      graph.arcs.push_back({0, static_cast<std::uint32_t>(operations() + start), graph.started[start]});
    }
    for (const Dependency& d : schedule_.dependencies) {
      const bool from_start = d.on_start && graph.start_of[d.required] != kNone;
      const std::uint32_t from = from_start ? graph.start_of[d.required] : d.required;
      const std::uint32_t to = graph.start_of[d.dependent] != kNone ? graph.start_of[d.dependent] : d.dependent;
      graph.arcs.push_back({0, from, to});
    }
  }

  void note_tallies() {
    note(zero_bytes_,
         "{} message(s) of 0 bytes are priced as 1 byte: a PDL arc of 0 bytes sends no message "
         "(semantics.md, M3), where LogGOPSim charges a message of 0 bytes its overheads and latency");
    note(to_itself_,
         "{} message(s) go from a rank to itself: the tool charges nothing for them (an arc within one "
         "processor), where LogGOPSim charges its overheads and latency");
  }

  // A note at the first of a tally's operations, `sentence` with their count, when there is one.
  void note(const Tally& tally, const char* sentence) {
    if (!tally.first) return;
    built_.notes.push_back(
        diagnose(input_, *tally.first, pdl::Severity::Note, fmt::format(fmt::runtime(sentence), tally.count)));
  }

  std::string node_name(std::uint32_t node) const {
    const bool start = node >= operations();
    const Operation& op = operation(start ? built_.graph.started[node - operations()] : node);
    const std::string_view label = label_of(op, input_.text);
    const std::string who = label.empty() ? fmt::format("operation {}", op.position) : pdl::excerpt(label);
    const std::string what = op.kind == OpKind::Calc   ? std::string("calc")
                             : op.kind == OpKind::Send ? fmt::format("send to {}", op.peer)
                                                       : fmt::format("recv from {}", op.peer);
    return fmt::format("{}rank {} {} ({})", start ? "the start of " : "", op.rank, who, what);
  }

  std::optional<std::vector<std::uint32_t>> find_cycle() const;

  void check_cycles() {
    const auto cycle = find_cycle();
    if (!cycle) return;
    // Named from the node the input declares first, and located there.
    const auto first = std::min_element(cycle->begin(), cycle->end(), [this](std::uint32_t a, std::uint32_t b) {
      return declaration_key(built_.graph, a, operations()) < declaration_key(built_.graph, b, operations());
    });
    std::vector<std::uint32_t> ordered(first, cycle->end());
    ordered.insert(ordered.end(), cycle->begin(), first);
    constexpr std::size_t kNamed = 10;
    std::string names;
    for (std::size_t i = 0; i < ordered.size() && i < kNamed; ++i) names += node_name(ordered[i]) + " -> ";
    if (ordered.size() > kNamed) names += fmt::format("... ({} more) -> ", ordered.size() - kNamed);
    names += node_name(ordered.front());
    const std::uint32_t head = ordered.front();
    const Operation& op = operation(head < operations() ? head : built_.graph.started[head - operations()]);
    error(op.place,
          "these operations wait for each other in a cycle, so that none of them can run (LogGOPSim would "
          "never finish them): " +
              names);
  }

  const ImportInput& input_;
  const Schedule& schedule_;
  Built built_;
  bool stopped_ = false;  // pdl::kMaxErrors errors
  Tally zero_bytes_;
  Tally to_itself_;
};

// An iterative depth-first search (a schedule's chains may be 10^5 long): the nodes of the first
// cycle it meets, in the order of the arcs, or nothing.
std::optional<std::vector<std::uint32_t>> GraphBuilder::find_cycle() const {
  const Graph& graph = built_.graph;
  const std::size_t nodes = operations() + graph.started.size();
  std::vector<std::uint32_t> offsets(nodes + 1, 0), targets(graph.arcs.size());
  for (const Arc& arc : graph.arcs) ++offsets[arc.from + 1];
  for (std::size_t v = 0; v < nodes; ++v) offsets[v + 1] += offsets[v];
  std::vector<std::uint32_t> filled(offsets.begin(), offsets.end() - 1);
  for (const Arc& arc : graph.arcs) targets[filled[arc.from]++] = arc.to;
  enum : std::uint8_t { kUnseen, kOnPath, kDone };
  std::vector<std::uint8_t> state(nodes, kUnseen);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path;  // (node, its next arc)
  for (std::uint32_t root = 0; root < nodes; ++root) {
    if (state[root] != kUnseen) continue;
    path.push_back({root, offsets[root]});
    state[root] = kOnPath;
    while (!path.empty()) {
      auto& [node, next] = path.back();
      if (next == offsets[node + 1]) {
        state[node] = kDone;
        path.pop_back();
        continue;
      }
      const std::uint32_t successor = targets[next++];
      if (state[successor] == kOnPath) {
        auto begin =
            std::find_if(path.begin(), path.end(), [successor](const auto& p) { return p.first == successor; });
        std::vector<std::uint32_t> cycle;
        for (; begin != path.end(); ++begin) cycle.push_back(begin->first);
        return cycle;
      }
      if (state[successor] == kUnseen) {
        state[successor] = kOnPath;
        path.push_back({successor, offsets[successor]});
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Built build_graph(const ImportInput& input, const Schedule& schedule) { return GraphBuilder(input, schedule).run(); }

}  // namespace importers::goal
