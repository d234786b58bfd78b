// The text of a Monte Carlo summary.
#include <sstream>

#include "solvers/monte_carlo.hpp"

namespace solvers {

std::string MonteCarloSummary::BriefReport() const {
  std::ostringstream out;
  out << "Monte Carlo: mean " << mean << " ± " << half_width << " (95%), " << samples << " samples, "
      << task_samples_per_second / 1e6 << " M task-samples/s on " << threads << " threads";
  return out.str();
}

std::string MonteCarloSummary::FullReport() const {
  std::ostringstream out;
  out << BriefReport() << "\n";
  out << "variance " << variance << ", standard error " << standard_error << ", range [" << minimum << ", " << maximum
      << "]\n";
  out << "quantiles:";
  for (std::size_t q = 0; q < quantiles.size(); ++q) out << " " << kQuantileLevels[q] * 100 << "% " << quantiles[q];
  out << "\nhistogram (" << histogram.size() << " bins from " << histogram_low << ", width " << histogram_width << "):";
  for (std::int64_t c : histogram) out << " " << c;
  out << "\n";
  return out.str();
}

}  // namespace solvers
