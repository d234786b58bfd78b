#include "scaling/approximate_builder.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace scaling::detail {

std::size_t ApproximateBuilder::series(std::initializer_list<std::size_t> parts) {
  std::vector<std::size_t> present;
  for (std::size_t part : parts)
    if (part != kZero) present.push_back(part);
  return present.empty() ? kZero : tree_.series(std::move(present));
}

std::size_t ApproximateBuilder::overhead(double seconds, graph::NodeKind kind, const std::string& label) {
  if (seconds == 0.0) return kZero;
  return leaf(label, kind, distributions::deterministic(seconds));
}

double ApproximateBuilder::step_seconds(const MessageCost& cost, std::int64_t sends, std::int64_t receives,
                                        std::int64_t sharers) const {
  // M12: a processor's k ports serve the step's messages k at a time; the busiest (the most
  // sends or receives of one processor, at least one) serves its last after the others.
  const std::int64_t k = bound_.ports();
  const double overheads = static_cast<double>(sends + receives) * cost.overhead;
  const double t = cost.transfer;
  const double g = cost.port;
  // M15: the m processors of a node share its ports: at most m times one's messages at a port.
  const std::int64_t m = g > 0.0 ? (sharers > 0 ? std::min(sharers, bound_.port_sharers()) : bound_.port_sharers()) : 1;
  if (receives > 0 && cost.rendezvous()) {
    // M11: each transfer starts when its receive is posted, after the receiver's previous
    // receive: the busiest receiver's r transfers one after another, and the sender's ports.
    const std::int64_t sending_rounds = (std::max<std::int64_t>(1, m * sends) + k - 1) / k;
    const double receiving = m == 1 ? static_cast<double>(receives) * (t + g)
                                    : static_cast<double>(receives) * t + static_cast<double>(m * receives) * g;
    return overheads + receiving + static_cast<double>(sending_rounds - 1) * g;
  }
  const std::int64_t rounds = (std::max<std::int64_t>({1, m * sends, m * receives}) + k - 1) / k;
  return overheads + t + static_cast<double>(rounds) * g;
}

std::size_t ApproximateBuilder::send(const MessageCost& cost, std::int64_t sends, std::int64_t receives,
                                     std::int64_t sharers) {
  std::string label = "communication of " + std::to_string(static_cast<long long>(cost.bytes)) + " bytes";
  if (cost.overhead > 0.0) label += " (" + std::to_string(sends) + " sends, " + std::to_string(receives) + " receives)";
  if (cost.sharing != 1.0) label += " sharing S = " + std::to_string(static_cast<long long>(cost.sharing));
  return overhead(step_seconds(cost, sends, receives, sharers), graph::NodeKind::Communication, label);
}

std::size_t ApproximateBuilder::barrier(const models::SourceLocation& where) {
  return overhead(bound_.barrier_seconds(where), graph::NodeKind::Barrier, "barrier");
}

std::size_t ApproximateBuilder::contention(double phase_work, const models::SourceLocation& where) {
  return overhead(bound_.contention_seconds(phase_work, where), graph::NodeKind::Contention, "contention");
}

// ---- per-processor work -------------------------------------------------------------

Work ApproximateBuilder::then(const Work& a, const Work& b) {
  Work result;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> made;
  std::size_t i = 0, j = 0;
  std::int64_t at = 0;
  while (at < p_) {
    const std::int64_t end = std::min(a[i].end, b[j].end);
    const auto key = std::make_pair(a[i].tree, b[j].tree);
    auto found = made.find(key);
    if (found == made.end()) found = made.emplace(key, series({a[i].tree, b[j].tree})).first;
    if (!result.empty() && result.back().tree == found->second) {
      result.back().end = end;
    } else {
      result.push_back({at, end, found->second});
    }
    at = end;
    if (a[i].end == end) ++i;
    if (b[j].end == end) ++j;
  }
  return result;
}

Work ApproximateBuilder::repeated(const Work& work, std::int64_t n) {
  Work result = work;
  for (Range& range : result) range.tree = power(range.tree, n);
  return result;
}

std::size_t ApproximateBuilder::close(const Work& work) {
  std::map<std::size_t, std::int64_t> processors_with;
  for (const Range& range : work) {
    if (range.tree != kZero) processors_with[range.tree] += range.end - range.begin;
  }
  if (processors_with.empty()) return kZero;
  std::vector<std::size_t> groups;
  for (const auto& [tree, processors] : processors_with) {
    groups.push_back(tree_.parallel_power(tree, processors));
  }
  return tree_.parallel(std::move(groups));
}

std::size_t ApproximateBuilder::list_schedule_bound(const std::string& label, const distributions::Distribution& task,
                                                    std::int64_t n) {
  if (n == 0) return kZero;
  const std::int64_t q = std::min(p_, n);
  const double share = 1.0 / static_cast<double>(q);
  const std::size_t work = task_leaf(label + " pool work / " + std::to_string(q),
                                     distributions::scale(distributions::series_power(task, n), share));
  if (q == 1) return work;
  return series({work, task_leaf(label + " pool last task",
                                 distributions::scale(distributions::parallel_power(task, n), 1.0 - share))});
}

std::size_t ApproximateBuilder::farm_bound(const std::string& label, const distributions::Distribution& task,
                                           std::int64_t n, std::int64_t workers, const graph::PoolMaster& master) {
  if (n == 0) return kZero;
  const double in_cycle = master.dispatch_seconds + master.result_seconds;
  const distributions::Distribution cycle = in_cycle > 0.0 ? distributions::shift(task, in_cycle) : task;
  const std::size_t serving = leaf(label + " master serves " + std::to_string(n), graph::NodeKind::Task,
                                   distributions::series_power(master.service, n));
  const std::size_t cycles =
      task_leaf(label + " cycles / " + std::to_string(workers),
                distributions::scale(distributions::series_power(cycle, n), 1.0 / static_cast<double>(workers)));
  return series({serving, cycles, task_leaf(label + " last cycle", distributions::parallel_power(cycle, n))});
}

std::size_t ApproximateBuilder::level(std::size_t one, std::int64_t tasks, double bytes,
                                      const models::SourceLocation& where) {
  const std::size_t comm = send(message_cost(bytes, where), 1, 1);
  return close(spread(tasks, [&](std::int64_t c) { return c == 0 ? kZero : series({power(one, c), comm}); }));
}

// ---- pieces -------------------------------------------------------------------------

std::size_t ApproximateBuilder::whole(const Piece& piece) {
  if (piece.empty) return kZero;
  if (piece.open) return close(piece.head);
  return series({close(piece.head), piece.middle, close(piece.tail)});
}

Piece ApproximateBuilder::synchronised(std::size_t middle) const {
  Piece piece;
  piece.empty = false;
  piece.open = false;
  piece.head = uniform(kZero);
  piece.middle = middle;
  piece.tail = uniform(kZero);
  return piece;
}

Piece ApproximateBuilder::open_phase(const models::WorkPhase& phase, Work work) {
  Piece piece;
  piece.empty = false;
  piece.head = std::move(work);
  piece.first_phase = piece.last_phase = phase.name;
  return piece;
}

Piece ApproximateBuilder::unit_phase(const models::WorkPhase& phase,
                                     const std::function<UnitMessages(std::int64_t, double)>& messages) {
  const distributions::Distribution task = runtime(*phase.runtime);
  const std::size_t one = task_leaf(phase.name + " task", memory_bound(task, phase));
  const std::int64_t units = count(*phase.units, phase.location, "number of tasks");
  const double volume = value(phase.volume, phase.location, "communication volume");
  std::map<std::int64_t, std::size_t> made;
  Work work = spread(units, [&](std::int64_t c) {
    auto found = made.find(c);
    if (found != made.end()) return found->second;
    const UnitMessages sent = c == 0 ? UnitMessages{} : messages(c, volume);
    return made
        .emplace(c,
                 series({power(one, c), send(sent.outside ? message_out_cost(sent.bytes, phase.location, sent.sharing)
                                                          : message_cost(sent.bytes, phase.location, sent.sharing),
                                             sent.sends, sent.receives, sent.port_sharers)}))
        .first->second;
  });
  const std::size_t delay = contention(static_cast<double>(units) * distributions::mean(task), phase.location);
  if (delay != kZero) work = then(work, uniform(delay));
  return open_phase(phase, std::move(work));
}

}  // namespace scaling::detail
