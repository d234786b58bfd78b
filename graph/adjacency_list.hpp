// The Boost Graph Library's adjacency list behind graph::TaskGraph, for the few files that run
// Boost's algorithms on it (TaskGraph::boost_graph()); every other file needs task_graph.hpp only.
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include "graph/task_graph.hpp"

namespace graph {

using BoostAdjacencyList = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, TaskNode>;

// A class, not an alias, so that task_graph.hpp can declare it without Boost; it is the
// adjacency list itself, for every Boost function.
struct AdjacencyList : BoostAdjacencyList {
  using BoostAdjacencyList::BoostAdjacencyList;
};

}  // namespace graph

// Boost's algorithms read a graph's types through graph_traits, which the derived class inherits.
namespace boost {
template <>
struct graph_traits<::graph::AdjacencyList> : graph_traits<::graph::BoostAdjacencyList> {};
}  // namespace boost
