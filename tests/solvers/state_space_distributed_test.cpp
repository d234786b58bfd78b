// The state-space solve shared by the ranks of a job (here threads standing for an MPI job's
// processes, distributed::run_threaded_ranks) against the solve of one process: every rank's
// Result is the one-process Result to the bit (==, not NEAR: the ranks must add the same
// doubles in the same order), and a model one process refuses is refused on every rank alike.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "distributed/threaded_ranks.hpp"
#include "distributions/distribution.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/state_space.hpp"
#include "solvers/state_space_estimate.hpp"
#include "solvers/state_space_model.hpp"
#include "solvers/state_space_sweep.hpp"
#include "tests/support/program_builders.hpp"

namespace {

namespace d = distributions;
using solvers::Result;
using solvers::StateSpaceOptions;
using test_support::neighbor_program;

constexpr int kMostRanks = 4;

// ---- Graphs -----------------------------------------------------------------------------------

graph::TaskNode task(d::Distribution runtime) {
  return graph::TaskNode{"t", graph::NodeKind::Task, std::move(runtime)};
}

// The paper's section 5.1 example (NEIGHBOR over 10 columns, Erlang-8 tasks) on p processors.
scaling::ExactModel paper_example(int iterations, int p) {
  models::Environment env;
  env.values = {{"columns", 10.0}, {"iterations", static_cast<double>(iterations)}, {"RTFactor", 1.0}};
  return scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p);
}

// n tasks, arc i -> j (i < j) with probability 0.35; exponential, Erlang, hyperexponential
// (branching starts) and mixtures with an atom at 0 (instantaneous completions), from a seed.
graph::TaskGraph random_dag(std::uint64_t seed, int n) {
  std::mt19937_64 random(seed);
  auto uniform = [&] { return static_cast<double>(random() >> 11) * 0x1.0p-53; };
  graph::TaskGraph g;
  for (int i = 0; i < n; ++i) {
    const double rate = 0.5 + 1.5 * uniform();
    const double pick = uniform();
    if (pick < 0.2)
      g.add_node(task(d::exponential(rate)));
    else if (pick < 0.35)
      g.add_node(task(d::hyperexponential({0.4, 0.6}, {rate, 3.0 * rate})));
    else if (pick < 0.45)
      g.add_node(task(d::mixture({0.2, 0.8}, {d::deterministic(0.0), d::erlang(2, rate)})));
    else
      g.add_node(task(d::erlang(1 + static_cast<int>(random() % 4), rate)));
  }
  for (int j = 1; j < n; ++j) {
    for (int i = 0; i < j; ++i) {
      if (uniform() < 0.35) g.add_arc(static_cast<graph::NodeId>(i), static_cast<graph::NodeId>(j));
    }
  }
  return g;
}

// ---- Solving on ranks ---------------------------------------------------------------------------

using Solve = std::function<Result(const StateSpaceOptions&)>;

// What every one of `ranks` ranks returns from `solve` with the options and its communicator.
std::vector<Result> on_ranks(int ranks, const StateSpaceOptions& options, const Solve& solve) {
  std::vector<Result> results(static_cast<std::size_t>(ranks));
  distributed::run_threaded_ranks(ranks, [&](const distributed::Communicator& communicator) {
    StateSpaceOptions mine = options;
    mine.communicator = &communicator;
    results[static_cast<std::size_t>(communicator.rank())] = solve(mine);
  });
  return results;
}

void expect_same_distribution(const d::Distribution& got, const d::Distribution& expected, const std::string& what) {
  EXPECT_EQ(d::describe(got), d::describe(expected)) << what;
  ASSERT_EQ(d::grid_size(got), d::grid_size(expected)) << what;
  EXPECT_EQ(d::mean(got), d::mean(expected)) << what;
  EXPECT_EQ(d::variance(got), d::variance(expected)) << what;
  for (double q = 0.01; q < 1.0; q += 0.01)
    EXPECT_EQ(d::quantile(got, q), d::quantile(expected, q)) << what << " q " << q;
  if (d::is_closed_form(got) || d::grid_size(got) == 0) return;
  const d::LatticeView a = d::lattice(got), b = d::lattice(expected);
  EXPECT_EQ(a.origin, b.origin) << what;
  EXPECT_EQ(a.step, b.step) << what;
  EXPECT_EQ(a.slack, b.slack) << what;
  EXPECT_TRUE(std::equal(a.lower.begin(), a.lower.end(), b.lower.begin(), b.lower.end())) << what;
  EXPECT_TRUE(std::equal(a.upper.begin(), a.upper.end(), b.upper.begin(), b.upper.end())) << what;
}

void expect_identical(const Result& got, const Result& expected, const std::string& what) {
  ASSERT_EQ(got.solved(), expected.solved()) << what;
  EXPECT_EQ(got.method, expected.method) << what;
  EXPECT_EQ(got.mean, expected.mean) << what;
  EXPECT_EQ(got.lower, expected.lower) << what;
  EXPECT_EQ(got.upper, expected.upper) << what;
  EXPECT_EQ(got.detail, expected.detail) << what;
  EXPECT_EQ(got.statistics.states, expected.statistics.states) << what;
  EXPECT_EQ(got.statistics.represented_tasks, expected.statistics.represented_tasks) << what;
  EXPECT_EQ(got.statistics.grid_points, expected.statistics.grid_points) << what;
  ASSERT_EQ(got.distribution.has_value(), expected.distribution.has_value()) << what;
  if (got.distribution) expect_same_distribution(*got.distribution, *expected.distribution, what);
}

// Solves alone, then on 1 to kMostRanks ranks, and expects every rank's Result to be the same.
Result expect_same_on_every_rank(const StateSpaceOptions& options, const Solve& solve, const std::string& what) {
  const Result alone = solve(options);
  EXPECT_TRUE(alone.solved()) << what;
  for (int ranks = 1; ranks <= kMostRanks; ++ranks) {
    const std::vector<Result> results = on_ranks(ranks, options, solve);
    for (int r = 0; r < ranks; ++r) {
      expect_identical(results[static_cast<std::size_t>(r)], alone,
                       what + ", rank " + std::to_string(r) + " of " + std::to_string(ranks));
    }
  }
  return alone;
}

Solve graph_solve(const graph::TaskGraph& g) {
  return [&g](const StateSpaceOptions& o) { return solvers::solve_state_space(g, o); };
}

StateSpaceOptions options(int threads) {
  StateSpaceOptions o;
  o.threads = threads;
  return o;
}

// ---- Identical figures --------------------------------------------------------------------------

// 130,000 states over about 250 levels, most of them many chunks wide: the chunks of a level
// are shared between the ranks and their successors cross from rank to rank.
TEST(StateSpaceDistributed, PaperExampleIsBitIdenticalOnOneToFourRanks) {
  const scaling::ExactModel model = paper_example(2, 3);
  const Result alone = expect_same_on_every_rank(options(1), graph_solve(model.scenarios.front().graph), "p = 3");
  EXPECT_NEAR(alone.mean, 65.010065666325204, 1e-9 * 65.0);  // state_space_test's pinned value
}

// Ten tasks, most of them side by side, of Erlang runtimes, with an atom at 0 (a completion at
// once) or a choice of start phase (a mixture of Erlangs): 627,900 states in 36 levels of up to
// 54,934, with successors up to several levels on. With the smallest budget a batch is 4096
// states per rank, so the wide levels take several rounds on any number of ranks (16 on one, 4
// on four) and a shard of a later level takes successors from several rounds of a level and
// from every rank: where a merge in the wrong order would show.
graph::TaskGraph wide_graph() {
  graph::TaskGraph g;
  std::vector<graph::NodeId> v;
  for (int i = 0; i < 9; ++i) {
    const double rate = 1.0 + 0.125 * i;
    if (i % 3 == 0)
      v.push_back(g.add_node(task(d::erlang(4, rate))));
    else if (i % 3 == 1)
      v.push_back(g.add_node(task(d::mixture({0.3, 0.7}, {d::deterministic(0.0), d::erlang(3, rate)}))));
    else
      v.push_back(g.add_node(task(d::mixture({0.5, 0.5}, {d::erlang(2, rate), d::erlang(4, rate)}))));
  }
  g.add_arc(v[0], v[7]);
  g.add_arc(v[1], v[7]);
  g.add_arc(v[2], v[8]);
  g.add_node(task(d::erlang(2, 0.75)));
  return g;
}

TEST(StateSpaceDistributed, LevelsOfManyRoundsAreBitIdentical) {
  const graph::TaskGraph g = wide_graph();
  StateSpaceOptions o = options(2);
  o.memory_budget_bytes = std::uint64_t{16} << 20;
  expect_same_on_every_rank(o, graph_solve(g), "wide graph, 16 MiB");
}

// ---- Identical chains ---------------------------------------------------------------------------
// A Result's mean hardly shows a difference in the last bit of one state's probability (it is
// rounded away in the sum); the sweep's fingerprint shows any: every state, its probability
// and its payload, to the bit.

namespace ssd = solvers::state_space_detail;

void expect_same_sweep_on_every_rank(const graph::TaskGraph& g, ssd::SweepSettings settings, const std::string& what) {
  const ssd::CompiledGraph m = ssd::compile(g, 0.125);
  const solvers::StateSpaceEstimate estimate = ssd::estimate_model(m, StateSpaceOptions{}, settings.width);
  const ssd::SweepOutcome alone = ssd::sweep(m, settings, estimate);
  for (int ranks = 2; ranks <= kMostRanks; ++ranks) {
    std::vector<ssd::SweepOutcome> outcomes(static_cast<std::size_t>(ranks));
    distributed::run_threaded_ranks(ranks, [&](const distributed::Communicator& communicator) {
      ssd::SweepSettings mine = settings;
      mine.communicator = &communicator;
      outcomes[static_cast<std::size_t>(communicator.rank())] = ssd::sweep(m, mine, estimate);
    });
    for (const ssd::SweepOutcome& o : outcomes) {
      const std::string where = what + ", " + std::to_string(ranks) + " ranks";
      EXPECT_EQ(o.fingerprint, alone.fingerprint) << where;
      EXPECT_EQ(o.mean, alone.mean) << where;
      EXPECT_EQ(o.absorbed, alone.absorbed) << where;
      EXPECT_EQ(o.end_payload, alone.end_payload) << where;
      EXPECT_EQ(o.states, alone.states) << where;
    }
  }
}

TEST(StateSpaceDistributed, EveryStateIsEnteredWithTheSameProbabilityOnEveryRank) {
  ssd::SweepSettings settings;
  settings.budget = std::uint64_t{16} << 20;
  settings.threads = 2;
  expect_same_sweep_on_every_rank(wide_graph(), settings, "wide graph, 16 MiB");
  settings.budget = std::uint64_t{1} << 30;
  expect_same_sweep_on_every_rank(paper_example(2, 3).scenarios.front().graph, settings, "p = 3");
  // The payload of the distribution: 200 jumps of the uniformised chain per state.
  const graph::TaskGraph g = random_dag(31, 10);
  settings.payload = ssd::Payload::Uniformised;
  settings.width = 200;
  settings.uniform_rate = ssd::compile(g, 0.125).largest_total_rate;
  expect_same_sweep_on_every_rank(g, settings, "random graph, uniformised");
}

// Small random graphs: several levels per batch, hyperexponential branching, instantaneous
// completions, levels with fewer chunks than ranks.
TEST(StateSpaceDistributed, RandomGraphsAreBitIdentical) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const graph::TaskGraph g = random_dag(seed, 6 + static_cast<int>(seed));
    expect_same_on_every_rank(options(1), graph_solve(g), "seed " + std::to_string(seed));
  }
}

// The distribution rides on the sweep as a payload: the moments in a first sweep, the
// uniformised chain's jumps (hundreds of doubles a state) in a second.
TEST(StateSpaceDistributed, DistributionIsBitIdentical) {
  const graph::TaskGraph g = random_dag(11, 10);
  StateSpaceOptions o = options(2);
  o.keep_distribution = true;
  const Result alone = expect_same_on_every_rank(o, graph_solve(g), "random graph, distribution");
  ASSERT_TRUE(alone.distribution.has_value());
  EXPECT_GT(d::grid_size(*alone.distribution), 0u);
  const scaling::ExactModel model = paper_example(1, 2);
  o.memory_budget_bytes = std::uint64_t{64} << 20;  // a batch of 4096 states, the least
  expect_same_on_every_rank(o, graph_solve(model.scenarios.front().graph), "p = 2, distribution, 64 MiB");
}

TEST(StateSpaceDistributed, MixtureOfScenariosIsBitIdentical) {
  const graph::TaskGraph one = random_dag(21, 9), two = random_dag(22, 11), three = random_dag(23, 8);
  const std::vector<solvers::WeightedGraph> scenarios = {{0.25, &one}, {0.5, &two}, {0.25, &three}};
  StateSpaceOptions o = options(1);
  const Solve solve = [&](const StateSpaceOptions& mine) { return solvers::solve_state_space(scenarios, mine); };
  expect_same_on_every_rank(o, solve, "mixture");
  o.keep_distribution = true;
  expect_same_on_every_rank(o, solve, "mixture, distribution");
}

// ---- Identical refusals -------------------------------------------------------------------------

// The message of the StateSpaceTooLarge each rank throws ("" when a rank returns).
std::vector<std::string> refusals_on_ranks(int ranks, const StateSpaceOptions& options, const graph::TaskGraph& g) {
  std::vector<std::string> messages(static_cast<std::size_t>(ranks));
  distributed::run_threaded_ranks(ranks, [&](const distributed::Communicator& communicator) {
    StateSpaceOptions mine = options;
    mine.communicator = &communicator;
    try {
      solvers::solve_state_space(g, mine);
    } catch (const solvers::StateSpaceTooLarge& refusal) {
      messages[static_cast<std::size_t>(communicator.rank())] = refusal.what();
    }
  });
  return messages;
}

std::string refusal_alone(const StateSpaceOptions& options, const graph::TaskGraph& g) {
  try {
    solvers::solve_state_space(g, options);
  } catch (const solvers::StateSpaceTooLarge& refusal) {
    return refusal.what();
  }
  return "";
}

// 8 iterations on 10 processors: past the budget before exploring, on any number of ranks; one
// rank says what one process says, several say the same, per rank.
TEST(StateSpaceDistributed, ModelFarPastTheBudgetIsRefusedOnEveryRank) {
  const scaling::ExactModel model = paper_example(8, 10);
  const graph::TaskGraph& g = model.scenarios.front().graph;
  StateSpaceOptions o = options(1);
  o.memory_budget_bytes = std::uint64_t{1} << 30;
  const std::string alone = refusal_alone(o, g);
  ASSERT_NE(alone.find("state space too large"), std::string::npos) << alone;
  EXPECT_EQ(refusals_on_ranks(1, o, g).front(), alone);
  for (int ranks = 2; ranks <= kMostRanks; ++ranks) {
    const std::vector<std::string> messages = refusals_on_ranks(ranks, o, g);
    EXPECT_NE(messages.front().find("on a rank of " + std::to_string(ranks)), std::string::npos) << messages.front();
    for (const std::string& message : messages) EXPECT_EQ(message, messages.front());
  }
}

// Two chains of 1500 exponential tasks: 1501^2 sets of completed tasks, past the estimate's
// enumeration limit (2e6), so the estimate (2e6 states, a lower bound) lets max_states = 2.1e6
// pass and the sweep itself stops near its end (2,253,001 states), on every rank at the same
// round.
TEST(StateSpaceDistributed, SweepStoppedByMaxStatesStopsEveryRank) {
  graph::TaskGraph g;
  for (int chain = 0; chain < 2; ++chain) {
    graph::NodeId previous = 0;
    for (int i = 0; i < 1500; ++i) {
      const graph::NodeId v = g.add_node(task(d::exponential(1.0 + 0.5 * chain)));
      if (i > 0) g.add_arc(previous, v);
      previous = v;
    }
  }
  StateSpaceOptions o = options(1);
  o.max_states = 2'100'000;
  const auto counted = solvers::estimate_state_count(g, o);
  ASSERT_TRUE(counted.ok()) << counted.failure->reason;
  ASSERT_FALSE(counted.value->complete);
  ASSERT_LT(counted.value->states, 2'100'000.0);
  const std::string alone = refusal_alone(o, g);
  ASSERT_NE(alone.find("more than max_states"), std::string::npos) << alone;
  EXPECT_EQ(refusals_on_ranks(1, o, g).front(), alone);
  for (int ranks = 2; ranks <= kMostRanks; ++ranks) {
    const std::vector<std::string> messages = refusals_on_ranks(ranks, o, g);
    EXPECT_NE(messages.front().find("more than max_states = 2100000 states"), std::string::npos) << messages.front();
    for (const std::string& message : messages) EXPECT_EQ(message, messages.front()) << ranks << " ranks";
  }
}

}  // namespace
