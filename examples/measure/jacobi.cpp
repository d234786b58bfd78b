// A small real parallel kernel for docs/measured.md: Jacobi relaxation on a rows x columns grid,
// the columns cut into `blocks` contiguous blocks, one oneTBB task per block per iteration
// (static partitioning: each thread gets contiguous blocks, as PDL's NEIGHBOR scheme maps
// columns), the iterations separated by the end of each parallel_for (a barrier). It records
// the runtime of every task (block x iteration) in the measured-data format of NUMERICAL and
// prints the wall time of the whole relaxation at each thread count.
//
//   jacobi-measure [--rows 2048] [--columns 1024] [--blocks 16] [--iterations 100]
//                  [--threads 1,2] [--runs 5] [--record tasks.txt] [--record-threads 1]
//
// The sweep mode times the whole relaxation at several grid sizes and thread counts and writes
// the runs in the runs-file format of calibration (docs/calibration.md, "Runs files"), with
// the machine, the date and the load average in its comments (docs/measured.md, "Runs at
// several sizes and thread counts"):
//
//   jacobi-measure --sweep-sizes 256,512x1024,... [--threads 1,2] [--repetitions 5]
//                  [--blocks 16] [--iterations 100 | --sweep-points 1.6e8] [--runs-csv runs.csv]
//
// A size N is an N x N grid, RxC a grid of R rows and C columns. With --sweep-points each size
// runs round(points / (rows*columns)) iterations (at least 1) instead of --iterations, so that
// small and large grids take similar times.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <fmt/format.h>

#include <oneapi/tbb/version.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
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
  // The sweep mode (when `sizes` is not empty): every size at every thread count, `repetitions` times.
  std::vector<std::pair<std::size_t, std::size_t>> sizes;  // rows, columns
  int repetitions = 5;
  double sweep_points = 0.0;  // > 0: the iterations of each size relax about this many points
  std::string runs_csv;       // empty: print the medians only
  std::string command;        // the command line, for the runs file's comments
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
  arena.initialize();  // the arena's set-up is not part of the relaxation's time
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

// "256,512x1024": N is an N x N grid, RxC one of R rows and C columns.
std::vector<std::pair<std::size_t, std::size_t>> parse_sizes(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const std::size_t x = item.find('x');
    if (x == std::string::npos) {
      out.emplace_back(std::stoul(item), std::stoul(item));
    } else {
      out.emplace_back(std::stoul(item.substr(0, x)), std::stoul(item.substr(x + 1)));
    }
  }
  return out;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 0; i < argc; ++i) {
    if (i > 0) o.command += ' ';
    o.command += argv[i];
  }
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (i + 1 >= argc) return false;
    const std::string value = argv[++i];
    if (key == "--rows")
      o.rows = std::stoul(value);
    else if (key == "--columns")
      o.columns = std::stoul(value);
    else if (key == "--blocks")
      o.blocks = std::stoul(value);
    else if (key == "--iterations")
      o.iterations = std::stoul(value);
    else if (key == "--threads")
      o.threads = parse_list(value);
    else if (key == "--runs")
      o.runs = std::stoi(value);
    else if (key == "--record")
      o.record = value;
    else if (key == "--record-threads")
      o.record_threads = std::stoi(value);
    else if (key == "--sweep-sizes")
      o.sizes = parse_sizes(value);
    else if (key == "--repetitions")
      o.repetitions = std::stoi(value);
    else if (key == "--runs-csv")
      o.runs_csv = value;
    else if (key == "--sweep-points")
      o.sweep_points = std::stod(value);
    else
      return false;
  }
  // The grid is --rows x --columns, or each size of the sweep: every one needs a column per block.
  const bool grid_ok = o.sizes.empty() ? o.rows > 0 && o.columns >= o.blocks
                                       : std::all_of(o.sizes.begin(), o.sizes.end(), [&](const auto& size) {
                                           return size.first > 0 && size.second >= o.blocks;
                                         });
  const bool threads_ok = std::all_of(o.threads.begin(), o.threads.end(), [](int t) { return t > 0; });
  // The sweep writes runs, not task runtimes: --record belongs to the single-size mode.
  const bool modes_ok = o.sizes.empty() ? o.runs_csv.empty() : o.record.empty();
  return o.blocks > 0 && grid_ok && o.iterations > 0 && o.runs > 0 && !o.threads.empty() && threads_ok &&
         o.repetitions > 0 && modes_ok && o.sweep_points >= 0.0 && o.sweep_points < 1e15;
}

// The machine as the runs file's comments describe it: what lscpu calls the model name (from
// /proc/cpuinfo, where lscpu reads it), and the load average (/proc/loadavg: 1, 5, 15 minutes).
std::string first_line_of(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

std::string cpu_model() {
  const std::string line = first_line_of("/proc/cpuinfo", "model name");
  const std::size_t colon = line.find(':');
  const std::size_t name = colon == std::string::npos ? colon : line.find_first_not_of(" \t", colon + 1);
  return name == std::string::npos ? "unknown" : line.substr(name);
}

std::string load_average() {
  std::stringstream in(first_line_of("/proc/loadavg", ""));
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one.empty() ? "unknown" : fmt::format("{} {} {} (1, 5, 15 min)", one, five, fifteen);
}

// The processors' busy time (all processes), the time the hypervisor took from this virtual
// machine (steal) and this process's own CPU time, in seconds: over the sweep, their
// difference is what other processes ran beside it (/proc/stat, in clock ticks; getrusage).
struct CpuTimes {
  double busy = 0.0, steal = 0.0, self = 0.0;
};

CpuTimes cpu_times() {
  CpuTimes times;
  std::stringstream in(first_line_of("/proc/stat", "cpu "));
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  times.busy = (user + nice + system + irq + softirq) * tick;
  times.steal = steal * tick;
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  times.self = seconds(self.ru_utime) + seconds(self.ru_stime);
  return times;
}

// What the machine did besides the sweep, for the runs file's comments.
struct Conditions {
  std::string started, load_before, load_after, others;
};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

struct SweepRun {
  std::size_t rows = 0, columns = 0, iterations = 0;
  int threads = 0;
  int repetition = 0;
  double wall_us = 0.0;
};

// Every size at every thread count, `repetitions` times. The repetitions are the outer loop, so
// that a change of the machine's load during the sweep spreads over all settings instead of
// falling on a few of them; one untimed run per setting warms up first (pages the grids in,
// starts the TBB workers).
std::vector<SweepRun> sweep(const Options& o) {
  const auto setting = [&](std::size_t rows, std::size_t columns) {
    Options one = o;
    one.rows = rows;
    one.columns = columns;
    if (o.sweep_points > 0.0) {
      const double iterations = std::round(o.sweep_points / (static_cast<double>(rows) * static_cast<double>(columns)));
      one.iterations = std::max<std::size_t>(1, static_cast<std::size_t>(iterations));
    }
    return one;
  };
  for (const auto& [rows, columns] : o.sizes) {
    for (int threads : o.threads) (void)relax(setting(rows, columns), threads);
  }
  std::vector<SweepRun> runs;
  for (int repetition = 1; repetition <= o.repetitions; ++repetition) {
    for (const auto& [rows, columns] : o.sizes) {
      for (int threads : o.threads) {
        const Options one = setting(rows, columns);
        runs.push_back({rows, columns, one.iterations, threads, repetition, relax(one, threads).wall_us});
      }
    }
  }
  return runs;
}

void print_medians(const Options& o, const std::vector<SweepRun>& runs) {
  std::cout << "   rows  columns  iterations  threads  median [us]     min [us]     max [us]  speedup of the medians\n";
  for (const auto& [rows, columns] : o.sizes) {
    double one_thread = 0.0;
    for (int threads : o.threads) {
      std::vector<double> walls;
      std::size_t iterations = 0;
      for (const SweepRun& run : runs) {
        if (run.rows == rows && run.columns == columns && run.threads == threads) {
          walls.push_back(run.wall_us);
          iterations = run.iterations;
        }
      }
      std::sort(walls.begin(), walls.end());
      // The median of an even count is the mean of the two middle values.
      const std::size_t n = walls.size();
      const double median = n % 2 ? walls[n / 2] : (walls[n / 2 - 1] + walls[n / 2]) / 2;
      if (threads == 1) one_thread = median;
      const std::string speedup = one_thread > 0.0 ? fmt::format("{:.3f}", one_thread / median) : "";
      std::cout << fmt::format("{:7} {:8} {:11} {:8} {:12.0f} {:12.0f} {:12.0f}  {}\n", rows, columns, iterations,
                               threads, median, walls.front(), walls.back(), speedup);
    }
  }
}

int write_runs(const Options& o, const std::vector<SweepRun>& runs, const Conditions& conditions) {
  const unsigned processors = std::thread::hardware_concurrency();
  const int most_threads = *std::max_element(o.threads.begin(), o.threads.end());
  std::ofstream out(o.runs_csv);
  out << "# Jacobi relaxation, examples/measure/jacobi.cpp: a rows x columns grid of doubles, its columns cut into\n"
      << fmt::format("# {} blocks, one oneTBB task per block and iteration (static partitioner), the iterations\n",
                     o.blocks)
      << (o.sweep_points > 0.0 ? fmt::format("# (round({:g} / (rows*columns)) of them, at least 1)", o.sweep_points)
                               : fmt::format("# ({} of them)", o.iterations))
      << " separated by the end of each parallel_for.\n"
      << "# time: the wall time of the whole relaxation (all iterations, not the set-up of the grids);\n"
      << "# p: the threads of its task_arena.\n"
      << fmt::format("# command: {}\n", o.command)
      << fmt::format("# machine: {}, {} processors online (nproc), oneTBB {}\n", cpu_model(), processors,
                     TBB_runtime_version())
      << fmt::format("# started {}; load average before {}, after {}\n", conditions.started, conditions.load_before,
                     conditions.load_after)
      << fmt::format("# {}\n", conditions.others)
      << "# order: one untimed warm-up run per size and thread count, then repetition 1 of every size and\n"
      << "# thread count, then repetition 2, and so on\n";
  if (most_threads > static_cast<int>(processors)) {
    out << fmt::format("# note: {} threads on {} processors: the threads beyond {} share processors\n", most_threads,
                       processors, processors);
  } else if (most_threads == static_cast<int>(processors)) {
    out << fmt::format("# note: {} processors online: thread counts up to {} are all this machine measures honestly\n",
                       processors, processors);
  }
  out << "# unit: us\n"
      << "p, rows, columns, blocks, iterations, time, repetition\n";
  for (const SweepRun& run : runs) {
    out << fmt::format("{}, {}, {}, {}, {}, {:.1f}, {}\n", run.threads, run.rows, run.columns, o.blocks, run.iterations,
                       run.wall_us, run.repetition);
  }
  if (!out) {
    std::cerr << "jacobi-measure: cannot write " << o.runs_csv << '\n';
    return 1;
  }
  std::cout << fmt::format("wrote {} runs to {}\n", runs.size(), o.runs_csv);
  return 0;
}

int run_sweep(const Options& o) {
  std::cout << fmt::format("jacobi sweep: {} sizes x {} thread counts x {} repetitions, {} column blocks\n",
                           o.sizes.size(), o.threads.size(), o.repetitions, o.blocks);
  Conditions conditions{utc_now(), load_average(), "", ""};
  const CpuTimes before = cpu_times();
  const auto start = Clock::now();
  const std::vector<SweepRun> runs = sweep(o);
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const CpuTimes after = cpu_times();
  conditions.load_after = load_average();
  const double others = std::max(0.0, (after.busy - before.busy) - (after.self - before.self));
  conditions.others = fmt::format(
      "during the {:.1f} s of the sweep other processes ran {:.1f} s of CPU time ({:.0f}% of one processor), "
      "the hypervisor stole {:.1f} s, this program ran {:.1f} s",
      wall, others, 100.0 * others / wall, after.steal - before.steal, after.self - before.self);
  std::cout << fmt::format("load average before {}, after {}\n{}\n", conditions.load_before, conditions.load_after,
                           conditions.others);
  print_medians(o, runs);
  return o.runs_csv.empty() ? 0 : write_runs(o, runs, conditions);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    if (!parse(argc, argv, o)) {
      std::cerr << "usage: jacobi-measure [--rows R] [--columns C] [--blocks B] [--iterations I] [--threads 1,2] "
                   "[--runs N] [--record FILE] [--record-threads T]\n"
                   "       jacobi-measure --sweep-sizes N,RxC,... [--threads 1,2] [--repetitions N] [--blocks B] "
                   "[--iterations I | --sweep-points X] [--runs-csv FILE]\n";
      return 2;
    }
  } catch (const std::exception&) {
    std::cerr << "jacobi-measure: the options take numbers (whole ones but for --sweep-points)\n";
    return 2;
  }
  if (!o.sizes.empty()) return run_sweep(o);
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
    out << fmt::format("# Jacobi task runtimes: one task = {} columns x {} rows for one iteration\n",
                       o.columns / o.blocks, o.rows);
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
