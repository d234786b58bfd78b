// Differential tests on generated programs (tests/support/program_generator.hpp): every method
// held to its guarantee on programs nobody wrote by hand.
//
//   build/release/tests/analysis/differential_tests                 # CI: 500 programs, seed 1
//   build/release/tests/analysis/differential_tests --count=20000 --seed=7
//
// A failure prints the program and its machine, so that it can be replayed with
// `pdl-scale FILE --machine MACHINE --p 1,2,3 --method all`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/monte_carlo.hpp"
#include "tests/support/program_generator.hpp"

namespace {

std::int64_t g_count = 500;
std::uint64_t g_seed = 1;

// A generated program checked on its machine, or the diagnostics that refused it.
struct Loaded {
  std::optional<analysis::Case> one;
  std::string diagnostics;
};

Loaded load(const test_support::GeneratedProgram& generated) {
  Loaded loaded;
  models::Machine machine = models::ideal_machine();
  if (!generated.machine.empty()) {
    const pdl::MachineParseResult parsed = pdl::parse_machine(generated.machine, "generated.machine");
    if (!parsed.ast) return {std::nullopt, pdl::format(parsed.diagnostics)};
    const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
    if (!checked.machine) return {std::nullopt, pdl::format(checked.diagnostics)};
    machine = *checked.machine;
  }
  const pdl::ParseResult parsed = pdl::parse(generated.pdl, "generated.pdl");
  if (!parsed.ast) return {std::nullopt, pdl::format(parsed.diagnostics)};
  pdl::CheckOptions options;
  options.machine = &machine;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  if (!checked.program) return {std::nullopt, pdl::format(checked.diagnostics)};
  const models::Binding binding = models::bind(*checked.program, machine, {});
  if (!binding.ok()) return {std::nullopt, binding.errors.front().message()};
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(*checked.program);
  one.machine = std::make_shared<const models::Machine>(machine);
  one.environment = binding.environment;
  one.label.machine = machine.name;
  loaded.one = std::move(one);
  return loaded;
}

analysis::Request request_for(std::uint64_t seed) {
  analysis::Request request;
  request.processors = {1, 2, 3};
  request.methods = {solvers::Method::SeriesParallel, solvers::Method::Bounds, solvers::Method::MonteCarlo,
                     solvers::Method::StateSpace};
  request.threads = 1;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = 4000;
  request.solver_options.monte_carlo.seed = seed;
  request.solver_options.state_space.max_states = 100'000;
  return request;
}

// Five standard errors of a Monte Carlo mean: over thousands of comparisons a false alarm has
// a probability of about 6e-7 each.
double five_se(const solvers::Result& mc) { return 5.0 / 1.959964 * (mc.upper - mc.mean); }

// Rounding slack for figures that are equal in exact arithmetic.
double slack(double scale) { return 1e-9 * (1.0 + std::abs(scale)); }

// Every property on one program; the failures, one line each, empty when all hold.
std::string check_properties(const analysis::Case& one, bool approx_is_upper_bound, std::uint64_t seed) {
  std::ostringstream failures;
  const analysis::Request request = request_for(seed);
  const auto study = analysis::run_study({one}, request);
  if (!study.ok()) return "the study failed: " + study.failure->message + "\n";
  const std::optional<solvers::Result>& t1 = study.value->one_processor_time(0);
  for (int p : request.processors) {
    const auto& at = [&](solvers::Method m) -> const solvers::Result& { return study.value->at(0, p, m).result; };
    const solvers::Result& approx = at(solvers::Method::SeriesParallel);
    const solvers::Result& bounds = at(solvers::Method::Bounds);
    const solvers::Result& mc = at(solvers::Method::MonteCarlo);
    const solvers::Result& exact = at(solvers::Method::StateSpace);
    const auto fail = [&](const std::string& property, double a, double b) {
      failures << "p = " << p << ": " << property << " (" << a << " vs " << b << ")\n";
    };
    if (!approx.solved() || !mc.solved()) {
      fail("approx and Monte Carlo solve every program", approx.solved(), mc.solved());
      continue;
    }
    if (!(approx.lower <= approx.mean + slack(approx.mean) && approx.mean <= approx.upper + slack(approx.mean))) {
      fail("approx's mean lies in its bracket", approx.lower, approx.upper);
    }
    if (bounds.solved()) {
      if (bounds.lower > mc.mean + five_se(mc) + slack(mc.mean)) fail("lower bound <= Monte Carlo", bounds.lower, mc.mean);
      if (bounds.upper < mc.mean - five_se(mc) - slack(mc.mean)) fail("Monte Carlo <= upper bound", mc.mean, bounds.upper);
      if (approx_is_upper_bound && approx.upper < bounds.lower - slack(bounds.lower)) {
        fail("approx >= the lower bound where it is promised an upper bound", approx.upper, bounds.lower);
      }
    }
    if (approx_is_upper_bound && approx.upper < mc.mean - five_se(mc) - slack(mc.mean)) {
      fail("approx >= Monte Carlo of the exact model where it is promised an upper bound", approx.upper, mc.mean);
    }
    if (exact.solved()) {
      if (std::abs(exact.mean - mc.mean) > five_se(mc) + slack(mc.mean)) fail("exact = Monte Carlo", exact.mean, mc.mean);
      if (bounds.solved() && (exact.mean < bounds.lower - slack(exact.mean) || exact.mean > bounds.upper + slack(exact.mean))) {
        fail("lower bound <= exact <= upper bound", exact.mean, bounds.lower);
      }
    }
    // The approximate model's reduction against a simulation of the same tree.
    const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
    solvers::MonteCarloOptions tree_options = request.solver_options.monte_carlo;
    tree_options.threads = 1;
    const solvers::Result tree_mc = solvers::solve_monte_carlo(tree, tree_options);
    if (std::abs(tree_mc.mean - approx.mean) > five_se(tree_mc) + (approx.upper - approx.lower) + slack(approx.mean)) {
      fail("series-parallel reduction of the approximate model = its Monte Carlo", approx.mean, tree_mc.mean);
    }
    if (p == 1 && t1 && (approx.upper < t1->lower - slack(t1->lower) || approx.lower > t1->upper + slack(t1->upper))) {
      fail("approx = the sum of the task means", approx.mean, t1->mean);
    }
  }
  // Invariance: on the ideal machine (free messages and barriers) every runtime is a multiple of
  // RTFactor, so doubling it doubles the approximate model's mean (within the two brackets).
  if (one.machine->name == models::ideal_machine().name) {
    analysis::Case doubled = one;
    models::Machine machine = *one.machine;
    machine.rt_factor *= 2.0;
    doubled.machine = std::make_shared<const models::Machine>(machine);
    doubled.environment.values["RTFactor"] = machine.rt_factor;
    analysis::Request approx_only = request;
    approx_only.methods = {solvers::Method::SeriesParallel};
    const auto twice = analysis::run_study({doubled}, approx_only);
    for (int p : request.processors) {
      const solvers::Result& a = study.value->at(0, p, solvers::Method::SeriesParallel).result;
      const solvers::Result& b = twice.value->at(0, p, solvers::Method::SeriesParallel).result;
      if (b.upper < 2.0 * a.lower - slack(b.mean) || b.lower > 2.0 * a.upper + slack(b.mean)) {
        failures << "p = " << p << ": doubling RTFactor doubles approx (" << 2.0 * a.mean << " vs " << b.mean << ")\n";
      }
    }
  }
  return failures.str();
}

TEST(Differential, EveryMethodKeepsItsGuaranteeOnGeneratedPrograms) {
  test_support::ProgramGenerator generator(g_seed);
  int reported = 0, barriers = 0;
  std::map<std::string, int> broken;  // property -> programs
  for (std::int64_t k = 0; k < g_count; ++k) {
    test_support::GeneratedProgram generated = generator.next();
    Loaded loaded = load(generated);
    if (!loaded.one) {
      // A random concatenation kind may not fit two schemes: the same program with barriers.
      generated.pdl = test_support::ProgramGenerator::with_barriers(generated.pdl);
      loaded = load(generated);
      ++barriers;
    }
    ASSERT_TRUE(loaded.one) << "program " << k << " is refused:\n" << loaded.diagnostics << "\n" << generated.pdl;
    const std::string failures = check_properties(*loaded.one, generated.approx_is_upper_bound, g_seed + k);
    std::istringstream lines(failures);
    std::set<std::string> properties;
    for (std::string line; std::getline(lines, line);) properties.insert(line.substr(line.find(": ") + 2, line.find(" (") - line.find(": ") - 2));
    for (const std::string& property : properties) ++broken[property];
    if (!failures.empty() && reported++ < 5) {
      ADD_FAILURE() << "program " << k << " (seed " << g_seed << "):\n"
                    << failures << "--- generated.pdl\n"
                    << generated.pdl << "--- generated.machine\n"
                    << (generated.machine.empty() ? "(ideal)\n" : generated.machine);
    }
  }
  std::string tally;
  for (const auto& [property, programs] : broken) tally += "  " + std::to_string(programs) + " programs: " + property + "\n";
  EXPECT_EQ(reported, 0) << reported << " of " << g_count << " programs broke a property:\n" << tally;
  std::printf("%lld programs (seed %llu), %d with every concatenation a barrier\n", static_cast<long long>(g_count),
              static_cast<unsigned long long>(g_seed), barriers);
}

}  // namespace

// --count=N and --seed=S choose the programs; every other argument goes to GoogleTest.
int main(int argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--count=", 8) == 0) {
      g_count = std::stoll(argv[i] + 8);
    } else if (std::strncmp(argv[i], "--seed=", 7) == 0) {
      g_seed = std::stoull(argv[i] + 7);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
