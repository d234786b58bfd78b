// Random task graphs for the bounds tests: random layered graphs and random series-parallel
// graphs (optionally with extra arcs) with exponential, Erlang, uniform and numerical runtimes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "solvers/bounds.hpp"
#include "solvers/monte_carlo.hpp"
#include <gtest/gtest.h>

namespace bounds_test {

namespace d = distributions;
using graph::NodeId;

class Random {
 public:
  explicit Random(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)) % n; }
  d::Xoshiro256pp& engine() { return rng_; }

 private:
  d::Xoshiro256pp rng_;
};

// A few runtimes shared by the graph's tasks (as a scaled model shares them).
inline std::vector<d::Distribution> palette(Random& random) {
  std::vector<d::Distribution> result;
  result.push_back(d::exponential(0.5 + random.uniform()));
  result.push_back(d::erlang(2 + static_cast<int>(random.below(8)), 1.0 + random.uniform()));
  const double low = 2.0 * random.uniform();
  result.push_back(d::uniform(low, low + 0.5 + 3.0 * random.uniform()));
  // Measured runtimes: samples of a lognormal-like law, and a discretised Erlang.
  std::vector<double> samples(200);
  for (double& x : samples) x = std::exp(0.8 * (random.uniform() + random.uniform() + random.uniform() - 1.5)) * 2.0;
  result.push_back(d::from_samples(samples));
  d::GridOptions coarse;
  coarse.max_points = 256;
  result.push_back(d::discretise(d::erlang(4, 2.0), coarse));
  return result;
}

inline graph::TaskNode task(const std::vector<d::Distribution>& laws, Random& random) {
  return graph::TaskNode{"t", graph::NodeKind::Task, laws[random.below(laws.size())]};
}

// Layers of random widths; each task has 1 to 3 predecessors in the previous layer and now and
// then one further back (some of those are transitive).
inline graph::TaskGraph layered(std::size_t tasks, Random& random) {
  const auto laws = palette(random);
  graph::TaskGraph g;
  std::vector<std::vector<NodeId>> layers;
  std::size_t made = 0;
  const std::size_t width = 2 + random.below(std::max<std::size_t>(2, static_cast<std::size_t>(std::sqrt(tasks)) * 2));
  while (made < tasks) {
    const std::size_t w = std::min(tasks - made, 1 + random.below(width));
    std::vector<NodeId> layer;
    for (std::size_t i = 0; i < w; ++i) {
      const NodeId v = g.add_node(task(laws, random));
      if (!layers.empty()) {
        const auto& previous = layers.back();
        const std::size_t preds = 1 + random.below(3);
        for (std::size_t k = 0; k < preds; ++k) g.add_arc(previous[random.below(previous.size())], v);
        if (layers.size() >= 2 && random.uniform() < 0.2) {
          const auto& earlier = layers[random.below(layers.size() - 1)];
          g.add_arc(earlier[random.below(earlier.size())], v);
        }
      }
      layer.push_back(v);
    }
    made += w;
    layers.push_back(std::move(layer));
  }
  return g;
}

struct Piece {
  std::vector<NodeId> entries;
  std::vector<NodeId> exits;
};

// A random series-parallel graph of about `tasks` tasks: a series or parallel composition of
// 2 to 4 random parts; series joins every exit of one part to every entry of the next.
inline Piece series_parallel(graph::TaskGraph& g, std::size_t tasks, const std::vector<d::Distribution>& laws,
                             Random& random, int depth) {
  if (tasks <= 1) {
    const NodeId v = g.add_node(task(laws, random));
    return {{v}, {v}};
  }
  const std::size_t parts = std::min<std::size_t>(tasks, 2 + random.below(3));
  std::vector<std::size_t> sizes(parts, 1);
  for (std::size_t rest = tasks - parts; rest > 0; --rest) ++sizes[random.below(parts)];
  const bool series = depth % 2 == 0 ? random.uniform() < 0.6 : random.uniform() < 0.4;
  Piece result;
  for (std::size_t i = 0; i < parts; ++i) {
    Piece piece = series_parallel(g, sizes[i], laws, random, depth + 1);
    if (!series) {
      result.entries.insert(result.entries.end(), piece.entries.begin(), piece.entries.end());
      result.exits.insert(result.exits.end(), piece.exits.begin(), piece.exits.end());
    } else if (i == 0) {
      result = std::move(piece);
    } else {
      for (NodeId u : result.exits) {
        for (NodeId v : piece.entries) g.add_arc(u, v);
      }
      result.exits = std::move(piece.exits);
    }
  }
  return result;
}

inline graph::TaskGraph random_series_parallel(std::size_t tasks, std::size_t extra_arcs, Random& random) {
  const auto laws = palette(random);
  graph::TaskGraph g;
  series_parallel(g, tasks, laws, random, 0);
  if (extra_arcs > 0) {
    const std::vector<NodeId> order = graph::topological_order(g);
    for (std::size_t k = 0; k < extra_arcs; ++k) {
      std::size_t i = random.below(order.size());
      std::size_t j = random.below(order.size());
      if (i == j) continue;
      if (i > j) std::swap(i, j);
      g.add_arc(order[i], order[j]);
    }
  }
  return g;
}

// Sizes from 10 to 2,000, log-uniformly.
inline std::size_t random_size(Random& random) {
  return static_cast<std::size_t>(std::exp(std::log(10.0) + random.uniform() * (std::log(2000.0) - std::log(10.0))));
}

inline solvers::BoundsOptions test_options() {
  solvers::BoundsOptions options;
  options.grid.max_points = 1024;
  options.reduction_work = 200'000;
  return options;
}

struct Tally {
  int graphs = 0;
  int bounds = 0;
  double relative_width = 0.0;
};

// Every computed bound of g against a Monte Carlo estimate of its mean (3 standard errors).
inline void check_against_monte_carlo(const graph::TaskGraph& g, std::uint64_t seed, const std::string& what,
                                      Tally& tally) {
  const solvers::BoundsSummary s = solvers::compute_bounds(g, test_options());
  solvers::MonteCarloOptions mc;
  mc.samples = 4000;
  mc.seed = seed;
  solvers::MonteCarloSummary sampled;
  solvers::solve_monte_carlo(g, mc, &sampled);
  const double tolerance = 3 * sampled.standard_error;
  for (const auto& v : s.values) {
    if (!v.computed) continue;
    ++tally.bounds;
    if (solvers::is_lower_bound(v.method)) {
      EXPECT_LE(v.value, sampled.mean + tolerance) << what << ": " << to_string(v.method) << "\n"
                                                   << s.FullReport() << "Monte Carlo " << sampled.BriefReport();
    } else {
      EXPECT_GE(v.value, sampled.mean - tolerance) << what << ": " << to_string(v.method) << "\n"
                                                   << s.FullReport() << "Monte Carlo " << sampled.BriefReport();
    }
  }
  EXPECT_LE(s.lower, s.upper) << what << "\n" << s.FullReport();
  ++tally.graphs;
  tally.relative_width += (s.upper - s.lower) / sampled.mean;
}

}  // namespace bounds_test
