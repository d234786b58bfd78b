// Graphviz DOT export of task graphs and series-parallel trees. Every drawing is a DAG with
// one source and one sink (docs/cli.md, "--graph P"), and runtimes are written as PDL writes
// them, by their means: "ERLANG(8, 1): mean 8", not by rates.
#pragma once

#include <stdexcept>
#include <string>

#include "distributions/distribution.hpp"
#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"

namespace graph {

// A runtime as PDL text with its mean: "ERLANG(8, 1): mean 8", "EXPONENTIAL(4)",
// "DETERMINISTIC(2)" (a constant is its own mean), "GERLANG(1, 2, 3): mean 6",
// "HYPEREXPONENTIAL(0.9, 1, 0.1, 10): mean 1.9", "measured (4096-point grid): mean 8.02".
// Long parameter lists are cut after six values ("GERLANG(1, 1, 1, 1, 1, 1, … 100 stages)").
std::string pdl_runtime(const distributions::Distribution& runtime);

// One DOT node per task (label, kind by shape, runtime in PDL), tasks of one processor in a
// cluster "processor N", one edge per arc. When the graph has several sources (several
// sinks), a node "start" ("end") is added before (after) them, so that the drawing has one of
// each.
std::string to_dot(const TaskGraph& graph, const std::string& title);

// The series-parallel graph the tree stands for, drawn from its root (nodes not reachable from
// it are not drawn): a leaf is its task; series parts follow one another; parallel parts
// start at a "fork" node and meet at a "join" node (the latest of them); probabilistic
// alternatives start at a "branch" node, with an edge per alternative labelled with its
// probability, and meet at an "end of branch" node; a power is drawn once, in a box labelled
// "× n in series" or "× p in parallel". A subtree used twice is drawn twice; throws
// DrawingTooLarge past a million nodes.
// A drawing past kMaxDrawnNodes: more than anyone can read.
class DrawingTooLarge : public std::length_error {
 public:
  using std::length_error::length_error;
};

std::string to_dot(const SpTree& tree, const std::string& title);

}  // namespace graph
