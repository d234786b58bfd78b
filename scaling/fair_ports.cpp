#include "scaling/fair_ports.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace scaling {

namespace {
// Finishes this close (relative) are one: round-off alone sets them apart.
constexpr double kSameTime = 1e-12;
}  // namespace

FairPorts::FairPorts(std::size_t ports, double capacity)
    : capacity_(capacity),
      under_way_(ports),
      port_seen_(ports, 0),
      left_(ports, 0.0),
      load_(ports, 0.0),
      most_(ports, 0.0),
      unfixed_(ports, 0) {}

std::size_t FairPorts::add(double now, std::size_t from, std::size_t to, double work, Connection connection) {
  if (from == to || from >= under_way_.size() || to >= under_way_.size() || !(work > 0.0)) {
    throw std::invalid_argument("FairPorts::add: a message needs two different ports and some work");
  }
  move_to(now);
  const std::size_t message = messages_.size();
  Message m;
  m.from = from;
  m.to = to;
  m.connection = connection;
  m.remaining = work;
  messages_.push_back(m);
  message_seen_.push_back(0);
  rate_.push_back(0.0);
  std::deque<std::size_t>& queue = waiting_[connection];
  queue.push_back(message);
  if (queue.size() == 1) start(message);  // else it waits for the connection's earlier ones
  return message;
}

double FairPorts::next_finish() {
  share();
  while (!finishes_.empty()) {
    const auto& [at, message, version] = finishes_.top();
    if (messages_[message].under_way && messages_[message].version == version) return at;
    finishes_.pop();
  }
  return std::numeric_limits<double>::infinity();
}

FairPorts::Finished FairPorts::pop_finished() {
  Finished finished;
  finished.at = next_finish();
  if (std::isinf(finished.at)) return finished;
  move_to(finished.at);
  const double until = finished.at + kSameTime * std::max(1.0, std::abs(finished.at));
  while (!finishes_.empty() && std::get<0>(finishes_.top()) <= until) {
    const auto [at, message, version] = finishes_.top();
    finishes_.pop();
    if (!messages_[message].under_way || messages_[message].version != version) continue;
    finished.messages.push_back(message);
  }
  for (const std::size_t message : finished.messages) end(message);
  std::sort(finished.messages.begin(), finished.messages.end());
  return finished;
}

// The rates hold from now_ until the next change: a change at a later time first fixes the rates
// of the changes before it.
void FairPorts::move_to(double now) {
  if (now < now_) throw std::invalid_argument("FairPorts: time goes back");
  if (now > now_) {
    share();
    now_ = now;
  }
}

void FairPorts::start(std::size_t message) {
  Message& m = messages_[message];
  m.under_way = true;
  m.since = now_;
  m.rate = 0.0;
  m.at_from = under_way_[m.from].size();
  under_way_[m.from].push_back(message);
  m.at_to = under_way_[m.to].size();
  under_way_[m.to].push_back(message);
  changed_.push_back(m.from);
  changed_.push_back(m.to);
}

void FairPorts::end(std::size_t message) {
  Message& m = messages_[message];
  m.under_way = false;
  m.remaining = 0.0;
  detach(m.from, m.at_from);
  detach(m.to, m.at_to);
  changed_.push_back(m.from);
  changed_.push_back(m.to);
  std::deque<std::size_t>& queue = waiting_[m.connection];
  queue.pop_front();
  if (!queue.empty()) start(queue.front());
}

// Removes the message at `position` of the port's list, the last one taking its place.
void FairPorts::detach(std::size_t port, std::size_t position) {
  std::vector<std::size_t>& list = under_way_[port];
  const std::size_t moved = list.back();
  list[position] = moved;
  list.pop_back();
  if (position < list.size()) {
    Message& m = messages_[moved];
    (m.from == port ? m.at_from : m.at_to) = position;
  }
}

// The max-min rates change where messages started or ended, and usually only near there: the
// rates are worked out again on the ports within a few hops of the change, the messages that
// leave that region keeping theirs, and accepted when every message there still has a
// bottleneck (max-min's condition: a full port where no message is faster than it, or full
// rate); else on twice as many hops, up to the whole connected part.
void FairPorts::share() {
  if (changed_.empty()) return;
  std::vector<std::size_t> seeds;
  ++epoch_;
  for (const std::size_t port : changed_) {
    if (port_seen_[port] != epoch_) seeds.push_back(port);
    port_seen_[port] = epoch_;
  }
  changed_.clear();
  for (std::size_t hops = 2;; hops *= 2) {
    if (settle(region(seeds, hops))) return;
  }
}

// The ports within `hops` of the seeds through the messages under way (port_seen_ == epoch_).
std::vector<std::size_t> FairPorts::region(const std::vector<std::size_t>& seeds, std::size_t hops) {
  ++epoch_;
  std::vector<std::size_t> ports = seeds;
  for (const std::size_t port : ports) port_seen_[port] = epoch_;
  std::size_t layer = 0;
  for (std::size_t hop = 0; hop < hops && layer < ports.size(); ++hop) {
    const std::size_t end = ports.size();
    for (; layer < end; ++layer) {
      for (const std::size_t message : under_way_[ports[layer]]) {
        for (const std::size_t port : {messages_[message].from, messages_[message].to}) {
          if (port_seen_[port] != epoch_) ports.push_back(port);
          port_seen_[port] = epoch_;
        }
      }
    }
  }
  return ports;
}

// Max-min rates for the messages with both ports in the region, those with one port outside
// keeping their rates; true (and the rates taken) when max-min's condition holds around it.
bool FairPorts::settle(const std::vector<std::size_t>& ports) {
  const std::uint64_t in_region = epoch_;
  std::vector<std::size_t> inner, crossing;
  for (const std::size_t port : ports) {
    left_[port] = capacity_;
    unfixed_[port] = 0;
  }
  for (const std::size_t port : ports) {
    for (const std::size_t message : under_way_[port]) {
      const Message& m = messages_[message];
      const bool both = port_seen_[m.from] == in_region && port_seen_[m.to] == in_region;
      if (both && port == m.to) continue;  // listed once, at its sending port
      if (both) {
        inner.push_back(message);
        ++unfixed_[m.from];
        ++unfixed_[m.to];
      } else {
        crossing.push_back(message);
        left_[port] -= m.rate;
      }
    }
  }
  fill(ports, inner, in_region);
  if (!crossing.empty() && !bottlenecked(ports, inner, crossing, in_region)) return false;
  for (const std::size_t message : inner) {
    Message& m = messages_[message];
    if (m.rate == rate_[message]) continue;
    m.remaining = std::max(0.0, m.remaining - m.rate * (now_ - m.since));
    m.since = now_;
    m.rate = rate_[message];
    ++m.version;
    finishes_.emplace(now_ + m.remaining / m.rate, message, m.version);
  }
  return true;
}

// Progressive filling of the inner messages' rates (rate_): raise them together; a port whose
// capacity left is then used up fixes the rate of its unfixed messages; none above full rate.
void FairPorts::fill(const std::vector<std::size_t>& ports, const std::vector<std::size_t>& inner,
                     std::uint64_t in_region) {
  using Share = std::pair<double, std::size_t>;  // (equal share, port)
  std::priority_queue<Share, std::vector<Share>, std::greater<>> shares;
  for (const std::size_t port : ports) {
    if (unfixed_[port] > 0) shares.emplace(std::max(0.0, left_[port]) / static_cast<double>(unfixed_[port]), port);
  }
  const std::uint64_t fixed = ++epoch_;
  double level = 0.0;
  while (!shares.empty()) {
    const auto [share, port] = shares.top();
    shares.pop();
    if (unfixed_[port] == 0 || share != std::max(0.0, left_[port]) / static_cast<double>(unfixed_[port])) continue;
    // Shares only rise as filling goes on; round-off must not take one below the last.
    const double rate = std::min(1.0, std::max(level, share));
    level = rate;
    if (rate == 1.0) break;  // every port left can carry its messages at full rate
    for (const std::size_t message : under_way_[port]) {
      const Message& m = messages_[message];
      const std::size_t other = m.from == port ? m.to : m.from;
      if (message_seen_[message] == fixed || port_seen_[other] != in_region) continue;  // fixed, or crossing
      message_seen_[message] = fixed;
      rate_[message] = rate;
      left_[other] -= rate;
      if (--unfixed_[other] > 0)
        shares.emplace(std::max(0.0, left_[other]) / static_cast<double>(unfixed_[other]), other);
    }
    unfixed_[port] = 0;
  }
  for (const std::size_t message : inner) {
    if (message_seen_[message] != fixed) rate_[message] = 1.0;
  }
}

// Max-min's condition around the region: no port over its capacity, and every message touching
// it at full rate or at a full port where none is faster.
bool FairPorts::bottlenecked(const std::vector<std::size_t>& ports, const std::vector<std::size_t>& inner,
                             const std::vector<std::size_t>& crossing, std::uint64_t in_region) {
  constexpr double kSlack = 1e-12;
  const auto rate_of = [&](std::size_t message) {
    const Message& m = messages_[message];
    return port_seen_[m.from] == in_region && port_seen_[m.to] == in_region ? rate_[message] : m.rate;
  };
  std::vector<std::size_t> checked = ports;
  for (const std::size_t message : crossing) {
    checked.push_back(messages_[message].from);
    checked.push_back(messages_[message].to);
  }
  for (const std::size_t port : checked) {
    load_[port] = 0.0;
    most_[port] = 0.0;
    for (const std::size_t message : under_way_[port]) {
      load_[port] += rate_of(message);
      most_[port] = std::max(most_[port], rate_of(message));
    }
  }
  for (const std::size_t port : ports) {
    if (load_[port] > capacity_ * (1 + kSlack)) return false;
  }
  const auto has_bottleneck = [&](std::size_t message) {
    const double rate = rate_of(message);
    if (rate >= 1.0 - kSlack) return true;
    for (const std::size_t port : {messages_[message].from, messages_[message].to}) {
      if (load_[port] >= capacity_ * (1 - kSlack) && rate >= most_[port] * (1 - kSlack)) return true;
    }
    return false;
  };
  return std::all_of(inner.begin(), inner.end(), has_bottleneck) &&
         std::all_of(crossing.begin(), crossing.end(), has_bottleneck);
}

}  // namespace scaling
