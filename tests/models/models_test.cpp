// The model values: expressions, binding, parameter checks and distributions from specs.
#include "distributions/distribution.hpp"
#include "models/bind.hpp"
#include "models/environment.hpp"
#include "models/make_distribution.hpp"
#include "models/validate.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

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
  EXPECT_EQ(b.errors[0], "--set zz: the program declares no variable 'zz'");
  EXPECT_NE(b.errors[1].find("variable 'c' has no default"), std::string::npos);
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
    FAIL() << "NUMERICAL is not supported yet";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("dur_b.dis.cluster"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not supported"), std::string::npos);
  }
  RuntimeSpec unbound;
  unbound.kind = DistKind::Exponential;
  unbound.params = {id("mean")};
  EXPECT_THROW((void)make_distribution(unbound, {}, m), std::invalid_argument);
}

}  // namespace
}  // namespace models
