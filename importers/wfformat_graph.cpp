// The instance's task graph: the dependencies its parents and children lists give, checked and
// merged; a topological order; auxiliary tasks left out when asked; each arc's volume from the
// files its parent writes and its child reads.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "importers/wfformat_detail.hpp"

namespace importers::wf {
namespace {

using Index = std::unordered_map<std::string_view, std::size_t>;

// A dependency as one list states it: `parent` before `child`, from the child's parents
// (kFromParents) or the parent's children (kFromChildren), and where that list names it.
constexpr unsigned kFromParents = 1, kFromChildren = 2;
struct Stated {
  std::size_t child = 0;
  std::size_t parent = 0;
  unsigned side = 0;
  std::size_t offset = 0;
};

std::vector<Stated> stated_dependencies(const Workflow& workflow, const Index& index, Findings& findings) {
  std::vector<Stated> stated;
  for (std::size_t t = 0; t < workflow.tasks.size(); ++t) {
    const Task& task = workflow.tasks[t];
    for (const auto& [list, side] :
         {std::pair{&task.parents, kFromParents}, std::pair{&task.children, kFromChildren}}) {
      for (const Reference& named : *list) {
        const auto other = index.find(named.id);
        if (other == index.end()) {
          findings.error(named.offset,
                         fmt::format("task {} lists {} among its {}, but no task has that id", cited(task.id),
                                     cited(named.id), side == kFromParents ? "parents" : "children"));
          continue;
        }
        stated.push_back(side == kFromParents ? Stated{t, other->second, side, named.offset}
                                              : Stated{other->second, t, side, named.offset});
      }
    }
  }
  return stated;
}

// The dependencies, each once, per child. *(decision)* A dependency only one of the two lists
// states is kept, with a warning: the lists are two views of one graph, so a one-sided entry is
// an omission in the other list, and keeping it can only order tasks the run may have ordered.
std::vector<std::vector<std::size_t>> merge_dependencies(const Workflow& workflow, std::vector<Stated> stated,
                                                         Findings& findings) {
  std::sort(stated.begin(), stated.end(), [](const Stated& a, const Stated& b) {
    return std::tie(a.child, a.parent, a.side, a.offset) < std::tie(b.child, b.parent, b.side, b.offset);
  });
  std::vector<std::vector<std::size_t>> parents(workflow.tasks.size());
  for (std::size_t i = 0; i < stated.size();) {
    std::size_t j = i;
    unsigned sides = 0;
    for (; j < stated.size() && stated[j].child == stated[i].child && stated[j].parent == stated[i].parent; ++j) {
      sides |= stated[j].side;
    }
    const Task& child = workflow.tasks[stated[i].child];
    const Task& parent = workflow.tasks[stated[i].parent];
    if (sides == kFromParents) {
      findings.warning(stated[i].offset, fmt::format("task {} lists {} among its parents, but {} does not list it "
                                                     "among its children: the dependency is kept",
                                                     cited(child.id), cited(parent.id), cited(parent.id)));
    } else if (sides == kFromChildren) {
      findings.warning(stated[i].offset, fmt::format("task {} lists {} among its children, but {} does not list it "
                                                     "among its parents: the dependency is kept",
                                                     cited(parent.id), cited(child.id), cited(child.id)));
    }
    parents[stated[i].child].push_back(stated[i].parent);
    i = j;
  }
  return parents;
}

// A cycle among the tasks Kahn's algorithm could not order (each has a parent among them), as
// "a -> b -> ... -> a" in the dependencies' direction, reported at its first task.
void report_cycle(const Workflow& workflow, const std::vector<std::vector<std::size_t>>& parents,
                  const std::vector<std::size_t>& waiting, Findings& findings) {
  std::size_t at = 0;
  while (waiting[at] == 0) ++at;
  std::vector<std::size_t> seen_at(workflow.tasks.size(), workflow.tasks.size());
  std::vector<std::size_t> walk;  // child to parent
  while (seen_at[at] == workflow.tasks.size()) {
    seen_at[at] = walk.size();
    walk.push_back(at);
    at = *std::find_if(parents[at].begin(), parents[at].end(), [&](std::size_t p) { return waiting[p] > 0; });
  }
  std::vector<std::size_t> cycle(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[at]), walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::string path;
  for (std::size_t t : cycle) path += cited(workflow.tasks[t].id) + " -> ";
  path += cited(workflow.tasks[cycle.front()].id);
  findings.error(workflow.tasks[cycle.front()].offset,
                 fmt::format("the dependencies have a cycle, so no task of it can start: {}", path));
}

// Kahn's algorithm; among the tasks ready at once, the first in the instance comes first.
std::optional<std::vector<std::size_t>> topological_order(const Workflow& workflow,
                                                          const std::vector<std::vector<std::size_t>>& parents,
                                                          Findings& findings) {
  const std::size_t n = workflow.tasks.size();
  std::vector<std::vector<std::size_t>> children(n);
  std::vector<std::size_t> waiting(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    waiting[v] = parents[v].size();
    for (std::size_t u : parents[v]) children[u].push_back(v);
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (waiting[v] == 0) ready.push(v);
  std::vector<std::size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const std::size_t u = ready.top();
    ready.pop();
    order.push_back(u);
    for (std::size_t v : children[u])
      if (--waiting[v] == 0) ready.push(v);
  }
  if (order.size() == n) return order;
  report_cycle(workflow, parents, waiting, findings);
  return std::nullopt;
}

// Per task, the tasks of the program it waits for: its parents, and through each left-out
// auxiliary parent that one's own (recursively), so that leaving a task out keeps its order.
std::vector<std::vector<std::size_t>> kept_parents(const std::vector<bool>& kept,
                                                   const std::vector<std::vector<std::size_t>>& parents,
                                                   const std::vector<std::size_t>& order) {
  std::vector<std::vector<std::size_t>> waits(parents.size());
  for (std::size_t v : order) {  // parents first
    for (std::size_t u : parents[v]) {
      if (kept[u])
        waits[v].push_back(u);
      else
        waits[v].insert(waits[v].end(), waits[u].begin(), waits[u].end());
    }
    std::sort(waits[v].begin(), waits[v].end());
    waits[v].erase(std::unique(waits[v].begin(), waits[v].end()), waits[v].end());
  }
  return waits;
}

// Per task, the indices of the files of one of its lists that the specification sizes, sorted.
std::vector<std::vector<std::size_t>> file_sets(const Workflow& workflow, const Index& files,
                                                std::vector<Reference> Task::*list, Findings& findings) {
  std::vector<std::vector<std::size_t>> sets(workflow.tasks.size());
  std::size_t unknown = 0;
  for (std::size_t t = 0; t < workflow.tasks.size(); ++t) {
    for (const Reference& file : workflow.tasks[t].*list) {
      const auto found = files.find(file.id);
      if (found != files.end()) {
        sets[t].push_back(found->second);
      } else if (workflow.has_files && unknown++ == 0) {
        findings.note(file.offset, fmt::format("the file {} is not in workflow.specification.files: its size (and "
                                               "that of any file missing there) counts as 0 bytes",
                                               cited(file.id)));
      }
    }
    std::sort(sets[t].begin(), sets[t].end());
    sets[t].erase(std::unique(sets[t].begin(), sets[t].end()), sets[t].end());
  }
  return sets;
}

Index file_index(const Workflow& workflow, Findings& findings) {
  Index index;
  for (std::size_t f = 0; f < workflow.files.size(); ++f) {
    const auto [at, fresh] = index.emplace(workflow.files[f].id, f);
    if (!fresh) {
      findings.error(
          workflow.files[f].offset,
          fmt::format("the file id {} appears twice in workflow.specification.files", cited(workflow.files[f].id)));
      findings.related(workflow.files[at->second].offset, "its first appearance");
    }
  }
  return index;
}

// The arcs into each task of the program, with the bytes of the files the parent writes and the
// child reads.
void add_arcs(const Workflow& workflow, const std::vector<std::vector<std::size_t>>& waits,
              const std::vector<std::size_t>& position, Graph& graph, Findings& findings) {
  const Index files = file_index(workflow, findings);
  if (!workflow.has_files) {
    findings.note(workflow.tasks.front().offset,
                  "workflow.specification has no 'files': every dependency is an ARC without VOLUME");
  }
  const auto inputs = file_sets(workflow, files, &Task::inputs, findings);
  const auto outputs = file_sets(workflow, files, &Task::outputs, findings);
  graph.into.resize(graph.order.size());
  for (std::size_t at = 0; at < graph.order.size(); ++at) {
    const std::size_t v = graph.order[at];
    for (std::size_t u : waits[v]) {
      std::vector<std::size_t> shared;
      std::set_intersection(outputs[u].begin(), outputs[u].end(), inputs[v].begin(), inputs[v].end(),
                            std::back_inserter(shared));
      double bytes = 0.0;
      for (std::size_t f : shared) bytes += workflow.files[f].bytes;
      graph.into[at].push_back({position[u], bytes});
    }
    std::sort(graph.into[at].begin(), graph.into[at].end(), [](const Arc& a, const Arc& b) { return a.from < b.from; });
    graph.dependencies += graph.into[at].size();
  }
}

}  // namespace

std::optional<Graph> build_graph(const Workflow& workflow, const WfFormatOptions& options, Findings& findings) {
  Index index;
  for (std::size_t t = 0; t < workflow.tasks.size(); ++t) index.emplace(workflow.tasks[t].id, t);
  std::vector<Stated> stated = stated_dependencies(workflow, index, findings);
  if (findings.errors() > 0) return std::nullopt;
  const std::vector<std::vector<std::size_t>> parents = merge_dependencies(workflow, std::move(stated), findings);
  const std::optional<std::vector<std::size_t>> order = topological_order(workflow, parents, findings);
  if (!order) return std::nullopt;
  std::vector<bool> kept(workflow.tasks.size(), true);
  Graph graph;
  for (std::size_t t = 0; t < workflow.tasks.size(); ++t) {
    if (!options.keep_auxiliary && workflow.tasks[t].auxiliary) {
      if (graph.dropped++ == 0) {
        findings.note(workflow.tasks[t].offset,
                      fmt::format("the auxiliary task {} (and every other one) is left out: the parents of each "
                                  "left-out task become the parents of its children",
                                  cited(workflow.tasks[t].id)));
      }
      kept[t] = false;
    }
  }
  std::vector<std::size_t> position(workflow.tasks.size(), 0);
  for (std::size_t t : *order) {
    if (!kept[t]) continue;
    position[t] = graph.order.size();
    graph.order.push_back(t);
  }
  if (graph.order.empty()) {
    findings.error(workflow.tasks.front().offset,
                   "every task of the instance is auxiliary and left out: the program "
                   "would have no task");
    return std::nullopt;
  }
  add_arcs(workflow, kept_parents(kept, parents, *order), position, graph, findings);
  if (findings.errors() > 0) return std::nullopt;
  return graph;
}

}  // namespace importers::wf
