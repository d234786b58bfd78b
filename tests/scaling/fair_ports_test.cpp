// Max-min fair sharing of ports (scaling/fair_ports.hpp, docs/semantics.md M13) against finish
// times worked out by hand from progressive filling.
#include "scaling/fair_ports.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace {

using scaling::FairPorts;

// Every message's finish time, the messages added up front.
std::map<std::size_t, double> finish_times(FairPorts& ports) {
  std::map<std::size_t, double> out;
  for (;;) {
    const FairPorts::Finished finished = ports.pop_finished();
    if (std::isinf(finished.at)) return out;
    for (const std::size_t m : finished.messages) out[m] = finished.at;
  }
}

TEST(FairPorts, TwoMessagesFromOnePortShareItAndEndTogether) {
  FairPorts ports(4, 1.0);  // 0, 1: senders; 2, 3: receivers
  ports.add(0.0, 0, 2, 1.0);
  ports.add(0.0, 0, 3, 1.0);
  const auto at = finish_times(ports);
  EXPECT_DOUBLE_EQ(at.at(0), 2.0);
  EXPECT_DOUBLE_EQ(at.at(1), 2.0);
}

TEST(FairPorts, OneConnectionsMessagesGoOneAfterAnother) {
  FairPorts ports(2, 1.0);
  ports.add(0.0, 0, 1, 1.0);
  ports.add(0.0, 0, 1, 1.0);
  const auto at = finish_times(ports);
  EXPECT_DOUBLE_EQ(at.at(0), 1.0);
  EXPECT_DOUBLE_EQ(at.at(1), 2.0);
}

// Senders a, b, c (ports 0-2), receivers x, y (3, 4); a -> x, a -> y, b -> x, c -> x. x's share
// 1/3 is the least: a -> x, b -> x, c -> x run at 1/3; a has 2/3 left for a -> y, which ends at
// 1.5; then a -> x is still held to 1/3 by x, and the three end at 3.
TEST(FairPorts, ProgressiveFillingGivesABottleneckedPortsLeftoverToTheOthers) {
  FairPorts ports(5, 1.0);
  ports.add(0.0, 0, 3, 1.0);
  ports.add(0.0, 0, 4, 1.0);
  ports.add(0.0, 1, 3, 1.0);
  ports.add(0.0, 2, 3, 1.0);
  const auto at = finish_times(ports);
  EXPECT_DOUBLE_EQ(at.at(1), 1.5);
  EXPECT_DOUBLE_EQ(at.at(0), 3.0);
  EXPECT_DOUBLE_EQ(at.at(2), 3.0);
  EXPECT_DOUBLE_EQ(at.at(3), 3.0);
}

// A message that comes later takes half the port from then on: a -> x (2 s alone) has 1 s left at
// t = 1, when a -> y (0.5 s) comes; both run at 1/2 until a -> y ends at 2; a -> x's last 0.5 s
// alone ends at 2.5.
TEST(FairPorts, AMessageThatComesLaterSharesFromThenOn) {
  FairPorts ports(3, 1.0);
  ports.add(0.0, 0, 1, 2.0);
  EXPECT_DOUBLE_EQ(ports.next_finish(), 2.0);
  ports.add(1.0, 0, 2, 0.5);
  const auto at = finish_times(ports);
  EXPECT_DOUBLE_EQ(at.at(1), 2.0);
  EXPECT_DOUBLE_EQ(at.at(0), 2.5);
}

// PORTS IS 2: a port carries twice a message's full rate; no message is faster than full rate.
TEST(FairPorts, KPortsCarryKMessagesAtFullRate) {
  FairPorts two(5, 2.0);
  two.add(0.0, 0, 1, 1.0);
  two.add(0.0, 0, 2, 1.0);
  EXPECT_DOUBLE_EQ(two.next_finish(), 1.0);
  FairPorts three(5, 2.0);
  for (std::size_t to = 1; to <= 3; ++to) three.add(0.0, 0, to, 1.0);
  EXPECT_DOUBLE_EQ(three.next_finish(), 1.5);  // 2/3 each
}

// Messages that share no port do not slow one another, and a chain of shared ports (a 1-D
// exchange: k sends to k - 1 and k + 1) gives every message half of its sender's port.
TEST(FairPorts, AnExchangeAlongAChainRunsAtHalfRate) {
  constexpr std::size_t p = 64;
  FairPorts ports(2 * p, 1.0);
  for (std::size_t k = 0; k < p; ++k) {
    if (k > 0) ports.add(0.0, 2 * k, 2 * (k - 1) + 1, 1.0);
    if (k + 1 < p) ports.add(0.0, 2 * k, 2 * (k + 1) + 1, 1.0);
  }
  const auto at = finish_times(ports);
  ASSERT_EQ(at.size(), 2 * (p - 1));
  for (const auto& [message, time] : at) EXPECT_DOUBLE_EQ(time, 2.0) << message;
}

// A plain reference: global progressive filling over every message under way, worked out
// afresh at every arrival and end, one connection's messages one after another.
struct Arrival {
  double at;
  std::size_t from, to;
  double work;
};

std::vector<double> reference_finishes(const std::vector<Arrival>& arrivals, std::size_t ports, double capacity) {
  const std::size_t n = arrivals.size();
  std::vector<double> remaining(n), finish(n, -1.0);
  for (std::size_t i = 0; i < n; ++i) remaining[i] = arrivals[i].work;
  double now = 0.0;
  std::size_t next = 0;
  for (;;) {
    // Under way: arrived, not finished, and the first unfinished of its connection.
    std::vector<std::size_t> active;
    for (std::size_t i = 0; i < next; ++i) {
      if (finish[i] >= 0.0) continue;
      bool first = true;
      for (std::size_t j = 0; j < i; ++j) {
        first = first && !(finish[j] < 0.0 && arrivals[j].from == arrivals[i].from && arrivals[j].to == arrivals[i].to);
      }
      if (first) active.push_back(i);
    }
    std::vector<double> rate(n, 0.0), left(ports, capacity);
    std::vector<bool> fixed(n, false);
    for (std::size_t round = 0; round < active.size(); ++round) {
      double least = 1.0;
      std::size_t at = ports;
      for (std::size_t port = 0; port < ports; ++port) {
        std::size_t count = 0;
        for (const std::size_t i : active) count += !fixed[i] && (arrivals[i].from == port || arrivals[i].to == port);
        if (count > 0 && left[port] / static_cast<double>(count) < least) {
          least = left[port] / static_cast<double>(count);
          at = port;
        }
      }
      for (const std::size_t i : active) {
        if (fixed[i] || (at < ports && arrivals[i].from != at && arrivals[i].to != at)) continue;
        fixed[i] = true;
        rate[i] = least;
        left[arrivals[i].from] -= least;
        left[arrivals[i].to] -= least;
      }
    }
    double step = next < n ? arrivals[next].at - now : std::numeric_limits<double>::infinity();
    for (const std::size_t i : active) step = std::min(step, remaining[i] / rate[i]);
    if (std::isinf(step)) return finish;
    now += step;
    for (const std::size_t i : active) {
      remaining[i] -= rate[i] * step;
      if (remaining[i] <= 1e-9 * arrivals[i].work) finish[i] = now;
    }
    while (next < n && arrivals[next].at <= now) ++next;
  }
}

// Random messages among a few ports, so that many share ports and connections: the engine's
// local updates against the reference's global filling.
TEST(FairPorts, AgreesWithGlobalProgressiveFillingOnRandomMessages) {
  std::mt19937_64 random(20261207);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t processors = 2 + random() % 6;
    const double capacity = 1.0 + static_cast<double>(random() % 2);
    std::vector<Arrival> arrivals;
    double at = 0.0;
    for (std::size_t i = 0, n = 1 + random() % 30; i < n; ++i) {
      at += (random() % 3 == 0) ? 0.0 : std::uniform_real_distribution<double>(0.0, 2.0)(random);
      const std::size_t a = random() % processors;
      const std::size_t b = (a + 1 + random() % (processors - 1)) % processors;
      arrivals.push_back({at, 2 * a, 2 * b + 1, std::uniform_real_distribution<double>(0.1, 3.0)(random)});
    }
    const std::vector<double> expected = reference_finishes(arrivals, 2 * processors, capacity);
    FairPorts engine(2 * processors, capacity);
    std::map<std::size_t, double> got;
    for (const Arrival& arrival : arrivals) {
      while (engine.next_finish() < arrival.at) {
        for (const auto finished = engine.pop_finished(); const std::size_t m : finished.messages) got[m] = finished.at;
      }
      engine.add(arrival.at, arrival.from, arrival.to, arrival.work);
    }
    for (const auto& [m, time] : finish_times(engine)) got[m] = time;
    ASSERT_EQ(got.size(), arrivals.size()) << "trial " << trial;
    for (std::size_t m = 0; m < arrivals.size(); ++m) {
      EXPECT_NEAR(got[m], expected[m], 1e-7 * std::max(1.0, expected[m])) << "trial " << trial << ", message " << m;
    }
  }
}

TEST(FairPorts, RefusesWhatIsNoMessage) {
  FairPorts ports(2, 1.0);
  EXPECT_THROW(ports.add(0.0, 0, 0, 1.0), std::invalid_argument);
  EXPECT_THROW(ports.add(0.0, 0, 1, 0.0), std::invalid_argument);
  ports.add(1.0, 0, 1, 1.0);
  EXPECT_THROW(ports.add(0.5, 0, 1, 1.0), std::invalid_argument);  // time went back
}

}  // namespace
