// Max-min fair sharing of ports among the messages that hold them at once (PORT SHARING IS
// FAIR;, docs/semantics.md M13), as a fluid model: each message needs `work` seconds of a port
// to itself on two ports (its sender's sending port and its receiver's receiving port); the
// messages under way share each port's capacity max-min (progressive filling: the port whose
// equal share is least fixes its messages' rate, and so on), no message faster than a port
// alone; messages of one connection (the same two ports) go one after another in the order they
// come, as an adapter sends one connection's messages in order. SimGrid's network model shares a
// link the same way (docs/machine.md, "Checked against SimGrid").
//
// A discrete-event engine: the caller adds messages as they become ready, in time order, and
// asks when the next one finishes. Rates change only when a message starts or ends, and as a rule
// only near it: each change works them out on a few ports around it, on more only where max-min
// needs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

namespace scaling {

class FairPorts {
 public:
  // `ports` ports, each of `capacity` times a message's full rate (PORTS IS k: k).
  FairPorts(std::size_t ports, double capacity);

  // A message ready at `now` (not before the previous call's time, nor after next_finish())
  // that holds ports `from` and `to` (different) for `work` > 0 seconds at full rate. Returns
  // its number: 0, 1, ... in the order of the calls.
  std::size_t add(double now, std::size_t from, std::size_t to, double work) {
    return add(now, from, to, work, {from, to});
  }
  // The same for a message of `connection` (a sender and a receiver, whatever their ports: a
  // node's processors share its ports, each pair of them a connection of its own, M15).
  using Connection = std::pair<std::size_t, std::size_t>;
  std::size_t add(double now, std::size_t from, std::size_t to, double work, Connection connection);

  // When the next message under way ends; +infinity when none is.
  double next_finish();

  // The messages that end at next_finish() (those within a relative 1e-12 of it, which round-off
  // alone set apart), and that time; the messages of their connections queued behind them start
  // then.
  struct Finished {
    double at = 0.0;
    std::vector<std::size_t> messages;
  };
  Finished pop_finished();

 private:
  struct Message {
    std::size_t from = 0, to = 0;
    Connection connection;
    double remaining = 0.0;  // seconds of full rate still to send at `since`
    double rate = 0.0;       // of a port alone: 1
    double since = 0.0;
    std::uint64_t version = 0;           // of its entry in finishes_
    std::size_t at_from = 0, at_to = 0;  // its position in under_way_[from] and [to]
    bool under_way = false;
  };
  void move_to(double now);
  void start(std::size_t message);
  void end(std::size_t message);
  void detach(std::size_t port, std::size_t position);
  // New rates near the ports changed since the last call (fair_ports.cpp).
  void share();
  std::vector<std::size_t> region(const std::vector<std::size_t>& seeds, std::size_t hops);
  bool settle(const std::vector<std::size_t>& ports);
  void fill(const std::vector<std::size_t>& ports, const std::vector<std::size_t>& inner, std::uint64_t in_region);
  bool bottlenecked(const std::vector<std::size_t>& ports, const std::vector<std::size_t>& inner,
                    const std::vector<std::size_t>& crossing, std::uint64_t in_region);

  double capacity_;
  double now_ = 0.0;
  std::vector<Message> messages_;
  std::vector<std::vector<std::size_t>> under_way_;        // per port: its messages under way
  std::map<Connection, std::deque<std::size_t>> waiting_;  // per connection
  std::vector<std::size_t> changed_;                       // ports whose messages changed since share()
  // Scratch of share(), by port and by message; an epoch marks what one pass has seen.
  std::vector<std::uint64_t> port_seen_, message_seen_;
  std::uint64_t epoch_ = 0;
  std::vector<double> left_, load_, most_;                       // per port: capacity left, load, fastest message
  std::vector<std::size_t> unfixed_;                             // per port: its messages whose rate is not fixed yet
  std::vector<double> rate_;                                     // per message: its new rate
  using Entry = std::tuple<double, std::size_t, std::uint64_t>;  // (finish, message, version)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> finishes_;
};

}  // namespace scaling
