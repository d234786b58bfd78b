// Bounds computed along a topological order: the critical path of means and Fulkerson's bound
// (lower), Kleindorfer's product of cdfs (upper).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include "solvers/bounds_detail.hpp"
#include "solvers/memory.hpp"

namespace solvers::bounds_detail {

std::string format(const char* pattern, double a, double b) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, pattern, a, b);
  return buffer;
}

// ---- Critical path of means ---------------------------------------------------------------

std::vector<double> critical_path_starts(const Dag& dag) {
  std::vector<double> start(dag.n, 0.0);
  for (std::size_t v = 0; v < dag.n; ++v) {
    double s = 0.0;
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      s = std::max(s, start[u] + dag.law_of(u).mean_low);
    }
    start[v] = s;
  }
  return start;
}

Outcome critical_path(const Dag& dag) {
  // Jensen: E[max over paths] >= max over paths of E[path] = the longest path of the means.
  const std::vector<double> start = critical_path_starts(dag);
  double makespan = 0.0;
  for (std::size_t v = 0; v < dag.n; ++v) makespan = std::max(makespan, start[v] + dag.law_of(v).mean_low);
  return {true, makespan, "longest path of the mean runtimes"};
}

// ---- Expected maximum of independent lattice variables -------------------------------------

double expected_maximum(std::vector<ShiftedLattice>& terms) {
  // max >= T0 = the largest smallest atom; E[max] = T0 + integral from T0 of (1 - prod F_k).
  // The integrand is a step function; its breakpoints are the atoms above T0, visited in
  // increasing order through a heap.
  double t0 = -std::numeric_limits<double>::infinity();
  for (const ShiftedLattice& t : terms) t0 = std::max(t0, t.start);
  struct Cursor {
    double cdf;
    std::size_t next;  // index of the next atom above the current point
  };
  std::vector<Cursor> cursor(terms.size());
  using Event = std::pair<double, std::size_t>;  // (position, term)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  double product = 1.0;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const ShiftedLattice& t = terms[k];
    std::size_t below = t.size;  // atoms at or below t0
    if (t.step > 0.0) {
      below = std::min(t.size, static_cast<std::size_t>(std::floor((t0 - t.start) / t.step)) + 1);
      // Guard the floor against rounding: atoms strictly above t0 are events.
      while (below > 1 && t.start + t.step * static_cast<double>(below - 1) > t0) --below;
      while (below < t.size && t.start + t.step * static_cast<double>(below) <= t0) ++below;
    }
    double cdf = 0.0;
    for (std::size_t i = 0; i < below; ++i) cdf += t.pmf[i];
    cursor[k] = {std::min(cdf, 1.0), below};
    product *= cursor[k].cdf;
    if (below < t.size) events.emplace(t.start + t.step * static_cast<double>(below), k);
  }
  double integral = 0.0;
  double position = t0;
  std::size_t updates = 0;
  while (!events.empty()) {
    const auto [at, k] = events.top();
    events.pop();
    integral += (at - position) * (1.0 - product);
    position = at;
    Cursor& c = cursor[k];
    const ShiftedLattice& t = terms[k];
    const double before = c.cdf;
    c.cdf = std::min(1.0, c.cdf + t.pmf[c.next]);
    ++c.next;
    if (c.next < t.size) events.emplace(t.start + t.step * static_cast<double>(c.next), k);
    // The few predecessors of a task: recompute the product. Many (the sinks): update it by
    // one factor, recomputing every 64 updates against drift and whenever a factor was 0.
    if (terms.size() <= 8 || before == 0.0 || ++updates % 64 == 0) {
      product = 1.0;
      for (const Cursor& other : cursor) product *= other.cdf;
    } else {
      product = product / before * c.cdf;
    }
  }
  return t0 + integral;
}

// ---- Fulkerson ------------------------------------------------------------------------------

namespace {

// Fulkerson's step over the sinks, from their start times.
double makespan_over_sinks(const Dag& dag, const std::vector<double>& start) {
  std::vector<ShiftedLattice> terms;
  double best = 0.0;
  double slack = 0.0;
  for (std::size_t v = 0; v < dag.n; ++v) {
    if (dag.succs_of(v) != 0) continue;
    const TaskLaw& law = dag.law_of(v);
    best = std::max(best, start[v] + law.mean_low);
    terms.push_back({start[v] + law.origin, law.step, law.lower.data(), law.lower.size()});
    slack += law.slack;
  }
  return std::max(best, expected_maximum(terms) - slack);
}

std::string fulkerson_note(const Dag& dag) {
  std::size_t points = 1;
  for (const TaskLaw& law : dag.laws) points = std::max(points, law.lower.size());
  std::string note = format("lattices of up to %.0f points", static_cast<double>(points));
  if (dag.unresolved_tasks > 0) {
    note += format("; %.0f tasks with the critical-path step (transitive search over budget)",
                   static_cast<double>(dag.unresolved_tasks));
  }
  return note;
}

}  // namespace

Outcome fulkerson(const Dag& dag, bool parallel) {
  // s_v = E[max_{u in P} (s_u + X_u)] <= E[S_v] when P holds no two tasks of which one
  // precedes the other: then (X_u) is independent of (S_u), and max is convex and increasing
  // in s (Jensen on the start times given the runtimes). X_u is replaced by its lower lattice,
  // which is stochastically smaller up to the law's slack; max is 1-Lipschitz in each argument,
  // so subtracting the slacks keeps the bound. The critical-path step max_u (s_u + mean_u) is a
  // valid lower bound of E[S_v] too; s_v is the larger of the two.
  std::vector<double> start(dag.n, 0.0);
  auto step_at = [&](std::size_t v, std::vector<ShiftedLattice>& terms) {
    double best = 0.0;
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      best = std::max(best, start[u] + dag.law_of(u).mean_low);
    }
    if (dag.preds_of(v) >= 2 && dag.antichain[v]) {
      terms.clear();
      double slack = 0.0;
      for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
        const std::uint32_t u = dag.pred[k];
        const TaskLaw& law = dag.law_of(u);
        terms.push_back({start[u] + law.origin, law.step, law.lower.data(), law.lower.size()});
        slack += law.slack;
      }
      best = std::max(best, expected_maximum(terms) - slack);
    }
    start[v] = best;
  };
  const std::size_t levels = dag.by_level_begin.size() - 1;
  for (std::size_t l = 0; l < levels; ++l) {
    const std::uint32_t begin = dag.by_level_begin[l];
    const std::uint32_t end = dag.by_level_begin[l + 1];
    if (parallel && end - begin >= 8) {
      tbb::parallel_for(tbb::blocked_range<std::uint32_t>(begin, end, 4),
                        [&](const tbb::blocked_range<std::uint32_t>& range) {
                          std::vector<ShiftedLattice> terms;
                          for (std::uint32_t i = range.begin(); i != range.end(); ++i) step_at(dag.by_level[i], terms);
                        });
    } else {
      std::vector<ShiftedLattice> terms;
      for (std::uint32_t i = begin; i < end; ++i) step_at(dag.by_level[i], terms);
    }
  }
  // The makespan: the maximum over the sinks (no sink precedes another).
  return {true, makespan_over_sinks(dag, start), fulkerson_note(dag)};
}

// ---- Kleindorfer ------------------------------------------------------------------------------

namespace {

// A law on the common grid: atoms at (offset + i) * h.
struct Window {
  std::int64_t offset = 0;
  std::vector<double> pmf;
  std::int64_t end() const { return offset + static_cast<std::int64_t>(pmf.size()); }
};

// The maximum of independent window laws: cdf = product of the cdfs.
Window maximum_of(const std::vector<const Window*>& parts) {
  if (parts.size() == 1) return *parts.front();
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  std::int64_t hi = std::numeric_limits<std::int64_t>::min();
  for (const Window* w : parts) {
    lo = std::max(lo, w->offset);
    hi = std::max(hi, w->end());
  }
  Window result;
  result.offset = lo;
  std::vector<double> product(static_cast<std::size_t>(hi - lo), 1.0);
  for (const Window* w : parts) {
    double cdf = 0.0;
    std::int64_t i = w->offset;
    for (; i < std::min(lo, w->end()); ++i) cdf += w->pmf[static_cast<std::size_t>(i - w->offset)];
    for (std::int64_t t = lo; t < hi; ++t) {
      if (t >= w->offset && t < w->end()) cdf += w->pmf[static_cast<std::size_t>(t - w->offset)];
      product[static_cast<std::size_t>(t - lo)] *= std::min(cdf, 1.0);
    }
  }
  result.pmf.resize(product.size());
  double previous = 0.0;
  for (std::size_t i = 0; i < product.size(); ++i) {
    result.pmf[i] = std::max(0.0, product[i] - previous);
    previous = std::max(previous, product[i]);
  }
  return result;
}

Window convolve(const Window& a, const Window& b) {
  Window result;
  result.offset = a.offset + b.offset;
  result.pmf.assign(a.pmf.size() + b.pmf.size() - 1, 0.0);
  for (std::size_t j = 0; j < b.pmf.size(); ++j) {
    const double weight = b.pmf[j];
    if (weight == 0.0) continue;
    double* out = result.pmf.data() + j;
    for (std::size_t i = 0; i < a.pmf.size(); ++i) out[i] += weight * a.pmf[i];
  }
  return result;
}

// Makes the total mass exactly 1 again. The product of the predecessors' cdfs multiplies
// their masses, so a round-off deficit of 1e-16 would compound once per path and drain the
// mass of a deep graph (2^40 paths are common); rescaling stops that. The rescaling is of
// round-off size per operation and is not accounted for (like the library's FFT round-off).
void normalise(Window& w) {
  double total = 0.0;
  for (double x : w.pmf) total += x;
  if (total > 0.0 && total != 1.0) {
    for (double& x : w.pmf) x /= total;
  }
}

// Trims the window. The left tail (mass <= 1e-16) moves up onto the first kept point: the law
// only grows, which is safe for an upper bound. The right tail moves down onto the last kept
// point, which is not safe: it is cut only while `copies` times its transport stays within
// `tolerance`, and that amount is returned to be added to the bound.
double trim(Window& w, double copies, double tolerance, double h) {
  std::size_t first = 0;
  double left = 0.0;
  while (first + 1 < w.pmf.size() && left + w.pmf[first] <= 1e-16) left += w.pmf[first++];
  if (first > 0) {
    w.pmf[first] += left;
    w.pmf.erase(w.pmf.begin(), w.pmf.begin() + static_cast<std::ptrdiff_t>(first));
    w.offset += static_cast<std::int64_t>(first);
  }
  std::size_t last = w.pmf.size() - 1;
  double above = 0.0;      // mass strictly above `last`
  double transport = 0.0;  // moving it onto `last`, in grid steps
  while (last > 0) {
    const double next_above = above + w.pmf[last];
    const double next_transport = transport + next_above;
    if (!(copies * next_transport * h <= tolerance)) break;
    above = next_above;
    transport = next_transport;
    --last;
  }
  if (last + 1 < w.pmf.size()) {
    w.pmf[last] += above;
    w.pmf.resize(last + 1);
  }
  return copies * transport * h;
}

// Grid positions are 64-bit indices: a step far below the runtimes' size (a spread below
// 1e-15 of the position, e.g. a histogram with a weight of 1e-40) would overflow them and
// give a garbage bound (issue 12). Every finish time is at most the sum of all maxima.
double finish_time_reach(const Dag& dag) {
  double reach = 0.0;
  for (std::size_t v = 0; v < dag.n; ++v) reach += std::abs(dag.law_of(v).support_max) + std::abs(dag.law_of(v).origin);
  return reach;
}

// Runtimes: the upper lattices, each atom split between the two grid points around it in
// proportions that keep its mean. That is a mean-preserving spread (larger in the convex
// order), and Kleindorfer's value is the mean of a maximum of sums of independent copies of
// the runtimes, convex and increasing in each: the bound only grows, without the half-step
// bias per task that rounding up would add.
std::vector<Window> runtime_windows(const Dag& dag, double h) {
  std::vector<Window> task(dag.laws.size());
  for (std::size_t i = 0; i < dag.laws.size(); ++i) {
    const TaskLaw& law = dag.laws[i];
    const auto first = static_cast<std::int64_t>(std::floor(law.origin / h));
    const auto last = static_cast<std::int64_t>(std::floor(law.support_max / h)) + 1;
    task[i].offset = first;
    task[i].pmf.assign(static_cast<std::size_t>(last - first + 1), 0.0);
    for (std::size_t j = 0; j < law.upper.size(); ++j) {
      const double x = (law.origin + law.step * static_cast<double>(j)) / h;
      const std::int64_t k = std::clamp(static_cast<std::int64_t>(std::floor(x)), first, last - 1);
      const double above = std::clamp(x - static_cast<double>(k), 0.0, 1.0);
      task[i].pmf[static_cast<std::size_t>(k - first)] += law.upper[j] * (1.0 - above);
      task[i].pmf[static_cast<std::size_t>(k + 1 - first)] += law.upper[j] * above;
    }
    while (task[i].pmf.size() > 1 && task[i].pmf.back() == 0.0) task[i].pmf.pop_back();
    normalise(task[i]);
  }
  return task;
}

// How many times each finish time is used when the graph is unfolded into the tree the
// recursion actually evaluates (the number of paths to the end): a cut of the right tail at
// v counts that many times.
std::vector<double> unfolded_copies(const Dag& dag) {
  std::vector<double> copies(dag.n, 1.0);
  for (std::size_t v = dag.n; v-- > 0;) {
    if (dag.succs_of(v) == 0) continue;
    double total = 0.0;
    for (std::uint32_t k = dag.succ_begin[v]; k < dag.succ_begin[v + 1]; ++k) total += copies[dag.succ[k]];
    copies[v] = total;
  }
  return copies;
}

// The mean of the makespan on the grid of step h: the maximum of the sinks' finish times.
double makespan_mean(const Dag& dag, const std::vector<Window>& finish, double h) {
  std::vector<const Window*> parts;
  for (std::size_t v = 0; v < dag.n; ++v) {
    if (dag.succs_of(v) == 0) parts.push_back(&finish[v]);
  }
  const Window makespan = maximum_of(parts);
  double mean = 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < makespan.pmf.size(); ++i) {
    mean += makespan.pmf[i] * static_cast<double>(makespan.offset + static_cast<std::int64_t>(i));
    total += makespan.pmf[i];
  }
  // Mass lost to rounding is put on the last point (safe for an upper bound).
  if (total < 1.0) mean += (1.0 - total) * static_cast<double>(makespan.end() - 1);
  return mean * h;
}

// Kleindorfer's recursion on the grid of step h; not computed (with `why`) when a limit is hit.
Outcome kleindorfer_on_grid(const Dag& dag, const BoundsOptions& options, double h, double window_bytes,
                            std::string& why) {
  if (!(finish_time_reach(dag) / h < 0x1p53)) {
    why = "grid positions beyond 2^53 steps (runtimes whose spread is far below their size)";
    return {};
  }
  const std::vector<Window> task = runtime_windows(dag, h);
  double law_slack = 0.0;
  for (std::size_t v = 0; v < dag.n; ++v) law_slack += dag.law_of(v).slack;
  const std::vector<double> copies = unfolded_copies(dag);
  double scale = 0.0;
  for (const TaskLaw& law : dag.laws) scale = std::max(scale, law.mean_high);
  const double tolerance = 1e-9 * std::max(scale, 1e-300) / static_cast<double>(dag.n);

  std::vector<Window> finish(dag.n);
  std::vector<std::uint32_t> pending(dag.n);
  for (std::size_t v = 0; v < dag.n; ++v) pending[v] = static_cast<std::uint32_t>(dag.succs_of(v));
  double cut = 0.0;
  double live_bytes = 0.0;  // of the finish-time windows still to be read
  std::int64_t work = 0;
  std::size_t widest = 0;
  std::vector<const Window*> parts;
  const Window origin_window{0, {1.0}};
  for (std::size_t v = 0; v < dag.n; ++v) {
    parts.clear();
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) parts.push_back(&finish[dag.pred[k]]);
    if (parts.empty()) parts.push_back(&origin_window);
    const Window start = maximum_of(parts);
    const Window& runtime = task[dag.law[v]];
    work += static_cast<std::int64_t>(start.pmf.size() * runtime.pmf.size());
    if (work > options.kleindorfer_work) {
      why = format("more than %.3g multiply-adds (kleindorfer_work)", static_cast<double>(options.kleindorfer_work));
      return {};
    }
    finish[v] = convolve(start, runtime);
    normalise(finish[v]);
    cut += trim(finish[v], copies[v], tolerance, h);
    widest = std::max(widest, finish[v].pmf.size());
    if (finish[v].pmf.size() > options.kleindorfer_max_window) {
      why = format("a finish-time window of more than %.0f points (kleindorfer_max_window)",
                   static_cast<double>(options.kleindorfer_max_window));
      return {};
    }
    live_bytes += 8.0 * static_cast<double>(finish[v].pmf.capacity());
    if (live_bytes > window_bytes) {
      why = "finish-time windows of more than " + memory_text(window_bytes) + " (its share of the memory budget)";
      return {};
    }
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      const std::uint32_t u = dag.pred[k];
      if (--pending[u] == 0) {  // every successor has it: free the memory
        live_bytes -= 8.0 * static_cast<double>(finish[u].pmf.capacity());
        finish[u] = Window();
      }
    }
  }
  return {true, makespan_mean(dag, finish, h) + cut + law_slack,
          format("grid step %.4g, widest window %.0f points", h, static_cast<double>(widest))};
}

}  // namespace

Outcome kleindorfer(const Dag& dag, const BoundsOptions& options, double window_bytes) {
  // F_v(t) = P(X_v + max_{u in P} C_u <= t) computed as if the finish times C_u of the
  // predecessors were independent: they are increasing functions of independent runtimes,
  // hence associated, so P(all C_u <= t) >= prod P(C_u <= t) and the computed law is
  // stochastically larger (Kleindorfer 1971). Runtimes enter as their upper lattices
  // (stochastically larger up to the laws' slacks, which are added once per task: the makespan
  // is 1-Lipschitz in each runtime) spread onto one grid.
  // The grid step: the tasks' average standard deviation over points_per_sd.
  std::vector<double> uses(dag.laws.size(), 0.0);
  for (std::size_t v = 0; v < dag.n; ++v) uses[dag.law[v]] += 1.0;
  double sd_sum = 0.0;
  for (std::size_t i = 0; i < dag.laws.size(); ++i) {
    sd_sum += uses[i] * std::sqrt(distributions::variance(dag.laws[i].runtime));
  }
  if (!(sd_sum > 0.0)) {
    // Every runtime is deterministic: the makespan is the longest path.
    double makespan = 0.0;
    std::vector<double> finish(dag.n, 0.0);
    for (std::size_t v = 0; v < dag.n; ++v) {
      double s = 0.0;
      for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) s = std::max(s, finish[dag.pred[k]]);
      finish[v] = s + dag.law_of(v).mean_high;
      makespan = std::max(makespan, finish[v]);
    }
    return {true, makespan, "deterministic runtimes: longest path"};
  }
  double h = sd_sum / static_cast<double>(dag.n) / static_cast<double>(options.kleindorfer_points_per_sd);
  std::string why;
  for (int attempt = 0; attempt <= 6; ++attempt, h *= 2.0) {
    Outcome outcome = kleindorfer_on_grid(dag, options, h, window_bytes, why);
    if (outcome.computed) return outcome;
  }
  return {false, 0.0, "skipped: " + why};
}

}  // namespace solvers::bounds_detail
