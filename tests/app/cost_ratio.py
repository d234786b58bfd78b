#!/usr/bin/env python3
"""The cost estimate against the measured wall time (issue 30): for a committed set of runs of
one to a few seconds, each method alone on one thread, the estimate made before the study
(JSON 'cost.estimated_seconds') is within 2x, either way, of the study's wall time
('cost.seconds'). A ratio is asserted, not a time; the runs are those of
bench/cost_against_time.py (docs/performance.md, "Estimate against measured") whose measured
time is at least about a second, where a plan needs the estimate (below a tenth of a second
first-use costs weigh as much as the run), with every method among them, the heavy-tailed farm,
the all-to-all on a bus and the 2-D sweep of 65,536 processor counts (issue 30). The test runs alone (ctest
RUN_SERIAL), as the estimate is for a free core.

Both figures are timings on a shared virtual machine: the estimate's pilots last milliseconds and
a burst of another guest's load can halve them or double the run (a fresh-clone CI run once
measured the heavy-tailed farm at 2.25 s estimated against 6.83 s run, where five other runs gave
4-5 s against 5-5.5 s). A run outside 2x is therefore measured once more, and fails only if it
is outside 2x both times: an estimate that is wrong fails twice.

    cost_ratio.py BINARY
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from cost_against_time import measure  # noqa: E402

RUNS = [  # (program and options, method)
    (["examples/schemes/independent.pdl", "--pmax", "16"], "mc"),
    (["examples/schemes/macropipeline.pdl", "--pmax", "16"], "mc"),
    (["examples/schemes/macropipeline.pdl", "--pmax", "16"], "exact"),
    (["examples/schemes/paired.pdl", "--pmax", "16"], "mc"),
    (["examples/schemes/paired.pdl", "--pmax", "16"], "bounds"),
    (["examples/schemes/fork_join.pdl", "--pmax", "16"], "bounds"),
    (["examples/schemes/fork_join.pdl", "--pmax", "16"], "mc"),
    (["examples/paper/neighbor.pdl", "--pmax", "16"], "exact"),
    (["examples/paper/neighbor.pdl", "--set", "columns=100000", "--set", "iterations=100", "--pmax", "256"], "approx"),
    (["tests/app/data/heavy_tailed_farm.pdl", "--pmax", "16", "--precision", "0.01"], "mc"),
    (["tests/app/data/alltoall.pdl", "--machine", "examples/machines/ethernet-bus.machine", "--pmax", "64"], "exact"),
    (["tests/app/data/alltoall.pdl", "--machine", "examples/machines/ethernet-bus.machine", "--pmax", "64"], "mc"),
    (["examples/studies/stencil_2d.pdl", "--machine", "examples/machines/infiniband-edr.machine", "--set", "n=4096",
      "--pmax", "65536"], "approx"),
]


def main():
    binary = os.path.abspath(sys.argv[1])
    os.chdir(ROOT)
    failures = []
    for arguments, method in RUNS:
        for attempt in ("", " (measured again)"):
            figures, why = measure(binary, arguments, method)
            assert figures is not None, f"{arguments} --method {method}: {why}"
            estimated, seconds = figures
            ratio = estimated / seconds
            line = f"{' '.join(arguments)} --method {method}: estimated {estimated:.3g} s, " \
                   f"measured {seconds:.3g} s, ratio {ratio:.2f}{attempt}"
            print(line)
            if 0.5 <= ratio <= 2.0:
                break
        else:
            failures.append(line)
    assert not failures, "outside 2x:\n" + "\n".join(failures)
    print("ok")


if __name__ == "__main__":
    main()
