#!/usr/bin/env python3
"""The benchmark set of docs/performance.md against the figures committed in bench/baseline.json
(issue 32: a regression is seen the day it lands). Each benchmark runs on its own (Google
Benchmark, --benchmark_repetitions=3, the fastest kept); each line gives the committed figure,
today's, and the change in its wall time. A benchmark more than --tolerance slower than committed
is marked REGRESSION and the script exits 1; one missing from the baseline is marked new.

    bench/compare.py BUILD_DIR [--update] [--tolerance 0.15] [--filter REGEX]

--update writes today's figures as the new baseline (with the machine and the date): do it on an
otherwise idle machine of the reference kind (docs/performance.md), after a change that is meant
to move a figure, and say so in the commit. Run from anywhere; takes about a minute."""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "bench", "baseline.json")

# (binary under BUILD_DIR/bench, Google Benchmark filter): the figures docs/performance.md gives.
SET = [
    ("solvers/monte_carlo_bench", "BM_MonteCarloExactNeighbor(Kernel)?/"),
    ("solvers/state_space_bench", "BM_StateSpaceNeighbor/iterations:2/p:(4|5)/threads:1"),
    ("scaling/approximate_sweep_bench", "BM_Stencil2dSweep/pmax:(4096|65536)/threads:1/nodes:(0|1)"),
    ("scaling/approximate_sweep_bench", "BM_NeighborSweep/pmax:1024/columns:100000/iterations:1000/threads:1"),
    ("analysis/calibration_bench", "BM_Calibrate/"),
    ("analysis/calibration_bench", "BM_CalibrateRows/rows:100000"),
    ("distributions/distributions_bench", "BM_SeriesPower/(4096|65536)/1000"),
]


def run(build, binary, pattern):
    """{benchmark name: (median real time in seconds, counters)} of one binary's filter."""
    path = os.path.join(build, "bench", binary)
    command = [path, f"--benchmark_filter={pattern}", "--benchmark_repetitions=3", "--benchmark_format=json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    figures = {}
    for entry in json.loads(done.stdout)["benchmarks"]:
        if entry.get("run_type") != "iteration":
            continue
        # The fastest repetition: what the code costs, the least disturbed by anything else.
        name = f"{os.path.basename(binary)}/{entry['run_name']}"
        seconds = entry["real_time"] * scale[entry["time_unit"]]
        if name in figures and figures[name]["seconds"] <= seconds:
            continue
        counters = {k: v for k, v in entry.items() if k.endswith("_per_s") or k.endswith("per_second")}
        figures[name] = {"seconds": seconds, "counters": counters}
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--tolerance", type=float, default=0.15)
    parser.add_argument("--filter", default="")
    arguments = parser.parse_args()
    now = {}
    for binary, pattern in SET:
        if arguments.filter and not re.search(arguments.filter, binary + "/" + pattern):
            continue
        now.update(run(os.path.abspath(arguments.build), binary, pattern))
    if arguments.update:
        baseline = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                    "date": datetime.date.today().isoformat(), "figures": now}
        with open(BASELINE, "w") as out:
            json.dump(baseline, out, indent=1, sort_keys=True)
            out.write("\n")
        print(f"wrote {BASELINE}: {len(now)} figures")
        return 0
    with open(BASELINE) as committed:
        baseline = json.load(committed)
    print(f"committed: {baseline['date']} on {baseline['machine']}")
    regressions = 0
    for name, figure in sorted(now.items()):
        then = baseline["figures"].get(name)
        if then is None:
            print(f"{name}: {figure['seconds']:.4g} s (new)")
            continue
        change = figure["seconds"] / then["seconds"] - 1.0
        mark = ""
        if change > arguments.tolerance:
            mark = "  REGRESSION"
            regressions += 1
        rates = "".join(f", {k} {then['counters'].get(k, float('nan')):.4g} -> {v:.4g}"
                        for k, v in figure["counters"].items())
        print(f"{name}: {then['seconds']:.4g} s -> {figure['seconds']:.4g} s ({change:+.1%}{rates}){mark}")
    print(f"{regressions} regression(s) beyond {arguments.tolerance:.0%}")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
