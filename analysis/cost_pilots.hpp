// The cost estimate's pilots (analysis/cost.cpp): the estimates of the methods whose figure
// needs the built models (SolverInfo::cost_needs_models: Monte Carlo's timed pilot, the state
// space's size, the reduction itself), run on a few processor counts of each program spread
// over the sweep, and the figure of every other processor count interpolated between them.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/solver.hpp"

namespace analysis::cost_detail {

// One model the estimate may pilot: its case, processor count and sizes.
struct PilotModel {
  std::size_t case_index = 0;
  int p = 0;
  solvers::ModelSizes sizes;
  // True when the run builds its exact model (PlannedItem::builds_exact): else the methods that
  // need it are refused, and nothing is built for them.
  bool exact = false;
  // What building its approximate model took (a reduction's pilot builds it again).
  double build_seconds = 0.0;
};

// The order in which the models of each case are piloted: the smallest p, the largest, then
// the processor count nearest the geometric middle of each gap, widest gaps first, the cases
// taken in turn; so that the pilots the time allows span the sweep. `models` ascending by p
// within each case; the result indexes them.
std::vector<std::size_t> pilot_order(const std::vector<PilotModel>& models);

class Pilots {
 public:
  // `solvers`: the methods asked for, in their order (the estimate's index m).
  Pilots(std::size_t cases, std::span<const std::unique_ptr<solvers::Solver>> solvers);

  // The pilots of `models` (ascending p within each case) in `order`, within the estimate's
  // time for them; a method whose figure from the sizes is only its limit, ascending.
  void run(const std::vector<Case>& cases, const std::vector<PilotModel>& models, const std::vector<std::size_t>& order,
           const Request& request, const solvers::UnitCosts& costs);

  // Method m's figure for a model: its pilot's, a refusal found at a smaller p of its case, or
  // the figure from the sizes in the proportion the pilots of its case show around p
  // (interpolated in log p between the nearest below and above).
  solvers::SolveCost cost(std::size_t m, const PilotModel& model, const solvers::UnitCosts& costs) const;

  // Building and fingerprinting the exact model of case c at p (see cost_pilots.cpp).
  double exact_seconds(std::size_t c, const solvers::UnitCosts& costs, double tasks, int p) const;

  // Whether case c's exact model at p = 1 is a chain with a finite sum (T(1) without a
  // method), where the pilots built it; nothing where they did not.
  std::optional<bool> one_processor_chain(std::size_t c) const { return chain_at_one_[c]; }

 private:
  struct Pilot {
    int p = 0;
    solvers::SolveCost cost;
    // The pilot's figure over the one from the sizes (negative: none to scale by).
    double ratio = -1.0;
    // Seconds per task when the figure grows with the tasks (SolveCost::proportional_to_tasks).
    double per_task = -1.0;
    // False for p = 1's reduction, the one-processor chain, unlike the others'.
    bool scales_others = true;
  };
  struct Builds {
    double first_tasks = 0.0, first_seconds = 0.0, last_tasks = 0.0, last_seconds = 0.0;
    void add(double tasks, double seconds);
  };

  void pilot(const solvers::Solver& solver, std::size_t m, const Case& one, const PilotModel& model,
             const Request& request, const solvers::UnitCosts& costs);
  // The exact model of `model`, built and its time kept (counting toward the pilots' time), or
  // nothing when the run refuses it.
  std::optional<scaling::ExactModel> build_exact(const Case& one, const PilotModel& model, const Request& request);
  solvers::SolveCost from_exact_model(const solvers::Solver& solver, const Case& one, const PilotModel& model,
                                      const Request& request, const solvers::UnitCosts& costs);
  solvers::SolveCost between(const solvers::Solver& solver, const std::vector<Pilot>& pilots, const PilotModel& model,
                             const solvers::UnitCosts& costs) const;
  std::size_t slot(std::size_t c, std::size_t m) const { return c * solvers_.size() + m; }

  std::span<const std::unique_ptr<solvers::Solver>> solvers_;
  // Per case and method: the pilots, ascending p; the smallest p refused and its figure.
  std::vector<std::vector<Pilot>> pilots_;
  std::vector<std::optional<std::pair<int, solvers::SolveCost>>> refused_;
  // Per case and method: the seconds the reduction's pilots took.
  std::vector<double> reduction_seconds_;
  // Per case: its models (distinct processor counts) in the estimate.
  std::vector<std::size_t> case_models_;
  // Per case: the two largest exact models built of 1,000 tasks or more, and their times.
  std::vector<Builds> builds_;
  // Per case and p: the time its exact model took to build here.
  std::map<std::pair<std::size_t, int>, double> built_;
  // Per case: whether its p = 1 exact model, where built, is a chain.
  std::vector<std::optional<bool>> chain_at_one_;
  double spent_ = 0.0;
};

}  // namespace analysis::cost_detail
