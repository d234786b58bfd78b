// A small real parallel kernel for docs/measured.md: Jacobi relaxation on a rows x columns grid,
// the columns cut into `blocks` contiguous blocks, one oneTBB task per block per iteration
// (static partitioning: each thread gets contiguous blocks, as PDL's NEIGHBOR scheme maps
// columns), the iterations separated by the end of each parallel_for (a barrier). It records
// the runtime of every task (block x iteration) in the measured-data format of NUMERICAL and
// prints the wall time of the whole relaxation at each thread count.
//
//   jacobi-measure [--rows 2048] [--columns 1024] [--blocks 16] [--iterations 100]
//                  [--threads 1,2] [--runs 5] [--record tasks.txt] [--record-threads 1]
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::size_t rows = 2048;
  std::size_t columns = 1024;
  std::size_t blocks = 16;
  std::size_t iterations = 100;
  std::vector<int> threads = {1, 2};
  int runs = 5;
  std::string record;      // empty: do not record task runtimes
  int record_threads = 1;  // the thread count whose last run is recorded
};

struct Run {
  double wall_us = 0.0;
  std::vector<double> task_us;  // iteration-major: task (i, b) at i * blocks + b
};

// One relaxation from the same initial grid: a hot left edge, everything else cold.
Run relax(const Options& o, int threads) {
  const std::size_t width = o.columns + 2;  // a fixed boundary column on each side
  std::vector<double> now((o.rows + 2) * width, 0.0), next;
  for (std::size_t r = 0; r < o.rows + 2; ++r) now[r * width] = 1.0;
  next = now;
  Run run;
  run.task_us.assign(o.iterations * o.blocks, 0.0);
  tbb::task_arena arena(threads);
  const auto start = Clock::now();
  arena.execute([&] {
    for (std::size_t iteration = 0; iteration < o.iterations; ++iteration) {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, o.blocks, 1),
          [&](const tbb::blocked_range<std::size_t>& range) {
            for (std::size_t block = range.begin(); block != range.end(); ++block) {
              const auto task_start = Clock::now();
              const std::size_t first = 1 + block * o.columns / o.blocks;
              const std::size_t last = 1 + (block + 1) * o.columns / o.blocks;
              for (std::size_t r = 1; r <= o.rows; ++r) {
                const double* up = &now[(r - 1) * width];
                const double* here = &now[r * width];
                const double* down = &now[(r + 1) * width];
                double* out = &next[r * width];
                for (std::size_t c = first; c < last; ++c) {
                  out[c] = 0.25 * (up[c] + down[c] + here[c - 1] + here[c + 1]);
                }
              }
              run.task_us[iteration * o.blocks + block] =
                  std::chrono::duration<double, std::micro>(Clock::now() - task_start).count();
            }
          },
          tbb::static_partitioner());
      std::swap(now, next);
    }
  });
  run.wall_us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  // Keep the result observable, so that the compiler cannot drop the work.
  double checksum = 0.0;
  for (double v : now) checksum += v;
  if (checksum < 0.0) std::puts("impossible");
  return run;
}

std::vector<int> parse_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  return out;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (i + 1 >= argc) return false;
    const std::string value = argv[++i];
    if (key == "--rows") o.rows = std::stoul(value);
    else if (key == "--columns") o.columns = std::stoul(value);
    else if (key == "--blocks") o.blocks = std::stoul(value);
    else if (key == "--iterations") o.iterations = std::stoul(value);
    else if (key == "--threads") o.threads = parse_list(value);
    else if (key == "--runs") o.runs = std::stoi(value);
    else if (key == "--record") o.record = value;
    else if (key == "--record-threads") o.record_threads = std::stoi(value);
    else return false;
  }
  return o.rows > 0 && o.columns > 0 && o.blocks > 0 && o.blocks <= o.columns && o.iterations > 0 && o.runs > 0 &&
         !o.threads.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    if (!parse(argc, argv, o)) {
      std::cerr << "usage: jacobi-measure [--rows R] [--columns C] [--blocks B] [--iterations I] [--threads 1,2] "
                   "[--runs N] [--record FILE] [--record-threads T]\n";
      return 2;
    }
  } catch (const std::exception&) {
    std::cerr << "jacobi-measure: the options take whole numbers\n";
    return 2;
  }
  std::cout << fmt::format("jacobi: {} x {} grid, {} column blocks, {} iterations ({} tasks of {} columns)\n", o.rows,
                           o.columns, o.blocks, o.iterations, o.blocks * o.iterations, o.columns / o.blocks);
  (void)relax(o, 1);  // warm-up: page in the grids, start the TBB workers
  Run recorded;
  for (int threads : o.threads) {
    std::vector<double> walls;
    for (int r = 0; r < o.runs; ++r) {
      Run run = relax(o, threads);
      walls.push_back(run.wall_us);
      if (threads == o.record_threads) recorded = std::move(run);
    }
    std::sort(walls.begin(), walls.end());
    std::cout << fmt::format("threads {}: wall time median {:.0f} us, min {:.0f} us, max {:.0f} us ({} runs)\n",
                             threads, walls[walls.size() / 2], walls.front(), walls.back(), walls.size());
  }
  if (!o.record.empty()) {
    if (recorded.task_us.empty()) {
      std::cerr << "jacobi-measure: --record-threads " << o.record_threads << " is not among --threads\n";
      return 2;
    }
    std::ofstream out(o.record);
    out << fmt::format("# Jacobi task runtimes: one task = {} columns x {} rows for one iteration\n", o.columns / o.blocks,
                       o.rows);
    out << fmt::format("# {} x {} grid, {} blocks, {} iterations, last of {} runs at {} thread(s)\n", o.rows, o.columns,
                       o.blocks, o.iterations, o.runs, o.record_threads);
    out << "# unit: us\n";
    for (double t : recorded.task_us) out << fmt::format("{:.3f}\n", t);
    if (!out) {
      std::cerr << "jacobi-measure: cannot write " << o.record << '\n';
      return 1;
    }
    std::cout << fmt::format("recorded {} task runtimes in {}\n", recorded.task_us.size(), o.record);
  }
  return 0;
}
