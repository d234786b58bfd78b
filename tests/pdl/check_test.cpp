// The semantic pass: the model it builds and each check it makes.
#include "models/dump.hpp"
#include "models/bind.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

namespace pdl {
namespace {

using test::independent;
using test::parse_and_check;
using test::program_with;

TEST(Check, NeighborExampleModel) {
  const auto r = parse_and_check(test::read("examples/paper/neighbor.pdl"));
  ASSERT_TRUE(r.ok()) << r.text();
  const models::Program& p = *r.checked.program;
  EXPECT_EQ(p.name, "neighbor-5.1");
  ASSERT_EQ(p.variables.size(), 2u);
  EXPECT_EQ(p.variables[0].name, "columns");
  EXPECT_EQ(models::to_string(*p.variables[0].default_value), "10");
  EXPECT_EQ(p.pattern.kind, models::PatternNode::Kind::Repeat);
  EXPECT_EQ(models::to_string(p.pattern.count), "iterations");
  const models::WorkPhase* sweep = models::find_work_phase(p, "sweep");
  ASSERT_NE(sweep, nullptr);
  EXPECT_EQ(sweep->scheme, models::Scheme::Neighbor);
  EXPECT_EQ(sweep->scheduling, models::Scheduling::Block);
  ASSERT_TRUE(sweep->runtime);
  EXPECT_EQ(models::to_string(*sweep->runtime), "ERLANG(8, 1*RTFactor)");
  EXPECT_EQ(models::to_string(*sweep->units), "columns");
  const models::Concatenation* c = models::find_concatenation(p, "sweep", "sweep");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(*c, models::Concatenation::Neighbor);

  const models::Binding b = models::bind(p, models::ideal_machine(), {{"columns", 20}});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(models::evaluate(*sweep->units, b.environment).value, 20.0);
  EXPECT_EQ(models::evaluate(p.pattern.count, b.environment).value, 2.0);
  EXPECT_EQ(models::evaluate(sweep->volume, b.environment).value, 800.0);
}

TEST(Check, DefaultsAreExplicit) {
  const auto r = parse_and_check(test::read("examples/schemes/fork_join.pdl"));
  ASSERT_TRUE(r.ok()) << r.text();
  const models::WorkPhase* level = models::find_work_phase(*r.checked.program, "level");
  ASSERT_NE(level, nullptr);
  EXPECT_EQ(level->scheme, models::Scheme::ForkJoin);
  ASSERT_TRUE(level->jobs && level->tasks_per_job && level->interarrival && level->join);
  ASSERT_EQ(level->runtime->components.size(), 2u);

  const auto independent_phase = parse_and_check(program_with("a", independent("a")));
  const models::WorkPhase* a = models::find_work_phase(*independent_phase.checked.program, "a");
  EXPECT_EQ(models::to_string(a->volume), "0");
  EXPECT_EQ(a->scheduling, models::Scheduling::Block);
}

TEST(Check, EveryExampleChecksAndItsDumpChecksToTheSameDump) {
  for (const char* file :
       {"examples/paper/figures.pdl", "examples/paper/neighbor.pdl", "examples/schemes/independent.pdl",
        "examples/schemes/neighbor.pdl", "examples/schemes/neighbor_torus.pdl", "examples/schemes/macropipeline.pdl",
        "examples/schemes/fork_join.pdl", "examples/schemes/paired.pdl", "examples/schemes/arbitrary.pdl",
        "examples/studies/allreduce.pdl"}) {
    const auto r = parse_and_check(test::read(file), {}, file);
    ASSERT_TRUE(r.ok()) << file << "\n" << r.text();
    const auto machine = models::ideal_machine();
    const auto binding = models::bind(*r.checked.program, machine, {});
    ASSERT_TRUE(binding.ok()) << file;
    std::string first = models::dump(*r.checked.program, machine, binding.environment, {});
    const auto again = parse_and_check(first, {}, file);
    ASSERT_TRUE(again.ok()) << file << "\n" << again.text() << first;
    std::string second = models::dump(*again.checked.program, machine,
                                      models::bind(*again.checked.program, machine, {}).environment, {});
    // The dumps differ only in the file name of the first line.
    first.erase(0, first.find('\n'));
    second.erase(0, second.find('\n'));
    EXPECT_EQ(first, second) << file;
  }
}

// docs/pdl.md, "Collectives": a collective separates the work phases around it (no
// concatenation needed), and only a parenthesis makes one: a phase may be named `reduce`.
TEST(Check, CollectivesSeparateWorkPhasesAndPhasesMayBeNamedLikeThem) {
  const auto r = parse_and_check(program_with("reduce -> Reduce(8*P) -> reduce -> ALLTOALL(4)", independent("reduce")));
  ASSERT_TRUE(r.ok()) << r.text();
  const models::PatternNode& pattern = r.checked.program->pattern;
  ASSERT_EQ(pattern.children.size(), 4u);
  EXPECT_EQ(pattern.children[0].kind, models::PatternNode::Kind::PhaseRef);
  EXPECT_EQ(pattern.children[1].kind, models::PatternNode::Kind::Collective);
  EXPECT_EQ(pattern.children[1].collective, models::CollectiveOperation::Reduce);
  EXPECT_EQ(models::to_string(pattern.children[1].volume), "8*P");
  EXPECT_EQ(pattern.children[3].collective, models::CollectiveOperation::Alltoall);
  EXPECT_EQ(models::to_string(pattern), "reduce -> REDUCE(8*P) -> reduce -> ALLTOALL(4)");
  // Without the collective the two instances need a concatenation.
  const auto joined = parse_and_check(program_with("reduce -> reduce", independent("reduce")));
  EXPECT_FALSE(joined.ok());
  EXPECT_NE(joined.text().find("missing concatenation"), std::string::npos) << joined.text();
}

TEST(Check, UnusedPhaseAndUnusedConcatenationAreWarnings) {
  const auto r =
      parse_and_check(program_with("a -> sync -> b", independent("a") + independent("b") + independent("c")) +
                      "CONCATENATION IS: a, b : SERIAL; END;");
  ASSERT_TRUE(r.ok()) << r.text();
  ASSERT_EQ(r.checked.diagnostics.size(), 2u) << r.text();
  EXPECT_EQ(r.checked.diagnostics[0].severity, Severity::Warning);
  EXPECT_NE(r.checked.diagnostics[0].message.find("phase 'c' is defined but not used"), std::string::npos);
  EXPECT_NE(r.checked.diagnostics[1].message.find("'a, b' is never used"), std::string::npos);
}

// docs/pdl.md, "Warnings": N tasks drawn from M measured runtimes exceed the largest of them with
// probability N / (N + M); above 1% the checker warns at the SUBTASK RUNTIME. The paper's
// dur_b.dis.ideal has 200 samples: 4 tasks make 4 / 204 = 2.0% (warned), 2 make 0.99% (not).
TEST(Check, MeasuredRuntimesWhoseLargestDecidesAreAWarning) {
  const auto diagnostics = [](int tasks) {
    const auto r = parse_and_check(
        "PROGRAM NAME IS 'p';\nEXECUTION PATTERN IS a;\nWORK PHASE a IS:\n"
        "  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS NUMERICAL('dur_b.dis.ideal');\n"
        "  PROBLEM SIZE IS VECTOR x(" +
            std::to_string(tasks) + ");\nEND;\n",
        {}, "examples/paper/test.pdl");
    EXPECT_TRUE(r.ok()) << r.text();
    return r.checked.diagnostics;
  };
  const auto four = diagnostics(4);
  ASSERT_EQ(four.size(), 1u);
  EXPECT_EQ(four[0].severity, Severity::Warning);
  EXPECT_NE(four[0].message.find("the 4 tasks of an instance of phase 'a' are drawn from 200 measured runtimes"),
            std::string::npos)
      << four[0].message;
  EXPECT_NE(four[0].message.find("with probability about 2%"), std::string::npos) << four[0].message;
  EXPECT_TRUE(diagnostics(2).empty());
}

// docs/pdl.md, "Warnings": an ERLANG phase count above 1000, or above 100 with a scale that
// reads as a phase count, is warned at the distribution; the program still checks.
TEST(Check, ErlangPhaseCountFarAboveTypicalIsAWarning) {
  const auto diagnostics = [](const std::string& runtime) {
    const auto r = parse_and_check(program_with("a", "SEQUENTIAL PHASE a IS: RUNTIME IS " + runtime + "; END;"));
    EXPECT_TRUE(r.ok()) << runtime << "\n" << r.text();
    return r.checked.diagnostics;
  };
  const auto swapped = diagnostics("ERLANG(2560, 4)");
  ASSERT_EQ(swapped.size(), 1u);
  EXPECT_EQ(swapped[0].severity, Severity::Warning);
  // 2560 phases of mean 4: mean 10240, cv 1/sqrt(2560) = 0.0198; meant: 4 phases of mean 640.
  EXPECT_EQ(swapped[0].message,
            "ERLANG(2560, 4) has 2560 phases, each of mean 4: a mean of 10240 with a coefficient of "
            "variation of only 0.0198; ERLANG takes the phase count first (for 4 phases and a mean "
            "of 2560, write ERLANG(4, 640))");
  const auto many = diagnostics("ERLANG(1001, 0.5)");
  ASSERT_EQ(many.size(), 1u);
  EXPECT_NE(many[0].message.find("(for a constant runtime, write DETERMINISTIC(500.5))"), std::string::npos)
      << many[0].message;
  // Under the thresholds: the paper's 100 phases, 1000 phases of a scale that is no count, 101
  // phases of scale 1 (1 phase would be an exponential: no count) or 101 (above 100).
  for (const char* fine :
       {"ERLANG(100, 4)", "ERLANG(1000, 2.5)", "ERLANG(101, 1)", "ERLANG(101, 101)", "ERLANG(8, 1)"}) {
    EXPECT_TRUE(diagnostics(fine).empty()) << fine;
  }
  EXPECT_EQ(diagnostics("ERLANG(101, 2)").size(), 1u);
}

TEST(Check, SequentialPhaseAndSyncNeedNoConcatenation) {
  const auto r = parse_and_check(program_with(
      "a -> s -> a -> sync -> a", independent("a") + "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(1); END;"));
  EXPECT_TRUE(r.ok()) << r.text();
}

TEST(Check, ConcatenationPairsFromRepetitionGroupsAndAlternatives) {
  const auto missing = [](const std::string& pattern, const std::string& concatenations) {
    const auto r = parse_and_check(program_with(pattern, independent("a") + independent("b") + independent("c")) +
                                   "CONCATENATION IS: " + concatenations + " END;");
    std::string out;
    for (const auto& d : r.checked.diagnostics) {
      if (d.severity == Severity::Error) out += d.message.substr(0, d.message.find(':')) + "|";
    }
    return out;
  };
  EXPECT_EQ(missing("a{1} -> sync -> b -> sync -> c", ""), "");  // once: no self pair
  EXPECT_EQ(missing("a{2} -> sync -> b -> sync -> c", ""), "missing concatenation between work phases 'a' and 'a'|");
  EXPECT_EQ(missing("(a -> b){3} -> sync -> c", "a, b : SERIAL;"),
            "missing concatenation between work phases 'b' and 'a'|");
  EXPECT_EQ(missing("a -> (0.5: b | 0.5: c)", "a, b : SERIAL;"),
            "missing concatenation between work phases 'a' and 'c'|");
  // Every path from a to c passes a SYNC or b: (a, c) needs nothing.
  EXPECT_EQ(missing("a -> (0.5: b | 0.5: sync) -> c", "a, b : SERIAL; b, c : BARRIER;"), "");
}

TEST(Check, PairsOfLargeAlternativesAreBounded) {
  // (a0 | ... | a1999) -> (a0 | ... | a1999) needs 4 million pairs: report kMaxErrors, fast.
  std::string branches;
  std::string phases;
  for (int i = 0; i < 2000; ++i) {
    if (i > 0) branches += " | ";
    branches += "0.0005: a";
    branches += std::to_string(i);
    std::string name = "a";
    name += std::to_string(i);
    phases += independent(name);
  }
  const auto r = parse_and_check(program_with("(" + branches + ") -> (" + branches + ")", phases));
  EXPECT_EQ(count(r.checked.diagnostics, Severity::Error), kMaxErrors);
}

TEST(Check, MissingConcatenationListsTheOptions) {
  const auto r = parse_and_check(program_with("a -> b", independent("a") + independent("b")));
  EXPECT_EQ(r.first(),
            "2:27: error: missing concatenation between work phases 'a' and 'b': they follow each other with no "
            "SYNC between them; add 'a, b : KIND;' to a CONCATENATION block, KIND one of NEIGHBOR, NEIGHBOR-TORUS, "
            "TORUS, SERIAL, BARRIER");
}

TEST(Check, SetsReplaceDefaultsInChecks) {
  const std::string text = program_with("a", "VARIABLE n = -1;\n" + independent("a", "  COMMUNICATION VOLUME IS n;\n"));
  EXPECT_FALSE(parse_and_check(text).ok());
  CheckOptions options;
  options.sets = {{"n", 5}};
  EXPECT_TRUE(parse_and_check(text, options).ok());
}

TEST(Check, VariablesWithoutDefaultStaySymbolic) {
  const auto r = parse_and_check(
      program_with("a", "VARIABLE n;\n" + independent("a", "  COMMUNICATION VOLUME IS n*SIZEOF(INT);\n")));
  ASSERT_TRUE(r.ok()) << r.text();
  const models::Binding unbound = models::bind(*r.checked.program, models::ideal_machine(), {});
  ASSERT_EQ(unbound.errors.size(), 1u);
  EXPECT_EQ(unbound.errors[0].code, models::BindError::Code::NoValue);
  EXPECT_EQ(unbound.errors[0].variable, "n");
  EXPECT_TRUE(models::bind(*r.checked.program, models::ideal_machine(), {{"n", 3}}).ok());
}

TEST(Check, MachineSizesAndRTFactorAreUsed) {
  const MachineParseResult m = parse_machine("MACHINE NAME IS 'm'; SIZEOF QUAD IS 16; RTFACTOR IS 2;", "m.machine");
  ASSERT_TRUE(m.ast);
  const MachineCheckResult mc = check_machine(*m.ast, m.source);
  ASSERT_TRUE(mc.machine) << format(mc.diagnostics);
  EXPECT_EQ(mc.machine->rt_factor, 2.0);
  EXPECT_EQ(mc.machine->sizes.at("QUAD"), 16.0);
  EXPECT_EQ(mc.machine->sizes.at("INT"), 4.0);  // the standard sizes stay unless redefined
  const std::string text = program_with("a", independent("a", "  COMMUNICATION VOLUME IS SIZEOF(quad);\n"));
  EXPECT_FALSE(parse_and_check(text).ok());
  CheckOptions options;
  options.machine = &*mc.machine;
  EXPECT_TRUE(parse_and_check(text, options).ok());
}

TEST(Check, MachineModel) {
  const MachineParseResult m = parse_machine(test::read("examples/machines/cluster.machine"), "cluster.machine");
  ASSERT_TRUE(m.ast);
  const MachineCheckResult mc = check_machine(*m.ast, m.source);
  ASSERT_TRUE(mc.machine) << format(mc.diagnostics);
  const models::Machine& machine = *mc.machine;
  EXPECT_EQ(machine.communication, models::Communication::MessagePassing);
  EXPECT_EQ(machine.rt_factor, 1.5);
  models::Environment env;
  env.values = {{"ts", 50}, {"tw", 0.01}, {"L", 1000}, {"P", 8}};
  EXPECT_DOUBLE_EQ(models::evaluate(machine.communication_time, env).value, 60.0);
  EXPECT_DOUBLE_EQ(models::evaluate(machine.barrier_time, env).value, 300.0);
  ASSERT_TRUE(machine.contention);
}

TEST(Check, ArbitraryCycleIsNamed) {
  const auto r = parse_and_check(program_with(
      "g",
      "WORK PHASE g IS: PARALLELIZATION SCHEME IS ARBITRARY;\n"
      "TASK a RUNTIME IS EXPONENTIAL(1); TASK b RUNTIME IS EXPONENTIAL(1); TASK c RUNTIME IS EXPONENTIAL(1);\n"
      "ARC a -> b; ARC b -> c -> b; END;"));
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.text().find("has a cycle: b -> c -> b"), std::string::npos) << r.text();
}

TEST(Check, ArbitraryGraphModel) {
  const auto r = parse_and_check(test::read("examples/schemes/arbitrary.pdl"));
  ASSERT_TRUE(r.ok()) << r.text();
  const models::WorkPhase* g = models::find_work_phase(*r.checked.program, "graph");
  ASSERT_EQ(g->tasks.size(), 4u);
  ASSERT_EQ(g->arcs.size(), 4u);
  EXPECT_EQ(g->arcs[1].from, "left");
  EXPECT_EQ(g->arcs[1].to, "merge");
  EXPECT_EQ(models::to_string(g->arcs[1].volume), "64*SIZEOF(DOUBLE)");
  EXPECT_TRUE(g->tasks[0].processor);
  EXPECT_FALSE(g->tasks[1].processor);
  EXPECT_EQ(r.checked.program->pattern.children.at(2).kind, models::PatternNode::Kind::Alternatives);
}

TEST(Check, EachSchemeNeedsItsFields) {
  const auto needs = [](const std::string& scheme) {
    const auto r =
        parse_and_check(program_with("a", "WORK PHASE a IS: PARALLELIZATION SCHEME IS " + scheme + "; END;"));
    std::string out;
    for (const auto& d : r.checked.diagnostics) out += d.message.substr(d.message.find("needs ") + 6) + ",";
    return out;
  };
  EXPECT_EQ(needs("INDEPENDENT"), "SUBTASK RUNTIME,PROBLEM SIZE,");
  EXPECT_EQ(needs("NEIGHBOR-TORUS"), "SUBTASK RUNTIME,PROBLEM SIZE,");
  EXPECT_EQ(needs("MACROPIPELINE"), "SUBTASK RUNTIME,JOBS,STAGES,INTERARRIVAL TIME,");
  EXPECT_EQ(needs("FORK-JOIN"), "SUBTASK RUNTIME,JOBS,TASKS PER JOB,INTERARRIVAL TIME,");
  EXPECT_EQ(needs("PAIRED"), "DEPENDENCY,INDEPENDENT SUBTASK,DEPENDENT SUBTASK,PROBLEM SIZE,");
  EXPECT_EQ(needs("ARBITRARY"), "at least one TASK,");
}

TEST(Check, UnitsFollowTheScheme) {
  const auto units = [](const std::string& scheme) {
    const auto r = parse_and_check(
        program_with("a", "WORK PHASE a IS: PARALLELIZATION SCHEME IS " + scheme +
                              "; SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS GRID g(6, 4); END;"));
    return models::to_string(*models::find_work_phase(*r.checked.program, "a")->units);
  };
  EXPECT_EQ(units("INDEPENDENT"), "6*4");  // every grid point is a task
  EXPECT_EQ(units("NEIGHBOR"), "4");       // columns
}

TEST(Check, DistributionParametersAreChecked) {
  const auto first = [](const std::string& runtime) {
    return parse_and_check(
               program_with("a", independent("a").replace(independent("a").find("EXPONENTIAL(1)"), 14, runtime)))
        .first();
  };
  EXPECT_EQ(first("EXPONENTIAL(2)"), "");
  EXPECT_NE(first("ERLANG(0, 1)").find("phase count k must be an integer >= 1"), std::string::npos);
  EXPECT_NE(first("ERLANG(2)").find("ERLANG takes 2 parameters"), std::string::npos);
  EXPECT_NE(first("GERLANG(1, -2)").find("mean of stage 2"), std::string::npos);
  EXPECT_NE(first("DETERMINISTIC(-1)").find("value must be >= 0"), std::string::npos);
  EXPECT_NE(first("NUMERICAL(3)").find("one quoted file name"), std::string::npos);
  EXPECT_NE(first("SAMPLES(1, -2)").find("sample 2"), std::string::npos);
  EXPECT_NE(first("HISTOGRAM(1, 0)").find("weights sum to 0"), std::string::npos);
  EXPECT_NE(first("PHASETYPE([0.5, 0.7], [[-1, 0], [0, -1]])").find("alpha sums"), std::string::npos);
  EXPECT_NE(first("PHASETYPE([1], [[-1, 0]])").find("every row"), std::string::npos);
  EXPECT_NE(first("MIXTURE(1, 2)").find("must be a distribution"), std::string::npos);
  EXPECT_EQ(first("NORMAL(-5, 1)"), "");   // truncated at 0: a negative mu is allowed
  EXPECT_EQ(first("EXPONENTIAL(P)"), "");  // symbolic: checked when bound
  EXPECT_EQ(first("uniform(0, 0)"), "");
}

}  // namespace
}  // namespace pdl
