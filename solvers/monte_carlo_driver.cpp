#include "solvers/monte_carlo_driver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

namespace solvers::monte_carlo_detail {

namespace {

int thread_count(const MonteCarloOptions& options, int thread_limit) {
  const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
  return thread_limit > 0 ? std::min(threads, thread_limit) : threads;
}

// `on_blocks` hears, after each chunk of blocks, how many of this round's are done (from any
// worker; ProgressReporter serialises). It only counts: the samples do not depend on it.
void run_blocks(const BlockSampler& sampler, std::int64_t first_block, std::int64_t blocks, double* out,
                tbb::task_arena& arena, std::int64_t grain, const std::function<void(std::int64_t)>& on_blocks) {
  std::atomic<std::int64_t> done{0};
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::int64_t>(first_block, first_block + blocks, grain),
                      [&](const tbb::blocked_range<std::int64_t>& range) {
                        Scratch scratch;
                        for (std::int64_t b = range.begin(); b != range.end(); ++b) {
                          sampler(static_cast<std::uint64_t>(b), out + (b - first_block) * kMonteCarloBlock, scratch);
                        }
                        const std::int64_t now = done.fetch_add(static_cast<std::int64_t>(range.size())) +
                                                 static_cast<std::int64_t>(range.size());
                        if (on_blocks) on_blocks(now);
                      });
  });
}

// A round of blocks, drawn here or, with several ranks, a contiguous share by each rank and
// gathered in rank order: the same samples in the same places either way.
void draw_round(const BlockSampler& sampler, std::int64_t first_block, std::int64_t blocks, std::vector<double>& round,
                tbb::task_arena& arena, std::int64_t grain, const std::function<void(std::int64_t)>& on_blocks,
                const distributed::Communicator* ranks) {
  if (ranks == nullptr || ranks->alone()) {
    run_blocks(sampler, first_block, blocks, round.data(), arena, grain, on_blocks);
    return;
  }
  const std::int64_t size = ranks->size();
  const std::int64_t rank = ranks->rank();
  const std::int64_t begin = blocks * rank / size;
  const std::int64_t end = blocks * (rank + 1) / size;
  // Progress hears this rank's blocks as its share of the whole round.
  std::function<void(std::int64_t)> share_done;
  if (on_blocks) share_done = [&](std::int64_t done) { on_blocks(std::min(blocks, done * size)); };
  run_blocks(sampler, first_block + begin, end - begin, round.data() + begin * kMonteCarloBlock, arena, grain,
             share_done);
  const auto* mine = reinterpret_cast<const char*>(round.data() + begin * kMonteCarloBlock);
  const std::vector<std::string> shares = ranks->all_gather(
      std::string_view(mine, static_cast<std::size_t>((end - begin) * kMonteCarloBlock) * sizeof(double)));
  auto* at = reinterpret_cast<char*>(round.data());
  for (const std::string& share : shares) {
    std::memcpy(at, share.data(), share.size());
    at += share.size();
  }
}

// Equal bins over the range of the kept samples, fixed once they are all there; a later
// sample outside the range counts in the first or the last bin.
struct Histogram {
  explicit Histogram(std::size_t count) : bins(count) {}
  bool empty() const { return counts.empty(); }
  void span(const std::vector<double>& kept) {
    const auto [lowest, highest] = std::minmax_element(kept.begin(), kept.end());
    low = *lowest;
    width = (*highest - *lowest) / static_cast<double>(bins);
    counts.assign(bins, 0);
  }
  void add(double v) {
    std::size_t bin = 0;
    if (width > 0.0 && v > low) bin = std::min(static_cast<std::size_t>((v - low) / width), bins - 1);
    counts[bin] += 1;
  }
  std::size_t bins;
  double low = 0.0;
  double width = 0.0;
  std::vector<std::int64_t> counts;
};

std::int64_t blocks_for(std::int64_t samples) { return (samples + kMonteCarloBlock - 1) / kMonteCarloBlock; }

// The samples drawn of those planned. In precision mode the first round (min_samples) is a
// pilot whose variance plans the rest: it counts as the first tenth, the rounds it plans as
// the other nine, short of 1 until the last round is folded (a round may plan another).
// wanted and blocks_done are read as they are when the blocks are done.
std::function<void(std::int64_t)> report_blocks(ProgressReporter& reporter, bool fixed, const std::int64_t& wanted,
                                                const std::int64_t& blocks_done, std::int64_t min_samples) {
  std::function<void(std::int64_t)> on_blocks;
  if (reporter.active()) {
    on_blocks = [&reporter, fixed, &wanted, &blocks_done, min_samples](std::int64_t in_round) {
      const double share = static_cast<double>(blocks_done + in_round) / static_cast<double>(blocks_for(wanted));
      if (fixed)
        reporter(share);
      else if (wanted == min_samples)
        reporter(0.1 * share);
      else
        reporter(std::min(0.999, 0.1 + 0.9 * share));
    };
  }
  return on_blocks;
}

// Folds the round's first `count` samples, the first of them sample `first` of the run, into
// the moments; keeps those among the run's first summary_samples and counts the others in the
// histogram.
void fold_round(const std::vector<double>& round, std::int64_t first, std::int64_t count, std::int64_t summary_samples,
                RunningMoments& moments, std::vector<double>& kept, Histogram& histogram) {
  for (std::int64_t b = 0; b * kMonteCarloBlock < count; ++b) {
    moments.add(round.data() + b * kMonteCarloBlock, std::min(kMonteCarloBlock, count - b * kMonteCarloBlock));
  }
  const std::int64_t keep = std::clamp<std::int64_t>(summary_samples - first, 0, count);
  kept.insert(kept.end(), round.begin(), round.begin() + keep);
  if (keep < count) {
    if (histogram.empty()) histogram.span(kept);
    for (std::int64_t i = keep; i < count; ++i) histogram.add(round[static_cast<std::size_t>(i)]);
  }
}

// In precision mode, after the rounds planned: the samples the next rounds should reach, or
// nothing when the confidence interval is narrow enough or max_samples are drawn.
std::optional<std::int64_t> samples_wanted_next(const RunningMoments& moments, const MonteCarloOptions& options) {
  const double half_width = kZ95 * std::sqrt(moments.variance() / static_cast<double>(moments.samples));
  const double target = options.relative_precision * std::abs(moments.mean);
  const std::int64_t have = moments.samples;
  if (half_width <= target || have >= options.max_samples) return std::nullopt;
  // The count the observed variance asks for, 10% more, at least 1.5 times what we have.
  const double needed = target > 0.0 ? static_cast<double>(have) * (half_width / target) * (half_width / target) * 1.1
                                     : static_cast<double>(options.max_samples);
  const std::int64_t wanted =
      std::min(options.max_samples, std::max(have + have / 2, static_cast<std::int64_t>(std::min(needed, 9e15))));
  return std::max(wanted, have + kMonteCarloBlock);
}

// The summary of the samples; sorts `kept`.
MonteCarloSummary summarise(const RunningMoments& moments, std::vector<double>& kept, Histogram& histogram, int threads,
                            std::int64_t blocks_done, std::int64_t task_samples_per_sample,
                            std::chrono::steady_clock::time_point start) {
  MonteCarloSummary s;
  s.samples = moments.samples;
  s.mean = moments.mean;
  s.variance = moments.variance();
  s.standard_error = std::sqrt(s.variance / static_cast<double>(s.samples));
  s.half_width = kZ95 * s.standard_error;
  s.threads = threads;
  s.minimum = moments.minimum;
  s.maximum = moments.maximum;
  s.summarised_samples = static_cast<std::int64_t>(kept.size());
  if (histogram.empty()) histogram.span(kept);
  for (double v : kept) histogram.add(v);
  s.histogram_low = histogram.low;
  s.histogram_width = histogram.width;
  s.histogram = std::move(histogram.counts);
  std::sort(kept.begin(), kept.end());
  for (std::size_t q = 0; q < s.quantiles.size(); ++q) {
    const double at = MonteCarloSummary::kQuantileLevels[q] * static_cast<double>(kept.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, kept.size() - 1);
    s.quantiles[q] = kept[below] + (at - static_cast<double>(below)) * (kept[above] - kept[below]);
  }
  s.task_samples = s.samples * task_samples_per_sample;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.task_samples_per_second =
      s.seconds > 0.0 ? static_cast<double>(blocks_done * kMonteCarloBlock * task_samples_per_sample) / s.seconds : 0.0;
  return s;
}

// The result of the method MonteCarlo from the summary and the sorted kept samples.
Result monte_carlo_result(const MonteCarloSummary& s, const std::vector<double>& sorted_kept,
                          const MonteCarloOptions& options, std::string detail) {
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
  result.quantiles = order_statistic_quantiles(sorted_kept, options.quantiles);
  result.statistics.seconds = s.seconds;
  return result;
}

}  // namespace

void RunningMoments::add(const double* x, std::int64_t count) {
  if (count <= 0) return;
  // The block's own mean and squared deviations, then Chan, Golub and LeVeque's pairwise
  // update: exact in exact arithmetic, stable in floating point, and folded in block order so
  // that the figures depend on the samples only, not on the threads that drew them.
  double sum = 0.0;
  for (std::int64_t i = 0; i < count; ++i) sum += x[i];
  const auto k = static_cast<double>(count);
  const double block_mean = sum / k;
  double block_squares = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    block_squares += (x[i] - block_mean) * (x[i] - block_mean);
    minimum = std::min(minimum, x[i]);
    maximum = std::max(maximum, x[i]);
  }
  const double before = static_cast<double>(samples);
  const double after = before + k;
  const double delta = block_mean - mean;
  mean += delta * (k / after);
  squares += block_squares + delta * delta * (before * k / after);
  samples += count;
}

double RunningMoments::variance() const { return samples > 1 ? squares / static_cast<double>(samples - 1) : 0.0; }

Result simulate(const BlockSampler& sampler, std::int64_t cost_per_block, std::int64_t task_samples_per_sample,
                const MonteCarloOptions& options, std::string detail, MonteCarloSummary* summary, int thread_limit,
                const ProgressFunction& progress) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  const auto start = std::chrono::steady_clock::now();
  const int threads = thread_count(options, thread_limit);
  tbb::task_arena arena(threads);
  // Chunks of about a million task-samples keep scheduling overhead low and load balanced.
  const std::int64_t grain =
      std::max<std::int64_t>(1, (std::int64_t{1} << 20) / std::max<std::int64_t>(1, cost_per_block));

  // Samples are drawn a round of blocks at a time into one buffer and folded into the running
  // moments; only the first summary_samples are kept (quantiles, histogram). Memory does not
  // grow with the sample count.
  const bool fixed = options.relative_precision == 0.0;
  const std::int64_t limit = fixed ? options.samples : options.max_samples;  // samples counted, at most
  std::vector<double> round(static_cast<std::size_t>(kRoundBlocks * kMonteCarloBlock));
  std::vector<double> kept;
  RunningMoments moments;
  Histogram histogram(static_cast<std::size_t>(options.histogram_bins));
  std::int64_t wanted = fixed ? options.samples : options.min_samples;
  std::int64_t blocks_done = 0;
  ProgressReporter reporter(progress);
  const std::function<void(std::int64_t)> on_blocks =
      report_blocks(reporter, fixed, wanted, blocks_done, options.min_samples);
  for (;;) {
    while (blocks_done < blocks_for(wanted)) {
      const std::int64_t blocks = std::min(kRoundBlocks, blocks_for(wanted) - blocks_done);
      draw_round(sampler, blocks_done, blocks, round, arena, grain, on_blocks, options.communicator);
      const std::int64_t first = blocks_done * kMonteCarloBlock;
      const std::int64_t count = std::min(blocks * kMonteCarloBlock, limit - first);
      fold_round(round, first, count, options.summary_samples, moments, kept, histogram);
      blocks_done += blocks;
    }
    if (fixed) break;
    const std::optional<std::int64_t> more = samples_wanted_next(moments, options);
    if (!more) break;
    wanted = *more;
  }

  reporter.finish();

  std::vector<double> in_block_order;
  if (options.keep_samples) in_block_order = kept;
  MonteCarloSummary s = summarise(moments, kept, histogram, threads, blocks_done, task_samples_per_sample, start);
  Result result = monte_carlo_result(s, kept, options, std::move(detail));
  result.samples = std::move(in_block_order);
  if (summary != nullptr) *summary = std::move(s);
  return result;
}

std::int64_t block_cost(std::int64_t task_samples_per_sample) {
  return std::max<std::int64_t>(1, task_samples_per_sample) * kMonteCarloBlock;
}

}  // namespace solvers::monte_carlo_detail
