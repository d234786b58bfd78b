#!/usr/bin/env python3
"""A random ARBITRARY task graph as a PDL program, for the memory and time measurements of
docs/performance.md ("Memory") and the memory tests.

    bench/random_dag.py TASKS [--seed S] [--width W] [--out FILE]

The graph has TASKS tasks in declaration order; task i has 1 to 3 predecessors drawn among the
W tasks before it (W = 64 by default), so it is deep (about TASKS / W * 2 levels) and tangled
(not series-parallel). Runtimes are Erlang-4, exponential and Erlang-8 laws, every one of phase
type. The execution pattern repeats the phase `reps` times (VARIABLE reps = 1), one repetition
after the other on every processor (a SERIAL concatenation, no barrier; with reps = 1 the
checker warns that it is unused), so `--set reps=100` turns a 10,000-task graph into a
10^6-task model without a 10^6-line file (program files are limited to 8 MiB). The same
arguments always give the same file.
"""
import argparse
import random
import sys


def program(tasks: int, seed: int, width: int) -> str:
    rng = random.Random(seed)
    laws = ["ERLANG(4, 0.5*RTFactor)", "EXPONENTIAL(2*RTFactor)", "ERLANG(8, 0.25*RTFactor)"]
    lines = [
        f"// A random DAG of {tasks} tasks (bench/random_dag.py {tasks} --seed {seed} --width {width}).",
        f"PROGRAM NAME IS 'random-dag-{tasks}';",
        "EXECUTION PATTERN IS graph{reps};",
        "VARIABLE reps = 1;",
        "",
        "WORK PHASE graph IS:",
        "  PARALLELIZATION SCHEME IS ARBITRARY;",
    ]
    for i in range(tasks):
        lines.append(f"  TASK t{i} RUNTIME IS {laws[rng.randrange(len(laws))]};")
    for i in range(1, tasks):
        first = max(0, i - width)
        count = min(i - first, 1 + rng.randrange(3))
        for j in sorted(rng.sample(range(first, i), count)):
            lines.append(f"  ARC t{j} -> t{i};")
    lines += ["END;", "", "// Repetitions follow each other on every processor, without a barrier.",
              "CONCATENATION IS:", "  graph, graph : SERIAL;", "END;", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    if args.tasks < 1 or args.width < 1:
        parser.error("TASKS and --width must be >= 1")
    text = program(args.tasks, args.seed, args.width)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
