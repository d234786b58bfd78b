// Measured distributions end to end: samples of the paper's Erlang-8 tasks written to a file,
// read back with NUMERICAL, predict what the parametric model predicts within the sampling
// error; and how the empirical and smoothed laws converge as the sample grows.
#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"
#include "models/bind.hpp"
#include "models/measurements.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/series_parallel_solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <variant>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace d = distributions;

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<double> erlang8_samples(std::size_t n, std::uint64_t seed) {
  const d::Sampler sampler(d::erlang(8, 1.0));  // 8 phases of mean 1: mean 8
  d::Xoshiro256pp rng(seed);
  std::vector<double> samples(n);
  for (double& x : samples) x = sampler(rng);
  return samples;
}

models::Program checked(const std::string& text, const std::string& filename) {
  const pdl::ParseResult parsed = pdl::parse(text, filename);
  EXPECT_TRUE(parsed.ast) << pdl::format(parsed.diagnostics);
  const pdl::CheckResult result = pdl::check(*parsed.ast, parsed.source);
  EXPECT_TRUE(result.program) << pdl::format(result.diagnostics);
  return *result.program;
}

solvers::Result approximate(const models::Program& program, int p) {
  const models::Machine machine = models::ideal_machine();
  const models::Binding binding = models::bind(program, machine, {});
  EXPECT_TRUE(binding.ok());
  return solvers::solve_series_parallel(scaling::approximate_model(program, machine, binding.environment, p),
                                        solvers::SeriesParallelOptions{});
}

// The section 5.1 example with its Erlang-8 tasks replaced by 20,000 samples of them.
//
// Tolerance. The prediction from samples is a statistic T(F_n) of the sample; its standard
// error is estimated from the sample itself by the bootstrap: the model is solved again for
// 40 resamples (drawn with replacement, fixed seed) and the standard deviation of those
// predictions taken. (A shortcut such as L s / sqrt(n), with L the tasks on a path, is not a
// bound: for the maximum of p tasks the influence of one large sample grows with p.) We allow
// 4 standard errors, plus the discretisation brackets of both predictions. For p = 1 the
// prediction is 20 times the sample mean, whose standard error 20 s / sqrt(n) the bootstrap
// reproduces.
TEST(MeasuredRoundTrip, ErlangSamplesPredictTheParametricMeans) {
  const auto dir = std::filesystem::temp_directory_path() / "pdl_measured_round_trip";
  std::filesystem::create_directories(dir);
  const std::size_t n = 20000;
  const std::vector<double> samples = erlang8_samples(n, 2024);
  {
    std::ofstream out(dir / "erlang8.txt");
    out << "# 20000 samples of ERLANG(8, 1), mean 8 (seed 2024)\n" << std::setprecision(17);
    for (double x : samples) out << x << '\n';
  }
  const std::string original = read("examples/paper/neighbor.pdl");
  const std::string parametric_runtime = "ERLANG(8, 1*RTFactor)";
  const std::size_t at = original.find(parametric_runtime);
  ASSERT_NE(at, std::string::npos);
  std::string measured_text = original;
  measured_text.replace(at, parametric_runtime.size(), "NUMERICAL('erlang8.txt')");
  std::ofstream(dir / "neighbor.pdl") << measured_text;

  const models::Program parametric = checked(original, "examples/paper/neighbor.pdl");
  const std::string measured_file = (dir / "neighbor.pdl").string();
  const models::Program measured = checked(read(measured_file), measured_file);
  std::filesystem::remove_all(dir);
  const auto& runtime = *models::find_work_phase(measured, "sweep")->runtime;
  ASSERT_TRUE(runtime.measurements);
  ASSERT_EQ(runtime.measurements->values.size(), n);  // every sample read back
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runtime.measurements->values[i], samples[i]) << i;

  // The bootstrap resamples, as programs that differ only in their measurements.
  const int resamples = 40;
  std::vector<models::Program> bootstrap(resamples, measured);
  d::Xoshiro256pp rng(77);
  for (models::Program& program : bootstrap) {
    auto& values = std::get<models::WorkPhase>(program.phases.at("sweep")).runtime->measurements->values;
    for (double& x : values) x = samples[static_cast<std::size_t>(rng() % n)];
  }
  for (int p = 1; p <= 10; ++p) {
    const solvers::Result exact = approximate(parametric, p);
    const solvers::Result from_samples = approximate(measured, p);
    double sum = 0.0, squares = 0.0;
    for (const models::Program& program : bootstrap) {
      const double mean = approximate(program, p).mean;
      sum += mean;
      squares += mean * mean;
    }
    const double average = sum / resamples;
    const double standard_error = std::sqrt(std::max(0.0, (squares - resamples * average * average) / (resamples - 1)));
    const double tolerance =
        4.0 * standard_error + (exact.upper - exact.lower) / 2 + (from_samples.upper - from_samples.lower) / 2;
    EXPECT_NEAR(from_samples.mean, exact.mean, tolerance) << "p = " << p;
    std::printf("p=%2d parametric %.4f measured %.4f difference %+.4f bootstrap standard error %.4f\n", p, exact.mean,
                from_samples.mean, from_samples.mean - exact.mean, standard_error);
  }
}

// Accuracy of the empirical and the smoothed law for the mean of the maximum of p = 10 tasks
// (the quantity the barrier approximation takes per iteration), from n samples, against the
// exact value for Erlang-8 tasks: root mean square error over 40 independent samples.
TEST(MeasuredAccuracy, ErrorOfTheMaximumOfTenTasksShrinksWithTheSample) {
  const int p = 10;
  const double exact = d::mean(d::parallel_power(d::erlang(8, 1.0), p));
  const int replicates = 40;
  std::vector<double> rmse_empirical, rmse_smoothed;
  for (std::size_t n : {20u, 100u, 1000u, 10000u}) {
    double sum_empirical = 0.0, sum_smoothed = 0.0, bias_empirical = 0.0, bias_smoothed = 0.0;
    for (int r = 0; r < replicates; ++r) {
      const models::Measurements m{"x", "ideal", erlang8_samples(n, 1000 + static_cast<std::uint64_t>(r)), {}, ""};
      const double e =
          d::mean(d::parallel_power(models::measured_distribution(m, models::Smoothing::Empirical), p)) - exact;
      const double s =
          d::mean(d::parallel_power(models::measured_distribution(m, models::Smoothing::Smoothed), p)) - exact;
      sum_empirical += e * e;
      sum_smoothed += s * s;
      bias_empirical += e;
      bias_smoothed += s;
    }
    rmse_empirical.push_back(std::sqrt(sum_empirical / replicates));
    rmse_smoothed.push_back(std::sqrt(sum_smoothed / replicates));
    std::printf("n=%6zu E[max of %d] exact %.4f  empirical: bias %+.4f rmse %.4f  smoothed: bias %+.4f rmse %.4f\n", n,
                p, exact, bias_empirical / replicates, rmse_empirical.back(), bias_smoothed / replicates,
                rmse_smoothed.back());
  }
  // Root-n convergence: 500 times the samples, at least 10 times (sqrt(500) = 22) smaller errors.
  EXPECT_LT(rmse_empirical.back(), rmse_empirical.front() / 10);
  EXPECT_LT(rmse_smoothed.back(), rmse_smoothed.front() / 10);
  // Both are consistent: at n = 10,000 within 1% of the exact value.
  EXPECT_LT(rmse_empirical.back(), 0.01 * exact);
  EXPECT_LT(rmse_smoothed.back(), 0.01 * exact);
}

}  // namespace
