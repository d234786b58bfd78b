// The study's plan, read by the cost estimate and the run (analysis/study_plan.hpp): on every
// example program and on generated programs (tests/support/program_generator.hpp), the estimate
// counts exactly the models the run solves, alone and on 3 ranks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/cost.hpp"
#include "analysis/study.hpp"
#include "analysis/study_plan.hpp"
#include "distributed/threaded_ranks.hpp"
#include "tests/support/generated_case.hpp"
#include "tests/support/program_generator.hpp"

namespace {

constexpr int kGeneratedPrograms = 40;

// Processor counts past a small program's units of work share its last model. A generated
// machine places at most 4 processors.
const std::vector<int> kExampleCounts = {1, 2, 3, 4, 6, 8, 16, 32};
const std::vector<int> kGeneratedCounts = {1, 2, 3, 4};

analysis::Request request(const std::vector<int>& counts) {
  analysis::Request request;
  request.processors = counts;
  request.methods = {solvers::Method::SeriesParallel, solvers::Method::Bounds};
  request.threads = 1;
  return request;
}

// The models the run solved, counted from its result: per case, p = 1 when not reported (the
// base, always solved), and each reported p whose rows do not repeat a smaller p's.
std::size_t models_solved(const analysis::StudyResult& study, const analysis::Request& request) {
  std::size_t solved = 0;
  for (std::size_t c = 0; c < study.cases().size(); ++c) {
    if (!request.reports(1)) ++solved;
    for (const int p : study.processors()) {
      if (!study.at(c, p, request.methods.front()).same_model_as) ++solved;
    }
  }
  return solved;
}

// The plan's count, the estimate's and the run's agree; so does the estimate's own plan when it
// finished within its second. `where` names the program in a failure.
void expect_counts_agree(const std::vector<analysis::Case>& cases, const std::vector<int>& counts,
                         const std::string& where) {
  const analysis::Request asked = request(counts);
  const auto plan = analysis::plan_study(cases, asked);
  ASSERT_TRUE(plan.ok()) << where << ": " << plan.failure->text();
  ASSERT_TRUE(plan.value->complete) << where;
  const auto estimate = analysis::estimate_cost(*plan.value, cases, asked);
  ASSERT_TRUE(estimate.has_value()) << where;
  EXPECT_EQ(estimate->models, plan.value->to_solve.size()) << where;
  const auto study = analysis::run_study(*plan.value, cases, asked);
  ASSERT_TRUE(study.ok()) << where << ": " << study.failure->text();
  EXPECT_EQ(models_solved(*study.value, asked), plan.value->to_solve.size()) << where;
  const auto limited = analysis::estimate_cost(cases, asked);
  ASSERT_TRUE(limited.has_value()) << where;
  if (limited->complete) EXPECT_EQ(limited->models, plan.value->to_solve.size()) << where;
}

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(StudyPlan, TheEstimateCountsTheModelsTheRunSolvesOnEveryExample) {
  int checked = 0;
  for (const char* folder : {"examples/schemes", "examples/studies", "examples/paper", "examples/variants"}) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() != ".pdl") continue;
      // On the ideal machine: an example that needs its own machine (or measured data) is left out.
      const test_support::LoadedCase loaded = test_support::load_case(text_of(entry.path()), "");
      if (!loaded.one) continue;
      expect_counts_agree({*loaded.one}, kExampleCounts, entry.path().string());
      ++checked;
    }
  }
  EXPECT_GE(checked, 15);
}

TEST(StudyPlan, TheEstimateCountsTheModelsTheRunSolvesOnGeneratedPrograms) {
  test_support::ProgramGenerator generator(1);
  for (int k = 0; k < kGeneratedPrograms; ++k) {
    const test_support::GeneratedProgram generated = generator.next();
    const test_support::LoadedCase loaded = test_support::load_case(generated.pdl, generated.machine);
    ASSERT_TRUE(loaded.one) << loaded.diagnostics << "\n" << generated.pdl;
    expect_counts_agree({*loaded.one}, kGeneratedCounts, generated.pdl + "\n" + generated.machine);
  }
}

TEST(StudyPlan, ThreeRanksPlanWhatOneProcessPlans) {
  test_support::ProgramGenerator generator(7);
  for (int k = 0; k < 12; ++k) {
    const test_support::GeneratedProgram generated = generator.next();
    const test_support::LoadedCase loaded = test_support::load_case(generated.pdl, generated.machine);
    ASSERT_TRUE(loaded.one) << loaded.diagnostics;
    const std::vector<analysis::Case> cases{*loaded.one};
    const auto alone = analysis::plan_study(cases, request(kGeneratedCounts));
    ASSERT_TRUE(alone.ok());
    std::mutex lock;
    std::vector<std::vector<std::size_t>> planned(3);
    std::vector<std::size_t> estimated(3);
    distributed::run_threaded_ranks(3, [&](const distributed::Communicator& world) {
      analysis::Request mine = request(kGeneratedCounts);
      mine.communicator = &world;
      const auto plan = analysis::plan_study(cases, mine);
      const auto estimate = plan.ok() ? analysis::estimate_cost(*plan.value, cases, mine) : std::nullopt;
      std::lock_guard<std::mutex> guard(lock);
      const auto rank = static_cast<std::size_t>(world.rank());
      if (plan.ok()) planned[rank] = plan.value->to_solve;
      if (estimate) estimated[rank] = estimate->models;
    });
    for (std::size_t rank = 0; rank < 3; ++rank) {
      EXPECT_EQ(planned[rank], alone.value->to_solve) << "rank " << rank << "\n" << generated.pdl;
      EXPECT_EQ(estimated[rank], alone.value->to_solve.size()) << "rank " << rank;
    }
  }
}

}  // namespace
