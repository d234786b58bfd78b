#include "solvers/state_space_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "distributions/queries.hpp"
#include "solvers/law_key.hpp"

namespace solvers::state_space_detail {

namespace d = distributions;

bool PhaseTask::single_start() const {
  if (atom > 0.0) return false;
  int starts = 0;
  for (double a : alpha) starts += a > 0.0 ? 1 : 0;
  return starts == 1;
}

int PhaseTask::start_phase() const {
  for (int i = 0; i < size; ++i) {
    if (alpha[static_cast<std::size_t>(i)] > 0.0) return i + 1;
  }
  return 0;
}

namespace {

// Erlangs with more phases than this are fitted (they would only make the state space huge).
constexpr std::int64_t kMostExactPhases = 4096;

// Rates, potentials and the atom from moves and absorption rates already in place.
void finish(PhaseTask& t) {
  const auto n = static_cast<std::size_t>(t.size);
  t.exit_rate.assign(n, 0.0);
  double start = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    t.exit_rate[i] = t.absorb_rate[i];
    for (const auto& [j, rate] : t.moves[i]) t.exit_rate[i] += rate;
    start += t.alpha[i];
  }
  t.atom = std::max(0.0, 1.0 - start);
  if (t.atom < 1e-15) t.atom = 0.0;
  // Longest path of moves to completion, from the last phase down.
  std::vector<int> to_end(n, 0);
  int longest = 0;
  for (std::size_t k = n; k-- > 0;) {
    int best = t.absorb_rate[k] > 0.0 ? 1 : 0;
    for (const auto& [j, rate] : t.moves[k]) best = std::max(best, 1 + to_end[static_cast<std::size_t>(j - 1)]);
    to_end[k] = best;
    longest = std::max(longest, best);
  }
  t.done_potential = longest;
  t.potential.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) t.potential[i] = longest - to_end[i];
}

PhaseTask empty_task(int size) {
  PhaseTask t;
  t.size = size;
  const auto n = static_cast<std::size_t>(size);
  t.alpha.assign(n, 0.0);
  t.absorb_rate.assign(n, 0.0);
  t.moves.assign(n, {});
  return t;
}

PhaseTask instantaneous() {
  PhaseTask t = empty_task(0);
  finish(t);
  return t;
}

// Stages in series; start_weights[i] = probability of starting at stage i + 1.
PhaseTask series_stages(const std::vector<double>& rates, const std::vector<double>& start_weights) {
  PhaseTask t = empty_task(static_cast<int>(rates.size()));
  for (std::size_t i = 0; i < rates.size(); ++i) {
    t.alpha[i] = i < start_weights.size() ? start_weights[i] : 0.0;
    if (i + 1 < rates.size()) {
      t.moves[i].push_back({static_cast<int>(i) + 2, rates[i]});
    } else {
      t.absorb_rate[i] = rates[i];
    }
  }
  finish(t);
  return t;
}

PhaseTask hyper(const std::vector<double>& probabilities, const std::vector<double>& rates) {
  PhaseTask t = empty_task(static_cast<int>(rates.size()));
  for (std::size_t i = 0; i < rates.size(); ++i) {
    t.alpha[i] = probabilities[i];
    t.absorb_rate[i] = rates[i];
  }
  finish(t);
  return t;
}

// A general phase-type (alpha, T), renumbered so that moves go upwards; nullopt-like empty
// size -1 when T has a cycle (then it is fitted instead).
bool from_subgenerator(std::span<const double> alpha, std::span<const double> subgenerator, PhaseTask& out) {
  const std::size_t n = alpha.size();
  auto at = [&](std::size_t i, std::size_t j) { return subgenerator[i * n + j]; };
  // Kahn's algorithm over the moves i -> j (T[i][j] > 0, i != j).
  std::vector<int> indegree(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i != j && at(i, j) > 0.0) ++indegree[j];
    }
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < n; ++i) {
    if (indegree[i] == 0) order.push_back(i);
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    for (std::size_t j = 0; j < n; ++j) {
      if (i != j && at(i, j) > 0.0 && --indegree[j] == 0) order.push_back(j);
    }
  }
  if (order.size() != n) return false;
  std::vector<int> rank(n);
  for (std::size_t k = 0; k < n; ++k) rank[order[k]] = static_cast<int>(k) + 1;
  out = empty_task(static_cast<int>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::size_t>(rank[i] - 1);
    out.alpha[r] = alpha[i];
    double row = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      row += at(i, j);
      if (at(i, j) > 0.0) out.moves[r].push_back({rank[j], at(i, j)});
    }
    out.absorb_rate[r] = std::max(0.0, -at(i, i) - row);
    if (out.absorb_rate[r] < 1e-14 * -at(i, i)) out.absorb_rate[r] = 0.0;
  }
  finish(out);
  return true;
}

// Block-diagonal mixture of phase tasks.
PhaseTask mix(const std::vector<double>& weights, const std::vector<PhaseTask>& parts) {
  int size = 0;
  for (const PhaseTask& p : parts) size += p.size;
  PhaseTask t = empty_task(size);
  int offset = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const PhaseTask& p = parts[k];
    for (int i = 0; i < p.size; ++i) {
      const auto from = static_cast<std::size_t>(i);
      const auto to = static_cast<std::size_t>(offset + i);
      t.alpha[to] = weights[k] * p.alpha[from];
      t.absorb_rate[to] = p.absorb_rate[from];
      for (const auto& [j, rate] : p.moves[from]) t.moves[to].push_back({offset + j, rate});
    }
    offset += p.size;
  }
  finish(t);
  return t;
}

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", x);
  return buffer;
}

// Moment matching (see StateSpaceOptions::fit_cv2_tolerance).
Conversion fit(const d::Distribution& runtime, double tolerance, bool deterministic) {
  Conversion c;
  c.fitted = true;
  c.deterministic = deterministic;
  const double mu = d::mean(runtime);
  const double var = deterministic ? 0.0 : std::max(0.0, d::variance(runtime));
  if (!(mu > 0.0)) {
    c.task = instantaneous();
    c.fit = "instantaneous (mean 0)";
    return c;
  }
  const double cv2 = var / (mu * mu);
  const auto most = static_cast<int>(std::ceil(1.0 / tolerance - 1e-9));
  if (cv2 < 1.0 / most) {
    c.task = series_stages(std::vector<double>(static_cast<std::size_t>(most), most / mu), {1.0});
    c.fit = "Erlang(" + std::to_string(most) + ", rate " + number(most / mu) + "), cv² " + number(1.0 / most) +
            " for " + number(cv2);
  } else if (cv2 < 1.0 - 1e-12) {
    // Tijms: Erlang(k-1) with probability p, Erlang(k) otherwise, one rate; exact mean and cv².
    const auto k = static_cast<int>(std::ceil(1.0 / cv2 - 1e-12));
    const double kd = k;
    const double p = (kd * cv2 - std::sqrt(kd * (1.0 + cv2) - kd * kd * cv2)) / (1.0 + cv2);
    const double rate = (kd - p) / mu;
    c.task = series_stages(std::vector<double>(static_cast<std::size_t>(k), rate), {1.0 - p, p});
    c.fit = "Erlang(" + std::to_string(k - 1) + "|" + std::to_string(k) + ", rate " + number(rate) + ", p " +
            number(p) + "), cv² " + number(cv2);
  } else if (cv2 <= 1.0 + 1e-12) {
    c.task = series_stages({1.0 / mu}, {1.0});
    c.fit = "exponential(rate " + number(1.0 / mu) + "), cv² 1";
  } else {
    // Two exponential branches of equal mean contribution.
    const double p1 = 0.5 * (1.0 + std::sqrt((cv2 - 1.0) / (cv2 + 1.0)));
    const double p2 = 1.0 - p1;
    c.task = hyper({p1, p2}, {2.0 * p1 / mu, 2.0 * p2 / mu});
    c.fit = "hyperexponential(" + number(p1) + ", " + number(p2) + "), cv² " + number(cv2);
  }
  c.task.mean = mu;
  return c;
}

std::vector<double> to_vector(std::span<const double> x) { return {x.begin(), x.end()}; }

Conversion convert(const d::Distribution& runtime, double tolerance) {
  using Kind = d::ClosedFormParameters::Kind;
  const std::optional<d::ClosedFormParameters> form = d::closed_form(runtime);
  if (!form) return fit(runtime, tolerance, false);  // a numerical grid
  Conversion c;
  switch (form->kind) {
    case Kind::Deterministic:
      if (form->value == 0.0) {
        c.task = instantaneous();
        c.deterministic = true;
        return c;
      }
      return fit(runtime, tolerance, true);
    case Kind::Exponential: c.task = series_stages({form->rate}, {1.0}); break;
    case Kind::Erlang:
      if (form->phases > kMostExactPhases) {
        Conversion f = fit(runtime, tolerance, false);
        f.fit += " (" + std::to_string(form->phases) + " phases are too many to enumerate)";
        return f;
      }
      c.task = series_stages(std::vector<double>(static_cast<std::size_t>(form->phases), form->rate), {1.0});
      break;
    case Kind::Hypoexponential:
      if (static_cast<std::int64_t>(form->rates.size()) > kMostExactPhases) return fit(runtime, tolerance, false);
      c.task = series_stages(to_vector(form->rates), {1.0});
      break;
    case Kind::Hyperexponential: c.task = hyper(to_vector(form->probabilities), to_vector(form->rates)); break;
    case Kind::PhaseType:
      if (!from_subgenerator(form->alpha, form->subgenerator, c.task)) {
        Conversion f = fit(runtime, tolerance, false);
        f.fit += " (the phase-type has cyclic moves)";
        return f;
      }
      break;
    case Kind::Mixture: {
      std::vector<PhaseTask> parts;
      for (const d::Distribution& component : form->components) {
        Conversion part = convert(component, tolerance);
        if (part.fitted) return fit(runtime, tolerance, false);
        parts.push_back(std::move(part.task));
      }
      c.task = mix(to_vector(form->weights), parts);
      break;
    }
    case Kind::Shifted:
      if (form->offset == 0.0) return convert(*form->base, tolerance);
      return fit(runtime, tolerance, false);
    case Kind::Uniform:
      if (form->low != form->high) return fit(runtime, tolerance, false);
      if (form->low == 0.0) {
        c.task = instantaneous();
        c.deterministic = true;
        return c;
      }
      return fit(runtime, tolerance, true);
    default: return fit(runtime, tolerance, false);  // no phase type: normal, lognormal, Weibull, Pareto
  }
  c.task.mean = d::mean(runtime);
  return c;
}

// Empty when every phase of t is left at a finite positive rate and its start probabilities
// are finite; otherwise why not. Potentials and the sweep's level rises assume it: a phase
// that is never left would sit at the completed task's level (a rise of 0).
std::string unusable(const PhaseTask& t) {
  for (std::size_t i = 0; i < t.exit_rate.size(); ++i) {
    if (!(t.exit_rate[i] > 0.0) || !std::isfinite(t.exit_rate[i])) {
      return "phase " + std::to_string(i + 1) + " is left at rate " + number(t.exit_rate[i]);
    }
    if (!std::isfinite(t.alpha[i])) return "its start probability " + std::to_string(i + 1) + " is not finite";
  }
  return {};
}

int bit_width_of(std::uint64_t largest_value) { return std::max(1, static_cast<int>(std::bit_width(largest_value))); }

// The tasks left once the instantaneous nodes are contracted, in topological order: what the
// successors, chains and bounds are built from.
struct ContractedTasks {
  std::vector<std::vector<int>> predecessors;  // per task, sorted and without repeats
  std::vector<int> processor;                  // per task
};

// Each distinct runtime converted once.
struct ConversionTable {
  solvers::detail::LawMap<int> law_index;  // into conversions
  std::vector<Conversion> conversions;
  std::vector<int> law_of_conversion;  // conversion -> out.laws, once a task uses it
};

// The index in table.conversions of node's runtime, converting it when first seen.
std::size_t conversion_of(const graph::TaskNode& node, double fit_cv2_tolerance, ConversionTable& table) {
  // One conversion per distinct runtime; the tasks that share it share its phase table.
  const auto [known, is_new] = table.law_index.try_emplace(node.runtime);
  if (is_new) {
    Conversion converted = to_phase_task(node.runtime, fit_cv2_tolerance);
    if (const std::string why = unusable(converted.task); !why.empty()) {
      throw UnusableRuntime("state space: the runtime of task '" + node.label + "' (" + d::describe(node.runtime) +
                            ") has no usable phase-type form" +
                            (converted.fitted ? " (fitted as " + converted.fit + ")" : "") + ": " + why);
    }
    *known = static_cast<int>(table.conversions.size());
    table.conversions.push_back(std::move(converted));
  }
  return static_cast<std::size_t>(*known);
}

// The tasks v depends on: its task predecessors and, through each contracted predecessor, the
// tasks that one stands for.
std::vector<int> contracted_predecessors(const graph::TaskGraph& g, graph::NodeId v, const std::vector<int>& new_id,
                                         const std::vector<std::vector<int>>& through) {
  std::vector<int> preds;
  for (graph::NodeId u : g.predecessors(v)) {
    if (new_id[u] >= 0) {
      preds.push_back(new_id[u]);
    } else {
      preds.insert(preds.end(), through[u].begin(), through[u].end());
    }
  }
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  return preds;
}

void count_fitted_task(const Conversion& c, const graph::TaskNode& node, CompiledGraph& out,
                       std::vector<std::string>& fitted_examples) {
  ++out.fitted_tasks;
  out.fitted_only_deterministic = out.fitted_only_deterministic && c.deterministic;
  if (fitted_examples.size() < 3) {
    fitted_examples.push_back("'" + node.label + "' " + d::describe(node.runtime) + " as " + c.fit);
  }
}

// The index in out.laws of a conversion; only the conversions some task uses become laws.
int law_of_conversion(std::size_t conversion, ConversionTable& table, CompiledGraph& out) {
  std::vector<int>& law_of = table.law_of_conversion;
  if (law_of.size() <= conversion) law_of.resize(conversion + 1, -1);
  if (law_of[conversion] < 0) {
    law_of[conversion] = static_cast<int>(out.laws.size());
    out.laws.push_back(table.conversions[conversion].task);
  }
  return law_of[conversion];
}

void describe_fits(const std::vector<std::string>& fitted_examples, CompiledGraph& out) {
  if (out.fitted_tasks > 0) {
    out.fit_detail = std::to_string(out.fitted_tasks) + " task(s) fitted by moment matching, e.g. ";
    for (std::size_t i = 0; i < fitted_examples.size(); ++i) {
      out.fit_detail += (i > 0 ? "; " : "") + fitted_examples[i];
    }
  }
}

// Fills out's laws, law_of, labels and fitting report.
ContractedTasks convert_and_contract(const graph::TaskGraph& g, double fit_cv2_tolerance, CompiledGraph& out) {
  const std::vector<graph::NodeId> order = graph::topological_order(g);
  const std::size_t n = g.node_count();

  // Convert every node; contract the instantaneous ones (their successors depend directly on
  // their nearest non-instantaneous predecessors).
  std::vector<int> new_id(n, -1);
  std::vector<std::vector<int>> through(n);  // instantaneous node -> the tasks it stands for
  ContractedTasks tasks;
  std::vector<std::string> fitted_examples;
  ConversionTable table;
  for (graph::NodeId v : order) {
    const graph::TaskNode& node = g.node(v);
    if (node.kind == graph::NodeKind::DynamicPool) {
      throw std::invalid_argument("state space: node '" + node.label +
                                  "' is a dynamic pool (dynamic scheduling is simulated by Monte Carlo)");
    }
    const std::size_t conversion = conversion_of(node, fit_cv2_tolerance, table);
    const Conversion& c = table.conversions[conversion];
    std::vector<int> preds = contracted_predecessors(g, v, new_id, through);
    if (c.task.size == 0) {
      through[v] = std::move(preds);
      continue;
    }
    if (c.fitted) count_fitted_task(c, node, out, fitted_examples);
    new_id[v] = static_cast<int>(out.law_of.size());
    out.law_of.push_back(law_of_conversion(conversion, table, out));
    out.labels.push_back(node.label);
    tasks.processor.push_back(node.processor);
    tasks.predecessors.push_back(std::move(preds));
  }
  describe_fits(fitted_examples, out);
  return tasks;
}

void link_successors(const ContractedTasks& tasks, CompiledGraph& out) {
  const std::size_t count = out.law_of.size();
  out.successors.assign(count, {});
  for (std::size_t v = 0; v < count; ++v) {
    for (int u : tasks.predecessors[v]) out.successors[static_cast<std::size_t>(u)].push_back(static_cast<int>(v));
  }
}

// Chains: paths of arcs, built in topological order; a task continues the chain of a
// predecessor that is still a chain's end, preferring its own processor's.
void cover_with_chains(const ContractedTasks& tasks, CompiledGraph& out) {
  const std::size_t count = out.law_of.size();
  const std::vector<int>& processor = tasks.processor;
  out.chain_of.assign(count, -1);
  out.position_of.assign(count, -1);
  std::vector<bool> has_next(count, false);
  for (std::size_t v = 0; v < count; ++v) {
    int chosen = -1;
    for (int u : tasks.predecessors[v]) {
      const auto uu = static_cast<std::size_t>(u);
      if (has_next[uu]) continue;
      if (chosen < 0 || (processor[uu] == processor[v] && processor[v] >= 0 &&
                         processor[static_cast<std::size_t>(chosen)] != processor[v])) {
        chosen = u;
      }
    }
    if (chosen >= 0) {
      const auto cu = static_cast<std::size_t>(chosen);
      has_next[cu] = true;
      const int chain = out.chain_of[cu];
      out.chain_of[v] = chain;
      out.position_of[v] = static_cast<int>(out.chains[static_cast<std::size_t>(chain)].size());
      out.chains[static_cast<std::size_t>(chain)].push_back(static_cast<int>(v));
    } else {
      out.chain_of[v] = static_cast<int>(out.chains.size());
      out.position_of[v] = 0;
      out.chains.push_back({static_cast<int>(v)});
    }
  }
}

// Predecessors as (chain, position), and the sources.
void locate_predecessors(const ContractedTasks& tasks, CompiledGraph& out) {
  const std::size_t count = out.law_of.size();
  out.predecessors.assign(count, {});
  for (std::size_t v = 0; v < count; ++v) {
    for (int u : tasks.predecessors[v]) {
      const auto uu = static_cast<std::size_t>(u);
      out.predecessors[v].push_back({out.chain_of[uu], out.position_of[uu]});
    }
    if (tasks.predecessors[v].empty()) out.sources.push_back(static_cast<int>(v));
  }
}

// Packed layout: per chain a progress field (0..length) and a phase field (0..largest size);
// a field never straddles two words. Also sums the chains' fastest rates.
void pack_state_layout(CompiledGraph& out) {
  int word = 0, used = 0;
  auto place = [&](int width) {
    if (used + width > 64) {
      ++word;
      used = 0;
    }
    Field f{word, used, width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1};
    used += width;
    return f;
  };
  // Per runtime, not per task: a runtime of 4096 phases shared by 2e5 tasks is scanned once.
  std::vector<double> fastest_of_law(out.laws.size(), 0.0);
  for (std::size_t law = 0; law < out.laws.size(); ++law) {
    for (double r : out.laws[law].exit_rate) fastest_of_law[law] = std::max(fastest_of_law[law], r);
  }
  for (const std::vector<int>& chain : out.chains) {
    int largest = 0;
    double fastest = 0.0;
    for (int t : chain) {
      const auto task = static_cast<std::size_t>(t);
      largest = std::max(largest, out.task(task).size);
      fastest = std::max(fastest, fastest_of_law[static_cast<std::size_t>(out.law_of[task])]);
    }
    const int progress_width = bit_width_of(chain.size());
    const int phase_width = bit_width_of(static_cast<std::uint64_t>(largest));
    out.progress_field.push_back(place(progress_width));
    out.phase_field.push_back(place(phase_width));
    out.key_bits += progress_width + phase_width;
    out.largest_total_rate += fastest;
  }
  out.words = out.chains.empty() ? 1 : word + 1;
}

// The largest level rise of one transition: one move or completion plus one start.
int largest_level_jump(const std::vector<PhaseTask>& laws) {
  int largest_rise = 1, largest_start = 0;
  for (const PhaseTask& t : laws) {
    for (std::size_t i = 0; i < t.potential.size(); ++i) {
      if (t.absorb_rate[i] > 0.0) largest_rise = std::max(largest_rise, t.done_potential - t.potential[i]);
      for (const auto& [j, rate] : t.moves[i]) {
        largest_rise = std::max(largest_rise, t.potential[static_cast<std::size_t>(j - 1)] - t.potential[i]);
      }
      if (t.alpha[i] > 0.0) largest_start = std::max(largest_start, t.potential[i]);
    }
    if (t.atom > 0.0) largest_start = std::max(largest_start, t.done_potential);
  }
  return largest_rise + largest_start;
}

void sum_potentials_and_critical_path(const ContractedTasks& tasks, CompiledGraph& out) {
  const std::size_t count = out.law_of.size();
  std::vector<double> finish_time(count, 0.0);
  for (std::size_t v = 0; v < count; ++v) {
    const PhaseTask& t = out.task(v);
    out.total_potential += t.done_potential;
    double start = 0.0;
    for (int u : tasks.predecessors[v]) start = std::max(start, finish_time[static_cast<std::size_t>(u)]);
    finish_time[v] = start + t.mean;
    out.critical_path_of_means = std::max(out.critical_path_of_means, finish_time[v]);
  }
}

}  // namespace

Conversion to_phase_task(const d::Distribution& runtime, double fit_cv2_tolerance) {
  return convert(runtime, fit_cv2_tolerance);
}

CompiledGraph compile(const graph::TaskGraph& g, double fit_cv2_tolerance) {
  CompiledGraph out;
  const ContractedTasks tasks = convert_and_contract(g, fit_cv2_tolerance, out);
  link_successors(tasks, out);
  cover_with_chains(tasks, out);
  locate_predecessors(tasks, out);
  pack_state_layout(out);
  out.largest_jump = largest_level_jump(out.laws);
  sum_potentials_and_critical_path(tasks, out);
  return out;
}

}  // namespace solvers::state_space_detail
