#include "solvers/monte_carlo_driver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace solvers::monte_carlo_detail {

namespace {

int thread_count(const MonteCarloOptions& options) {
  return options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
}

void run_blocks(const BlockSampler& sampler, std::int64_t first_block, std::int64_t blocks, double* out,
                tbb::task_arena& arena, std::int64_t grain) {
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(first_block, first_block + blocks, grain),
                      [&](const tbb::blocked_range<std::int64_t>& range) {
                        Scratch scratch;
                        for (std::int64_t b = range.begin(); b != range.end(); ++b) {
                          sampler(static_cast<std::uint64_t>(b), out + (b - first_block) * kMonteCarloBlock, scratch);
                        }
                      });
  });
}

struct Moments {
  double mean = 0.0;
  double variance = 0.0;
};
Moments moments(const std::vector<double>& x) {
  Moments m;
  double sum = 0.0;
  for (double v : x) sum += v;
  m.mean = sum / static_cast<double>(x.size());
  double squares = 0.0;
  for (double v : x) squares += (v - m.mean) * (v - m.mean);
  m.variance = x.size() > 1 ? squares / static_cast<double>(x.size() - 1) : 0.0;
  return m;
}

constexpr double kZ95 = 1.959963984540054;

}  // namespace

Result simulate(const BlockSampler& sampler, std::int64_t cost_per_block, std::int64_t task_samples_per_sample,
                const MonteCarloOptions& options, std::string detail, MonteCarloSummary* summary) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  const auto start = std::chrono::steady_clock::now();
  const int threads = thread_count(options);
  tbb::task_arena arena(threads);
  // Chunks of about a million task-samples keep scheduling overhead low and load balanced.
  const std::int64_t grain = std::max<std::int64_t>(1, (std::int64_t{1} << 20) / std::max<std::int64_t>(1, cost_per_block));
  auto blocks_for = [](std::int64_t samples) { return (samples + kMonteCarloBlock - 1) / kMonteCarloBlock; };

  std::vector<double> samples;
  std::int64_t wanted = options.relative_precision > 0.0 ? options.min_samples : options.samples;
  std::int64_t blocks_done = 0;
  for (;;) {
    const std::int64_t blocks = blocks_for(wanted) - blocks_done;
    if (blocks > 0) {
      samples.resize(static_cast<std::size_t>((blocks_done + blocks) * kMonteCarloBlock));
      run_blocks(sampler, blocks_done, blocks, samples.data() + blocks_done * kMonteCarloBlock, arena, grain);
      blocks_done += blocks;
    }
    if (options.relative_precision == 0.0) break;
    const Moments m = moments(samples);
    const double half_width = kZ95 * std::sqrt(m.variance / static_cast<double>(samples.size()));
    const double target = options.relative_precision * std::abs(m.mean);
    const auto have = static_cast<std::int64_t>(samples.size());
    if (half_width <= target || have >= options.max_samples) break;
    // The count the observed variance asks for, 10% more, at least 1.5 times what we have.
    const double needed = target > 0.0 ? static_cast<double>(have) * (half_width / target) * (half_width / target) * 1.1
                                       : static_cast<double>(options.max_samples);
    wanted = std::min(options.max_samples,
                      std::max(have + have / 2, static_cast<std::int64_t>(std::min(needed, 9e15))));
    wanted = std::max(wanted, have + kMonteCarloBlock);
  }
  if (options.relative_precision == 0.0) samples.resize(static_cast<std::size_t>(options.samples));
  if (options.relative_precision > 0.0 && static_cast<std::int64_t>(samples.size()) > options.max_samples) {
    samples.resize(static_cast<std::size_t>(options.max_samples));
  }

  const Moments m = moments(samples);
  MonteCarloSummary s;
  s.samples = static_cast<std::int64_t>(samples.size());
  s.mean = m.mean;
  s.variance = m.variance;
  s.standard_error = std::sqrt(m.variance / static_cast<double>(s.samples));
  s.half_width = kZ95 * s.standard_error;
  s.threads = threads;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.minimum = sorted.front();
  s.maximum = sorted.back();
  for (std::size_t q = 0; q < s.quantiles.size(); ++q) {
    const double at = MonteCarloSummary::kQuantileLevels[q] * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    s.quantiles[q] = sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
  }
  const std::size_t bins = static_cast<std::size_t>(options.histogram_bins);
  s.histogram.assign(bins, 0);
  s.histogram_low = s.minimum;
  s.histogram_width = (s.maximum - s.minimum) / static_cast<double>(bins);
  for (double v : samples) {
    std::size_t bin = s.histogram_width > 0.0 ? static_cast<std::size_t>((v - s.minimum) / s.histogram_width) : 0;
    s.histogram[std::min(bin, bins - 1)] += 1;
  }
  s.task_samples = s.samples * task_samples_per_sample;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.task_samples_per_second = s.seconds > 0.0 ? static_cast<double>(blocks_done * kMonteCarloBlock * task_samples_per_sample) / s.seconds : 0.0;

  Result result;
  result.method = Method::MonteCarlo;
  result.mean = s.mean;
  result.lower = s.mean - s.half_width;
  result.upper = s.mean + s.half_width;
  result.detail = std::move(detail) + ", " + std::to_string(s.samples) + " samples, 95% confidence interval";
  // Stopped at max_samples before the precision asked: said, not left to be noticed.
  if (options.relative_precision > 0.0 && s.half_width > options.relative_precision * std::abs(s.mean)) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "stopped at %lld samples, the most it takes, before its 95%% half-width reached %.3g of the mean",
                  static_cast<long long>(options.max_samples), options.relative_precision);
    result.note = text;
    std::snprintf(text, sizeof text, "; %s: it is %.3g of the mean, %.3g times wider than asked", result.note.c_str(),
                  s.half_width / std::abs(s.mean), s.half_width / (options.relative_precision * std::abs(s.mean)));
    result.detail += text;
  }
  result.statistics.samples = s.samples;
  result.statistics.seconds = s.seconds;
  if (summary != nullptr) *summary = std::move(s);
  return result;
}

std::int64_t block_cost(std::int64_t task_samples_per_sample) {
  return std::max<std::int64_t>(1, task_samples_per_sample) * kMonteCarloBlock;
}

}  // namespace solvers::monte_carlo_detail
