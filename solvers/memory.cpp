#include "solvers/memory.hpp"

#include <unistd.h>

#include <cstdio>

namespace solvers {

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t quarter_of(std::uint64_t physical) { return physical == 0 ? kDefaultMemoryBudget : physical / 4; }

double task_graph_bytes(double nodes, double arcs) { return 220.0 * nodes + 72.0 * arcs; }

double exact_model_build_bytes(double tasks) { return 3.0 * task_graph_bytes(tasks, 3.0 * tasks); }

std::string memory_text(double bytes) {
  // Binary units, as --memory takes them (4G is 4 GiB).
  constexpr double kMiB = 1024.0 * 1024.0;
  char buffer[32];
  if (bytes >= 1024.0 * kMiB) {
    std::snprintf(buffer, sizeof buffer, "%.1f GiB", bytes / (1024.0 * kMiB));
  } else if (bytes >= kMiB) {
    std::snprintf(buffer, sizeof buffer, "%.0f MiB", bytes / kMiB);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.0f KiB", bytes / 1024.0);
  }
  return buffer;
}

}  // namespace solvers
