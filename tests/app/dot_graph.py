#!/usr/bin/env python3
"""--graph as Graphviz reads it: every digraph pdl-scale draws is a DAG with one source and one
sink, every edge joins declared nodes, and runtimes are labelled in PDL with their means.

    dot_graph.py PDL_SCALE [EXAMPLES_DIR]

Runs `PDL_SCALE PROGRAM --graph P --model M` for every example program, P in 1, 2, 3 and both
models, plus the cases of issue 13 (an orphan node in neighbor.pdl --graph 2, three roots in
independent.pdl --graph 2 --set n=4). An exact model too large to draw (exit 2 saying so) is
skipped. The means in the labels are checked against PDL's definitions (docs/pdl.md):
ERLANG(k, s) has mean k*s, EXPONENTIAL(m) mean m, GERLANG(m1, ...) the sum of its means,
HYPEREXPONENTIAL(p1, m1, ...) the sum of p_i*m_i, UNIFORM(a, b) mean (a+b)/2. Prints "ok".
"""
import pathlib
import re
import subprocess
import sys

QUOTED = r'"(?:[^"\\]|\\.)*"'
NODE = re.compile(r'^\s*(\w+) \[shape=\w+, label=(' + QUOTED + r')\];$')
EDGE = re.compile(r'^\s*(\w+) -> (\w+)(?: \[label=' + QUOTED + r'\])?;$')
IGNORED = re.compile(r'^\s*(label=' + QUOTED + r';|rankdir=TB;|subgraph \w+ \{|\})$')


def digraphs(text):
    """The digraphs of a DOT text, each as (title, lines of its body)."""
    graphs, current, title = [], None, None
    for line in text.splitlines():
        start = re.match(r'^digraph (' + QUOTED + r') \{$', line)
        if start:
            assert current is None, "a digraph inside a digraph"
            current, title = [], start.group(1)
        elif line == "}" and current is not None:
            graphs.append((title, current))
            current = None
        else:
            assert current is not None, f"a line outside any digraph: {line!r}"
            current.append(line)
    assert current is None, "an unterminated digraph"
    return graphs


def unescape(quoted):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), quoted[1:-1])


def numbers(text):
    return [float(x) for x in re.split(r',\s*', text)]


def expected_mean(pdl):
    """The mean of a PDL runtime from docs/pdl.md's table, or None when the text is not one."""
    match = re.fullmatch(r'(\w+)\((.*)\)', pdl)
    if not match or "…" in pdl:
        return None
    kind, args = match.group(1), match.group(2)
    if kind in ("MIXTURE",):
        return None
    values = numbers(args)
    if kind == "ERLANG":
        return values[0] * values[1]
    if kind == "EXPONENTIAL":
        return values[0]
    if kind == "GERLANG":
        return sum(values)
    if kind == "HYPEREXPONENTIAL":
        return sum(p * m for p, m in zip(values[0::2], values[1::2]))
    if kind == "UNIFORM":
        return (values[0] + values[1]) / 2
    return None


def check_label(label, where):
    assert "rate=" not in label, f"{where}: a rate in the label {label!r}"
    for line in label.split("\n"):
        match = re.fullmatch(r'(.*): mean (\S+)', line)
        if not match:
            assert not re.match(r'^(ERLANG|EXPONENTIAL|GERLANG|HYPEREXPONENTIAL|UNIFORM|NORMAL)\(', line), \
                f"{where}: a runtime without its mean: {line!r}"
            continue
        want = expected_mean(match.group(1))
        if want is not None:
            got = float(match.group(2))
            # Labels have 6 significant digits, and so have the parameters the mean is computed from.
            assert abs(got - want) <= 2e-5 * max(abs(want), 1e-300), f"{where}: {line!r}: the mean is {want}"
            check_label.means += 1


check_label.means = 0


def check_graph(title, body, where):
    nodes, edges = {}, []
    for line in body:
        if NODE.match(line):
            name, label = NODE.match(line).groups()
            assert name not in nodes, f"{where}: node {name} declared twice"
            nodes[name] = unescape(label)
        elif EDGE.match(line):
            edges.append(EDGE.match(line).groups())
        else:
            assert IGNORED.match(line), f"{where}: an unexpected line {line!r}"
    assert nodes, f"{where}: no node"
    indegree = {n: 0 for n in nodes}
    successors = {n: [] for n in nodes}
    for a, b in edges:
        assert a in nodes and b in nodes, f"{where}: edge {a} -> {b} to an undeclared node"
        indegree[b] += 1
        successors[a].append(b)
    sources = [n for n in nodes if indegree[n] == 0]
    sinks = [n for n in nodes if not successors[n]]
    assert len(sources) == 1, f"{where}: {len(sources)} sources: {sources[:5]}"
    assert len(sinks) == 1, f"{where}: {len(sinks)} sinks: {sinks[:5]}"
    # Kahn's algorithm: every node is ordered exactly when there is no cycle.
    ready, ordered, remaining = list(sources), 0, dict(indegree)
    while ready:
        n = ready.pop()
        ordered += 1
        for m in successors[n]:
            remaining[m] -= 1
            if remaining[m] == 0:
                ready.append(m)
    assert ordered == len(nodes), f"{where}: a cycle"
    for name, label in nodes.items():
        check_label(label, f"{where}, node {name}")
    return len(nodes)


def machine_of(program, root):
    """The machine an example names in a line `// machine: FILE` (it reads that machine's
    constants), as --machine; none otherwise."""
    for line in program.read_text().splitlines():
        if line.startswith("// machine: "):
            return ["--machine", str(root / line[len("// machine: "):].strip())]
    return []


def main():
    tool = sys.argv[1]
    root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    cases = [[str(program), "--graph", str(p), "--model", model] + machine_of(program, root)
             for program in sorted(root.glob("examples/**/*.pdl"))
             for p in (1, 2, 3) for model in ("approx", "exact")]
    cases.append([str(root / "examples/paper/neighbor.pdl"), "--graph", "2"])
    cases.append([str(root / "examples/schemes/independent.pdl"), "--graph", "2", "--set", "n=4"])
    cases.append([str(root / "examples/schemes/independent.pdl"), "--graph", "2", "--set", "n=4", "--model", "exact"])
    drawn = skipped = 0
    for args in cases:
        where = " ".join(args)
        run = subprocess.run([tool] + args, capture_output=True, text=True, cwd=root)
        if run.returncode == 2 and "the most --graph draws" in run.stderr:
            skipped += 1
            continue
        assert run.returncode == 0, f"{where}: exit {run.returncode}: {run.stderr}"
        graphs = digraphs(run.stdout)
        assert graphs, f"{where}: no digraph"
        for title, body in graphs:
            check_graph(title, body, where)
        drawn += len(graphs)
    assert skipped * 4 < len(cases), f"{skipped} of {len(cases)} drawings too large"
    assert check_label.means > 0, "no mean checked"
    print(f"{drawn} digraphs, {skipped} too large, {check_label.means} means checked")
    print("ok")


if __name__ == "__main__":
    main()
