// Structural fingerprints: equal for models built separately the same way, different when any
// field a solver reads differs (a parameter, a processor, an arc, a count), blind to labels.
#include <gtest/gtest.h>

#include "distributions/distribution.hpp"
#include "distributions/fingerprint.hpp"
#include "graph/fingerprint.hpp"
#include "graph/task_graph.hpp"

namespace {

using distributions::Fingerprint;

Fingerprint of(const distributions::Distribution& d) {
  Fingerprint f;
  f.add(d);
  return f;
}

TEST(Fingerprint, EqualLawsAgreeAndEveryParameterCounts) {
  EXPECT_EQ(of(distributions::erlang(4, 2.0)), of(distributions::erlang(4, 2.0)));
  EXPECT_NE(of(distributions::erlang(4, 2.0)), of(distributions::erlang(5, 2.0)));
  EXPECT_NE(of(distributions::erlang(4, 2.0)), of(distributions::erlang(4, 2.0000000000000004)));
  // The same mean in another family is another law.
  EXPECT_NE(of(distributions::deterministic(1.0)), of(distributions::exponential(1.0)));
  EXPECT_EQ(of(distributions::deterministic(0.0)), of(distributions::deterministic(-0.0)));
  EXPECT_NE(of(distributions::hyperexponential({0.9, 0.1}, {1.0, 0.1})),
            of(distributions::hyperexponential({0.1, 0.9}, {1.0, 0.1})));
  EXPECT_NE(of(distributions::mixture({0.5, 0.5}, {distributions::deterministic(1), distributions::deterministic(2)})),
            of(distributions::mixture({0.5, 0.5}, {distributions::deterministic(1), distributions::deterministic(3)})));
}

graph::TaskGraph chain(int second_processor, const std::string& label) {
  graph::TaskGraph g;
  graph::TaskNode a;
  a.label = label;
  a.runtime = distributions::exponential(1.0);
  a.processor = 0;
  graph::TaskNode b = a;
  b.processor = second_processor;
  g.add_arc(g.add_node(a), g.add_node(b));
  return g;
}

Fingerprint of(const graph::TaskGraph& g) {
  Fingerprint f;
  graph::add_to(f, g);
  return f;
}

TEST(Fingerprint, GraphsCompareByWhatTheSolversRead) {
  EXPECT_EQ(of(chain(1, "x")), of(chain(1, "another label")));
  EXPECT_NE(of(chain(1, "x")), of(chain(0, "x")));
  graph::TaskGraph two = chain(1, "x");
  graph::TaskGraph unlinked;
  unlinked.add_node(two.node(0));
  unlinked.add_node(two.node(1));
  EXPECT_NE(of(two), of(unlinked));
}

TEST(Fingerprint, TreesCompareByStructureCountsAndLeaves) {
  const auto tree = [](std::int64_t copies, double rate) {
    graph::SpTree t;
    graph::TaskNode task;
    task.runtime = distributions::exponential(rate);
    const std::size_t leaf = t.leaf(task);
    t.set_root(t.parallel_power(leaf, copies));
    Fingerprint f;
    graph::add_to(f, t);
    return f;
  };
  EXPECT_EQ(tree(4, 1.0), tree(4, 1.0));
  EXPECT_NE(tree(4, 1.0), tree(5, 1.0));
  EXPECT_NE(tree(4, 1.0), tree(4, 2.0));
}

}  // namespace
