#include "scaling/bandwidth_sharing.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "scaling/grid_layout.hpp"

namespace scaling {

namespace {

// The a <= b <= c with a·b·c = p of least c, then least b: the most nearly cubic box.
std::vector<std::int64_t> most_nearly_cubic(std::int64_t p) {
  std::int64_t best_a = 1, best_b = 1, best_c = p;
  for (std::int64_t a = 1; a * a * a <= p; ++a) {
    if (p % a != 0) continue;
    const std::int64_t rest = p / a;
    for (std::int64_t b = a; b * b <= rest; ++b) {
      if (rest % b != 0) continue;
      const std::int64_t c = rest / b;
      if (c < best_c || (c == best_c && b < best_b)) {
        best_a = a;
        best_b = b;
        best_c = c;
      }
    }
  }
  return {best_c, best_b, best_a};
}

double bus_sharing(const std::vector<Transfer>& step) {
  std::int64_t messages = 0;
  std::set<std::int64_t> endpoints;  // kOutside is one endpoint
  for (const Transfer& t : step) {
    if (t.messages <= 0) continue;
    messages += t.messages;
    endpoints.insert(t.from);
    endpoints.insert(t.to < 0 ? kOutside : t.to);
  }
  if (messages == 0) return 1.0;
  const auto half = static_cast<std::int64_t>(endpoints.size()) / 2;
  return static_cast<double>(std::min(messages, std::max<std::int64_t>(1, half)));
}

// Dimension-order routing: each message corrects its coordinates lowest dimension first, on a
// wrapping dimension the shorter way round (a tie the positive way); the most messages any
// directed link carries.
double routed_sharing(const ProcessorLayout& layout, const std::vector<Transfer>& step) {
  const auto dimensions = static_cast<std::int64_t>(layout.extents.size());
  std::int64_t nodes = 1;
  for (std::int64_t e : layout.extents) nodes *= e;
  std::unordered_map<std::int64_t, std::int64_t> load;  // (node, dimension, direction) -> messages
  std::int64_t most = 1;
  std::vector<std::int64_t> at(layout.extents.size()), target(layout.extents.size());
  const auto coordinates = [&](std::int64_t rank, std::vector<std::int64_t>& x) {
    for (std::size_t d = 0; d < layout.extents.size(); ++d) {
      x[d] = rank % layout.extents[d];
      rank /= layout.extents[d];
    }
  };
  const auto rank_of = [&](const std::vector<std::int64_t>& x) {
    std::int64_t rank = 0;
    for (std::size_t d = layout.extents.size(); d-- > 0;) rank = rank * layout.extents[d] + x[d];
    return rank;
  };
  for (const Transfer& t : step) {
    if (t.messages <= 0 || t.to < 0 || t.from == t.to || t.from >= nodes || t.to >= nodes) continue;
    coordinates(t.from, at);
    coordinates(t.to, target);
    for (std::size_t d = 0; d < layout.extents.size(); ++d) {
      const std::int64_t e = layout.extents[d];
      const std::int64_t forward = ((target[d] - at[d]) % e + e) % e;
      if (forward == 0) continue;
      bool positive = target[d] > at[d];
      std::int64_t hops = positive ? target[d] - at[d] : at[d] - target[d];
      if (layout.wraps) {
        positive = forward <= e - forward;
        hops = positive ? forward : e - forward;
      }
      for (std::int64_t h = 0; h < hops; ++h) {
        const std::int64_t key = (rank_of(at) * dimensions + static_cast<std::int64_t>(d)) * 2 + (positive ? 1 : 0);
        most = std::max(most, load[key] += t.messages);
        at[d] = ((at[d] + (positive ? 1 : -1)) % e + e) % e;
      }
    }
  }
  return static_cast<double>(most);
}

}  // namespace

ProcessorLayout processor_layout(models::Topology topology, std::int64_t p) {
  switch (topology) {
    case models::Topology::FullyConnected:
    case models::Topology::Bus:
    case models::Topology::FatTree: return {};
    case models::Topology::Ring: return {{p}, true};
    case models::Topology::Mesh2D:
    case models::Topology::Torus2D: {
      const detail::ProcessorGrid grid = detail::processor_grid(p);
      return {{grid.columns, grid.rows}, topology == models::Topology::Torus2D};
    }
    case models::Topology::Mesh3D:
    case models::Topology::Torus3D: return {most_nearly_cubic(p), topology == models::Topology::Torus3D};
    case models::Topology::Hypercube: {
      ProcessorLayout layout;
      for (std::int64_t nodes = 1; nodes < p; nodes *= 2) layout.extents.push_back(2);
      return layout;
    }
  }
  return {};
}

bool shares_links(models::Topology topology) {
  return topology != models::Topology::FullyConnected && topology != models::Topology::FatTree;
}

double sharing_factor(models::Topology topology, std::int64_t p, const std::vector<Transfer>& step) {
  if (!shares_links(topology)) return 1.0;
  if (topology == models::Topology::Bus) return bus_sharing(step);
  return routed_sharing(processor_layout(topology, p), step);
}

double diameter(models::Topology topology, std::int64_t p) {
  const ProcessorLayout layout = processor_layout(topology, p);
  double links = 0;
  for (std::int64_t extent : layout.extents) links += static_cast<double>(layout.wraps ? extent / 2 : extent - 1);
  return std::max(links, 1.0);
}

}  // namespace scaling
