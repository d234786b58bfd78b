// Monte Carlo of a series-parallel tree (the approximate model), sampled node by node; see
// solve_monte_carlo(const graph::SpTree&, ...) in monte_carlo.hpp.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"
#include "graph/sp_tree.hpp"
#include "solvers/monte_carlo.hpp"
#include "solvers/monte_carlo_driver.hpp"

namespace solvers {

namespace {

constexpr std::int64_t kMaxCopies = 4096;

distributions::Distribution reduce_subtree(const graph::SpTree& tree, std::size_t root,
                                           std::map<std::size_t, distributions::Distribution>& memo) {
  namespace d = distributions;
  const auto found = memo.find(root);
  if (found != memo.end()) return found->second;
  const graph::SpNode& node = tree.node(root);
  d::Distribution value;
  switch (node.kind) {
    case graph::SpKind::Leaf: value = node.task.runtime; break;
    case graph::SpKind::Series:
      value = reduce_subtree(tree, node.children.front(), memo);
      for (std::size_t k = 1; k < node.children.size(); ++k)
        value = d::series(value, reduce_subtree(tree, node.children[k], memo));
      break;
    case graph::SpKind::Parallel:
      value = reduce_subtree(tree, node.children.front(), memo);
      for (std::size_t k = 1; k < node.children.size(); ++k)
        value = d::parallel(value, reduce_subtree(tree, node.children[k], memo));
      break;
    case graph::SpKind::SeriesPower:
      value = d::series_power(reduce_subtree(tree, node.children.front(), memo), node.count);
      break;
    case graph::SpKind::ParallelPower:
      value = d::parallel_power(reduce_subtree(tree, node.children.front(), memo), node.count);
      break;
    case graph::SpKind::Branch: {
      std::vector<d::Distribution> alternatives;
      for (std::size_t child : node.children) alternatives.push_back(reduce_subtree(tree, child, memo));
      value = d::mixture(node.probabilities, std::move(alternatives));
      break;
    }
  }
  memo.emplace(root, value);
  return value;
}

class TreeSampler {
 public:
  explicit TreeSampler(const graph::SpTree& tree)
      : tree_(tree), direct_(tree.nodes().size(), -1), cost_(tree.nodes().size(), 0) {
    std::map<std::size_t, distributions::Distribution> memo;
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
      const graph::SpNode& node = tree.node(i);
      std::int64_t cost = 0;
      switch (node.kind) {
        case graph::SpKind::Leaf:
          direct_[i] = add(node.task.runtime);
          cost = 1;
          break;
        case graph::SpKind::SeriesPower:
        case graph::SpKind::ParallelPower: {
          const std::size_t child = node.children.front();
          const bool leaf = tree.node(child).kind == graph::SpKind::Leaf;
          if (leaf || node.count > kMaxCopies) {
            const distributions::Distribution base =
                leaf ? tree.node(child).task.runtime : reduce_subtree(tree, child, memo);
            const distributions::Distribution power = node.kind == graph::SpKind::SeriesPower
                                                          ? distributions::series_power(base, node.count)
                                                          : distributions::parallel_power(base, node.count);
            // A grid's draws are only as fine as its cells (a heavy tail's are coarse): a leaf's
            // few copies are drawn one by one instead, exactly.
            if (!leaf || distributions::is_closed_form(power) || node.count > kMaxCopies) {
              direct_[i] = add(power);
              cost = 1;
              break;
            }
          }
          cost = node.count * cost_[child];
          break;
        }
        default:
          for (std::size_t child : node.children)
            cost = node.kind == graph::SpKind::Branch ? std::max(cost, cost_[child]) : cost + cost_[child];
      }
      cost_[i] = cost;
    }
  }
  double operator()(distributions::Xoshiro256pp& rng) const { return sample(tree_.root(), rng); }
  std::int64_t cost() const { return cost_[tree_.root()]; }

 private:
  int add(const distributions::Distribution& d) {
    samplers_.emplace_back(d);
    return static_cast<int>(samplers_.size() - 1);
  }
  double sample(std::size_t i, distributions::Xoshiro256pp& rng) const {
    if (direct_[i] >= 0) return samplers_[static_cast<std::size_t>(direct_[i])](rng);
    const graph::SpNode& node = tree_.node(i);
    double value = 0.0;
    switch (node.kind) {
      case graph::SpKind::Leaf: break;
      case graph::SpKind::Series:
        for (std::size_t c : node.children) value += sample(c, rng);
        break;
      case graph::SpKind::Parallel:
        for (std::size_t c : node.children) value = std::max(value, sample(c, rng));
        break;
      case graph::SpKind::SeriesPower:
        for (std::int64_t k = 0; k < node.count; ++k) value += sample(node.children.front(), rng);
        break;
      case graph::SpKind::ParallelPower:
        for (std::int64_t k = 0; k < node.count; ++k) value = std::max(value, sample(node.children.front(), rng));
        break;
      case graph::SpKind::Branch: {
        double u = distributions::uniform_closed_open(rng);
        for (std::size_t k = 0; k < node.children.size(); ++k) {
          if (u < node.probabilities[k] || k + 1 == node.children.size()) return sample(node.children[k], rng);
          u -= node.probabilities[k];
        }
        break;
      }
    }
    return value;
  }
  const graph::SpTree& tree_;
  std::vector<int> direct_;  // node -> sampler drawing the node's whole value at once, or -1
  std::vector<std::int64_t> cost_;
  std::vector<distributions::Sampler> samplers_;
};

}  // namespace

Result solve_monte_carlo(const graph::SpTree& tree, const MonteCarloOptions& options, MonteCarloSummary* summary) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  const TreeSampler tree_sampler(tree);
  const std::uint64_t seed = options.seed;
  monte_carlo_detail::BlockSampler sampler = [&](std::uint64_t block, double* out, monte_carlo_detail::Scratch&) {
    distributions::Xoshiro256pp rng(seed, block);
    for (std::int64_t i = 0; i < kMonteCarloBlock; ++i) out[i] = tree_sampler(rng);
  };
  return monte_carlo_detail::simulate(sampler, monte_carlo_detail::block_cost(tree_sampler.cost()), tree_sampler.cost(),
                                      options, "Monte Carlo simulation of the series-parallel tree", summary);
}

}  // namespace solvers
