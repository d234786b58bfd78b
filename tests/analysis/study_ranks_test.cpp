// A study shared by the ranks of a job (threads standing for MPI ranks) gives every rank what
// one process gives, field for field: the (case, p) items shared out, Monte Carlo shared by all
// ranks, T(1), the breakdown, the models shared by idle processors, and a failure.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "distributed/threaded_ranks.hpp"
#include "tests/support/program_builders.hpp"
#include "tests/support/study_cases.hpp"

namespace {

using namespace test_support;

// A detail with its timings ("0.0363 s") taken out: they differ from run to run, alone too.
std::string without_times(const std::string& detail) {
  static const std::regex time(R"([0-9.e+-]+ s\b)");
  return std::regex_replace(detail, time, "T s");
}

void expect_same(const solvers::Result& a, const solvers::Result& b, const std::string& where) {
  EXPECT_EQ(a.method, b.method) << where;
  EXPECT_EQ(a.solved(), b.solved()) << where;
  EXPECT_EQ(a.mean, b.mean) << where;
  EXPECT_EQ(a.lower, b.lower) << where;
  EXPECT_EQ(a.upper, b.upper) << where;
  EXPECT_EQ(without_times(a.detail), without_times(b.detail)) << where;
  EXPECT_EQ(a.note, b.note) << where;
  EXPECT_EQ(a.statistics.samples, b.statistics.samples) << where;
  EXPECT_EQ(a.statistics.states, b.statistics.states) << where;
  EXPECT_EQ(a.quantiles.size(), b.quantiles.size()) << where;
  for (std::size_t i = 0; i < std::min(a.quantiles.size(), b.quantiles.size()); ++i) {
    EXPECT_EQ(a.quantiles[i].estimate, b.quantiles[i].estimate) << where;
  }
  if (a.unsolved && b.unsolved) {
    EXPECT_EQ(a.unsolved->explanation, b.unsolved->explanation) << where;
  }
}

void expect_same(const analysis::StudyResult& alone, const analysis::StudyResult& shared, int rank) {
  ASSERT_EQ(alone.cases().size(), shared.cases().size());
  for (std::size_t c = 0; c < alone.cases().size(); ++c) {
    for (int p : alone.processors()) {
      for (solvers::Method method : alone.methods()) {
        const analysis::Row& a = alone.at(c, p, method);
        const analysis::Row& b = shared.at(c, p, method);
        const std::string where = "rank " + std::to_string(rank) + ", case " + std::to_string(c) + ", p " +
                                  std::to_string(p) + ", " + std::string(solvers::to_string(method));
        expect_same(a.result, b.result, where);
        EXPECT_EQ(a.speedup, b.speedup) << where;
        EXPECT_EQ(a.same_model_as, b.same_model_as) << where;
      }
      const auto& busy_alone = alone.processor_time(c, p);
      const auto& busy_shared = shared.processor_time(c, p);
      ASSERT_EQ(busy_alone.has_value(), busy_shared.has_value());
      if (busy_alone) {
        EXPECT_EQ(busy_alone->computation.estimate, busy_shared->computation.estimate);
      }
    }
    ASSERT_EQ(alone.one_processor_time(c).has_value(), shared.one_processor_time(c).has_value());
    if (alone.one_processor_time(c)) {
      EXPECT_EQ(alone.one_processor_time(c)->mean, shared.one_processor_time(c)->mean);
    }
  }
}

analysis::Request every_method() {
  analysis::Request request;
  // 14 and 16 processors idle past the 12 columns: they repeat p = 12's figures.
  request.processors = {1, 2, 3, 5, 8, 12, 14, 16};
  request.methods = {solvers::Method::SeriesParallel, solvers::Method::Bounds, solvers::Method::MonteCarlo,
                     solvers::Method::StateSpace};
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 20'000;
  request.solver_options.monte_carlo.quantiles = {0.5, 0.9};
  request.solver_options.series_parallel.quantiles = {0.5, 0.9};
  request.solver_options.state_space.max_states = 200'000;
  request.breakdown = true;
  return request;
}

TEST(StudyOnRanks, EveryRankGetsWhatOneProcessGets) {
  const std::vector<analysis::Case> cases{neighbor_case(12, 2), neighbor_case(6, 3)};
  const analysis::Request request = every_method();
  const auto alone = analysis::run_study(cases, request);
  ASSERT_TRUE(alone.ok());
  for (int ranks : {2, 3}) {
    std::mutex lock;
    std::vector<std::optional<analysis::StudyResult>> shared(static_cast<std::size_t>(ranks));
    distributed::run_threaded_ranks(ranks, [&](const distributed::Communicator& world) {
      analysis::Request mine = request;
      mine.communicator = &world;
      mine.threads = 1;
      auto study = analysis::run_study(cases, mine);
      std::lock_guard<std::mutex> guard(lock);
      if (study.ok()) shared[static_cast<std::size_t>(world.rank())] = std::move(*study.value);
    });
    for (int r = 0; r < ranks; ++r) {
      ASSERT_TRUE(shared[static_cast<std::size_t>(r)].has_value()) << "rank " << r;
      expect_same(*alone.value, *shared[static_cast<std::size_t>(r)], r);
    }
  }
}

TEST(StudyOnRanks, AFailureIsTheOneOneProcessReports) {
  // Negative columns at the swept value: every p fails to scale; the lowest item's failure is
  // the one reported, on every rank.
  const std::vector<analysis::Case> cases{neighbor_case(12, 2), neighbor_case(-3, 2)};
  analysis::Request request;
  request.processors = {1, 2, 4, 8};
  const auto alone = analysis::run_study(cases, request);
  ASSERT_FALSE(alone.ok());
  std::mutex lock;
  std::vector<std::string> messages(3);
  distributed::run_threaded_ranks(3, [&](const distributed::Communicator& world) {
    analysis::Request mine = request;
    mine.communicator = &world;
    const auto study = analysis::run_study(cases, mine);
    std::lock_guard<std::mutex> guard(lock);
    messages[static_cast<std::size_t>(world.rank())] = study.failure ? study.failure->text() : "no failure";
  });
  for (const std::string& message : messages) EXPECT_EQ(message, alone.failure->text());
}

}  // namespace
