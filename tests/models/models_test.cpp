// The model values: expressions, binding, parameter checks and distributions from specs.
#include "distributions/distribution.hpp"
#include "models/bind.hpp"
#include "models/environment.hpp"
#include "models/make_distribution.hpp"
#include "models/measurements.hpp"
#include "models/validate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace models {
namespace {

Expr n(double v) { return Expr::constant(v); }
Expr id(const char* name) { return Expr::identifier(name); }

TEST(Expr, EvaluatesEveryOperator) {
  Environment env;
  env.values = {{"P", 8}, {"x", 3}};
  env.sizes = {{"INT", 4}};
  const auto value = [&](const Expr& e) { return evaluate(e, env).value; };
  EXPECT_EQ(value(Expr::subtract(Expr::subtract(n(10), n(4)), n(3))), 3);  // left associative
  EXPECT_EQ(value(Expr::divide(n(12), Expr::multiply(n(2), n(3)))), 2);
  EXPECT_EQ(value(Expr::power(n(2), Expr::power(n(3), n(2)))), 512);
  EXPECT_EQ(value(Expr::negate(id("x"))), -3);
  EXPECT_EQ(value(Expr::multiply(Expr::size_of("INT"), id("P"))), 32);
  EXPECT_EQ(value(Expr::call("log2", {id("P")})), 3);
  EXPECT_EQ(value(Expr::call("max", {n(1), id("x"), n(2)})), 3);
  EXPECT_EQ(value(Expr::call("ceil", {n(2.1)})), 3);
}

TEST(Expr, ErrorsNameTheProblem) {
  const Evaluation unbound = evaluate(Expr::add(id("height"), n(1)), {});
  EXPECT_FALSE(unbound.ok());
  EXPECT_EQ(unbound.unbound, "height");
  EXPECT_EQ(unbound.error, "unbound variable 'height'");
  EXPECT_EQ(evaluate(Expr::size_of("QUAD"), {}).unbound, "SIZEOF(QUAD)");
  EXPECT_EQ(evaluate(Expr::divide(n(1), n(0)), {}).error, "division by zero");
  EXPECT_FALSE(evaluate(Expr::call("log2", {n(-1)}), {}).ok());
  EXPECT_FALSE(evaluate(Expr::power(n(10), n(400)), {}).ok());  // overflow is not a value
}

TEST(Expr, PrintsWithTheParenthesesItNeeds) {
  EXPECT_EQ(to_string(Expr::add(id("ts"), Expr::multiply(id("tw"), id("L")))), "ts + tw*L");
  EXPECT_EQ(to_string(Expr::multiply(Expr::add(n(1), n(2)), n(3))), "(1 + 2)*3");
  EXPECT_EQ(to_string(Expr::subtract(n(1), Expr::add(n(2), n(3)))), "1 - (2 + 3)");
  EXPECT_EQ(to_string(Expr::negate(Expr::add(n(1), id("x")))), "-(1 + x)");
  EXPECT_EQ(to_string(Expr::call("min", {id("P"), n(4)})), "min(P, 4)");
  EXPECT_EQ(to_string(Expr::multiply(n(100), Expr::size_of("INT"))), "100*SIZEOF(INT)");
  EXPECT_EQ(identifiers(Expr::add(id("a"), Expr::multiply(id("b"), id("a")))), (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(is_constant(Expr::size_of("INT")));
  EXPECT_TRUE(is_constant(Expr::call("log2", {n(8)})));
}

TEST(Machine, IdealMachine) {
  const Machine m = ideal_machine();
  EXPECT_EQ(m.name, "ideal");
  EXPECT_EQ(m.rt_factor, 1.0);
  EXPECT_EQ(m.sizes.at("INT"), 4.0);
  EXPECT_EQ(m.sizes.at("DOUBLE"), 8.0);
  EXPECT_EQ(to_string(m.communication_time), "0");
  EXPECT_EQ(to_string(m.barrier_time), "0");
  EXPECT_FALSE(m.contention);
}

TEST(Program, ResolveFileReplacesEveryArch) {
  EXPECT_EQ(resolve_file("dur_b.dis.$ARCH", "cluster"), "dur_b.dis.cluster");
  EXPECT_EQ(resolve_file("$ARCH/$ARCH.txt", "smp"), "smp/smp.txt");
  EXPECT_EQ(resolve_file("plain", "smp"), "plain");
}

TEST(Bind, DefaultsSetsAndErrors) {
  Program p;
  p.variables.push_back({"a", n(2), {}});
  p.variables.push_back({"b", Expr::multiply(id("a"), n(10)), {}});  // defaults may use earlier ones
  p.variables.push_back({"c", std::nullopt, {}});
  Machine m = ideal_machine();
  m.constants["ts"] = 5;
  Binding b = bind(p, m, {{"a", 3}, {"c", 1}});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.environment.values.at("b"), 30);
  EXPECT_EQ(b.environment.values.at("ts"), 5);
  EXPECT_EQ(b.environment.values.at("RTFactor"), 1);
  b = bind(p, m, {{"zz", 1}});
  ASSERT_EQ(b.errors.size(), 2u);
  EXPECT_EQ(b.errors[0].code, BindError::Code::UnknownVariable);
  EXPECT_EQ(b.errors[0].variable, "zz");
  EXPECT_EQ(b.errors[0].message(), "the program declares no variable 'zz'");
  EXPECT_EQ(b.errors[1].code, BindError::Code::NoValue);
  EXPECT_EQ(b.errors[1].message(), "variable 'c' has no default value");
}

TEST(Bind, VariablesOfPAreEvaluatedPerProcessorCount) {
  Program p;
  p.variables.push_back({"a", n(2), {}});
  p.variables.push_back({"cols", Expr::multiply(n(100), id("P")), {"x.pdl", 3, 1}});    // weak scaling
  p.variables.push_back({"half", Expr::divide(id("cols"), id("a")), {"x.pdl", 4, 1}});  // through cols
  p.variables.push_back({"inv", Expr::divide(n(6), Expr::subtract(id("P"), n(1))), {"x.pdl", 5, 1}});
  p.variables.push_back({"b", Expr::multiply(id("a"), n(10)), {}});  // no P: bound now
  Binding b = bind(p, ideal_machine(), {});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.environment.values.at("b"), 20);
  EXPECT_EQ(b.environment.values.count("cols"), 0u);
  ASSERT_EQ(b.environment.per_processor.size(), 3u);
  EXPECT_EQ(b.environment.per_processor[1].name, "half");
  Environment at = b.environment;
  ASSERT_FALSE(with_processors(at, 3));
  EXPECT_EQ(at.values.at("cols"), 300);
  EXPECT_EQ(at.values.at("half"), 150);
  EXPECT_EQ(at.values.at("inv"), 3);
  EXPECT_EQ(at.values.at("P"), 3);
  // A value given for the variable is a number: no longer a function of P.
  b = bind(p, ideal_machine(), {{"cols", 40}});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b.environment.values.at("cols"), 40);
  EXPECT_EQ(b.environment.values.at("half"), 20);     // half follows the number
  EXPECT_EQ(b.environment.per_processor.size(), 1u);  // inv is still of P
  // 6/(P - 1) at P = 1: the error names the variable, its expression and P, at its declaration.
  at = b.environment;
  const auto error = with_processors(at, 1);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->location.line, 5u);
  EXPECT_NE(error->message.find("variable 'inv'"), std::string::npos) << error->message;
  EXPECT_NE(error->message.find("at P = 1"), std::string::npos) << error->message;
}

TEST(Validate, ParameterConventions) {
  const auto ok = [](DistKind k, std::vector<double> v, std::size_t order = 0) {
    return check_parameters(k, order, v).empty();
  };
  EXPECT_TRUE(ok(DistKind::Erlang, {8, 1}));
  EXPECT_FALSE(ok(DistKind::Erlang, {8.5, 1}));
  EXPECT_FALSE(ok(DistKind::Erlang, {8, 0}));
  EXPECT_TRUE(ok(DistKind::HyperExponential, {0.25, 1, 0.75, 3}));
  EXPECT_FALSE(ok(DistKind::HyperExponential, {0.25, 1, 0.7, 3}));
  EXPECT_TRUE(ok(DistKind::PhaseType, {1, 0, -2, 2, 0, -3}, 2));
  EXPECT_FALSE(ok(DistKind::PhaseType, {1, 0, -2, 3, 0, -3}, 2));  // row sum > 0
  EXPECT_TRUE(ok(DistKind::Normal, {-1, 2}));
  EXPECT_FALSE(ok(DistKind::Uniform, {-1, 2}));
}

// Issue 12: the ranges of docs/distributions.md, "Parameter ranges", at and just past their
// ends. Each refusal names the parameter and the limit.
TEST(Validate, ParameterRanges) {
  const auto problem = [](DistKind k, std::vector<double> v, std::size_t order = 0) {
    return check_parameters(k, order, v);
  };
  const auto ok = [&](DistKind k, std::vector<double> v, std::size_t order = 0) {
    return problem(k, std::move(v), order).empty();
  };
  // Times: means in [1e-100, 1e100]; values that may be 0 are 0 or in that range.
  EXPECT_TRUE(ok(DistKind::Exponential, {1e-100}));
  EXPECT_TRUE(ok(DistKind::Exponential, {1e100}));
  EXPECT_EQ(problem(DistKind::Exponential, {1e308}), "EXPONENTIAL: the mean must lie in [1e-100, 1e+100], got 1e+308");
  EXPECT_FALSE(ok(DistKind::Exponential, {5e-324}));
  EXPECT_TRUE(ok(DistKind::Deterministic, {0}));
  EXPECT_FALSE(ok(DistKind::Deterministic, {1e-300}));
  EXPECT_FALSE(ok(DistKind::Deterministic, {1.0000001e100}));
  EXPECT_TRUE(ok(DistKind::Uniform, {0, 1e100}));
  EXPECT_FALSE(ok(DistKind::Uniform, {0, 1e308}));
  EXPECT_TRUE(ok(DistKind::Erlang, {1e6, 1e94}));
  EXPECT_NE(problem(DistKind::Erlang, {1e6, 1e95}).find("the mean k·s"), std::string::npos);
  EXPECT_FALSE(ok(DistKind::HyperExponential, {0.5, 1, 0.5, 1e-200}));
  EXPECT_TRUE(ok(DistKind::Samples, {0, 1e-100, 1e100}));
  EXPECT_FALSE(ok(DistKind::Samples, {1, 1e308}));
  EXPECT_FALSE(ok(DistKind::Histogram, {1, 1e300, 2, 1}));
  EXPECT_TRUE(ok(DistKind::Histogram, {1, 1e-300, 2, 1}));  // a tiny weight is a probability
  // Stage means within a factor of 1e12.
  EXPECT_TRUE(ok(DistKind::GeneralErlang, {1, 1e-12}));
  EXPECT_NE(problem(DistKind::GeneralErlang, {1, 1e-13}).find("differ by a factor of"), std::string::npos);
  EXPECT_FALSE(ok(DistKind::PhaseType, {1, 0, -1, 1, 0, -1e13}, 2));
  EXPECT_FALSE(ok(DistKind::PhaseType, {1, 0, -1, 1e-300, 0, -1}, 2));  // a rate of 1e-300
  // PHASETYPE's mean α(−S)⁻¹1 is checked too: two stages of rate 1e-100 have mean 2e100.
  EXPECT_TRUE(ok(DistKind::PhaseType, {1, -1e-100}, 1));
  EXPECT_NE(problem(DistKind::PhaseType, {1, 0, -1e-100, 1e-100, 0, -1e-100}, 2).find("the mean"), std::string::npos);
  // NORMAL: sigma a time, |mu| <= 1e100, mu/sigma in [-1e6, 1e12].
  EXPECT_TRUE(ok(DistKind::Normal, {1, 1e-12}));
  EXPECT_NE(problem(DistKind::Normal, {1, 1e-20}).find("mu/sigma must lie in [-1e+06, 1e+12]"), std::string::npos);
  EXPECT_FALSE(ok(DistKind::Normal, {1e300, 1e290}));
  EXPECT_FALSE(ok(DistKind::Normal, {-1e7, 1}));
}

TEST(MakeDistribution, MeansFollowThePdlConventions) {
  Environment env;
  env.values = {{"RTFactor", 2}};
  const Machine m = ideal_machine();
  const auto mean_of = [&](DistKind kind, std::vector<Expr> params) {
    RuntimeSpec spec;
    spec.kind = kind;
    spec.params = std::move(params);
    return distributions::mean(make_distribution(spec, env, m));
  };
  // ERLANG(8, 1): 8 phases of mean 1; the paper's ERLANG(100, 1*RTFactor) scales each phase.
  EXPECT_NEAR(mean_of(DistKind::Erlang, {n(8), n(1)}), 8, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::Erlang, {n(100), Expr::multiply(n(1), id("RTFactor"))}), 200, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::Exponential, {n(4)}), 4, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::GeneralErlang, {n(1), n(2), n(0.5)}), 3.5, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::HyperExponential, {n(0.9), n(1), n(0.1), n(10)}), 1.9, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::Uniform, {n(1), n(3)}), 2, 1e-9);
  EXPECT_NEAR(mean_of(DistKind::Deterministic, {n(5)}), 5, 1e-9);
}

TEST(MakeDistribution, RefusesWhatItCannotBuild) {
  RuntimeSpec numerical;
  numerical.kind = DistKind::Numerical;
  numerical.file = "dur_b.dis.$ARCH";
  Machine m = ideal_machine();
  m.name = "cluster";
  try {
    (void)make_distribution(numerical, {}, m);
    FAIL() << "NUMERICAL without its data must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("dur_b.dis.cluster"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not read"), std::string::npos) << e.what();
  }
  // Read for machine 'smp': $ARCH names another file on 'cluster'.
  numerical.measurements = Measurements{"dur_b.dis.smp", "smp", {1, 2, 3}, {}, ""};
  try {
    (void)make_distribution(numerical, {}, m);
    FAIL() << "data read for another machine must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("read for machine 'smp'"), std::string::npos) << e.what();
  }
  m.name = "smp";
  EXPECT_NEAR(distributions::mean(make_distribution(numerical, {}, m)), 2.0, 1e-9);
  RuntimeSpec unbound;
  unbound.kind = DistKind::Exponential;
  unbound.params = {id("mean")};
  EXPECT_THROW((void)make_distribution(unbound, {}, m), std::invalid_argument);
}

TEST(Measurements, UnitsConvertToMicroseconds) {
  EXPECT_EQ(microseconds_per("ns"), 1e-3);
  EXPECT_EQ(microseconds_per("us"), 1.0);
  EXPECT_EQ(microseconds_per("\xC2\xB5s"), 1.0);
  EXPECT_EQ(microseconds_per("ms"), 1e3);
  EXPECT_EQ(microseconds_per("s"), 1e6);
  EXPECT_FALSE(microseconds_per("MS"));
  EXPECT_FALSE(microseconds_per("min"));
}

TEST(Measurements, SummaryIsWeighted) {
  const SampleSummary s = summarise({1, 3}, {3, 1});
  EXPECT_EQ(s.count, 2u);
  EXPECT_DOUBLE_EQ(s.total_weight, 4.0);
  EXPECT_DOUBLE_EQ(s.mean, 1.5);
  EXPECT_DOUBLE_EQ(s.variance, 0.75);
  EXPECT_DOUBLE_EQ(s.effective_count, 16.0 / 10.0);
  const SampleSummary u = summarise({2, 4, 6}, {});
  EXPECT_DOUBLE_EQ(u.mean, 4.0);
  EXPECT_DOUBLE_EQ(u.variance, 8.0 / 3.0);
  EXPECT_DOUBLE_EQ(u.cv, std::sqrt(8.0 / 3.0) / 4.0);
}

// The smoothed law keeps the mean and (variance correction) the variance, and stays >= 0.
TEST(Measurements, SmoothingKeepsTheMeanAndAddsTheKernelVariance) {
  const std::vector<double> values = {4, 5, 5.5, 6, 7, 7.5, 8, 9, 10, 12};
  const Measurements m{"x", "ideal", values, {}, ""};
  const double w = kernel_half_width(values, {});
  ASSERT_GT(w, 0.0);
  EXPECT_LE(w, 4.0);
  const auto empirical = measured_distribution(m, Smoothing::Empirical);
  const auto smoothed = measured_distribution(m, Smoothing::Smoothed);
  EXPECT_NEAR(distributions::mean(smoothed), distributions::mean(empirical), 1e-2);
  EXPECT_NEAR(distributions::variance(smoothed), distributions::variance(empirical), 0.05);
  EXPECT_GT(distributions::grid_size(smoothed), 0u);
  EXPECT_GE(distributions::quantile(smoothed, 0.0), 0.0);
  const auto bracket = distributions::mean_bracket(smoothed);
  EXPECT_LE(bracket.lower, summarise(values, {}).mean);
  EXPECT_GE(bracket.upper, summarise(values, {}).mean);
  // The kernel is capped by the smallest value, so that no mass goes below 0.
  EXPECT_EQ(kernel_half_width({0.1, 50, 60, 70, 80}, {}), 0.1);
  // Values whose variance overflows a double are smoothed without the variance correction.
  const Measurements huge{"x", "ideal", {152.78, 4.492e170, 3e169}, {}, ""};
  EXPECT_TRUE(std::isinf(summarise(huge.values, {}).variance));
  EXPECT_TRUE(std::isfinite(distributions::mean(measured_distribution(huge, Smoothing::Smoothed))));
  // Nothing to smooth: equal values, or a 0 among them.
  EXPECT_EQ(kernel_half_width({3, 3, 3}, {}), 0.0);
  EXPECT_EQ(kernel_half_width({0, 1, 2}, {}), 0.0);
}

}  // namespace
}  // namespace models
