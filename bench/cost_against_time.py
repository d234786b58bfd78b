#!/usr/bin/env python3
"""The cost estimate against the measured wall time (issue 30; docs/performance.md, "Estimate
against measured"): each program of the set with each method alone, through the command's JSON
"cost" ({estimated_seconds, seconds}), printed as a Markdown table with the ratio.

    bench/cost_against_time.py build/release/app/pdl-scale [--threads N] [--methods approx,mc]

Run from the source directory on an otherwise idle machine (about half an hour: the farm's Monte
Carlo at the default precision alone takes about 9 minutes). The estimate is for one free core of
the reference machine, so --threads 1 (the default here) compares like with like."""
import json
import re
import subprocess
import sys

RUNS = [  # (label, arguments)
    ("paper neighbour, p = 1..16", ["examples/paper/neighbor.pdl", "--pmax", "16"]),
    ("schemes/independent, p = 1..16", ["examples/schemes/independent.pdl", "--pmax", "16"]),
    ("schemes/fork_join, p = 1..16", ["examples/schemes/fork_join.pdl", "--pmax", "16"]),
    ("schemes/macropipeline, p = 1..16", ["examples/schemes/macropipeline.pdl", "--pmax", "16"]),
    ("schemes/paired, p = 1..16", ["examples/schemes/paired.pdl", "--pmax", "16"]),
    ("schemes/arbitrary, p = 1..16", ["examples/schemes/arbitrary.pdl", "--pmax", "16"]),
    ("studies/stencil_1d on ibm-sp2, p = 1..64",
     ["examples/studies/stencil_1d.pdl", "--machine", "examples/machines/ibm-sp2.machine", "--pmax", "64"]),
    ("studies/stencil_2d, N = 4096, infiniband, p = 1..256",
     ["examples/studies/stencil_2d.pdl", "--machine", "examples/machines/infiniband-edr.machine", "--set", "n=4096",
      "--pmax", "256"]),
    ("studies/stencil_2d, N = 4096, infiniband, p = 1..65536 (approx alone)",
     ["examples/studies/stencil_2d.pdl", "--machine", "examples/machines/infiniband-edr.machine", "--set", "n=4096",
      "--pmax", "65536"]),
    ("neighbour, columns = 10^5, iterations = 100, p = 1..256",
     ["examples/paper/neighbor.pdl", "--set", "columns=100000", "--set", "iterations=100", "--pmax", "256"]),
    ("heavy-tailed farm, p = 1..16", ["tests/app/data/heavy_tailed_farm.pdl", "--pmax", "16"]),
    ("heavy-tailed farm, p = 1..16, precision 1% (mc alone)",
     ["tests/app/data/heavy_tailed_farm.pdl", "--pmax", "16", "--precision", "0.01"]),
    ("all-to-all on a bus, p = 1..64",
     ["tests/app/data/alltoall.pdl", "--machine", "examples/machines/ethernet-bus.machine", "--pmax", "64"]),
]
METHODS = ["approx", "bounds", "mc", "exact"]
TIMEOUT = 900


def measure(binary, arguments, method, threads="1"):
    """(estimated seconds, measured seconds) of one run from its JSON 'cost', or None with why."""
    command = [binary, *arguments, "--method", method, "--prediction-budget", "0", "--format", "json",
               "--allow-long", "--quiet", "--threads", threads]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"> {TIMEOUT}"
    if done.returncode != 0:
        return None, f"exit {done.returncode}"
    cost = json.loads(done.stdout)["cost"]
    return (cost["estimated_seconds"], cost["seconds"]), None


def main():
    binary = sys.argv[1]
    threads = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"
    methods = sys.argv[sys.argv.index("--methods") + 1].split(",") if "--methods" in sys.argv else METHODS
    print("| program | method | estimated [s] | measured [s] | estimated / measured |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, arguments in RUNS:
        for method in methods:
            alone = re.search(r"\((\w+) alone\)", label)
            if alone and method != alone.group(1):
                continue  # a run of one method: an option of it, or too large for the others
            figures, why = measure(binary, arguments, method, threads)
            if figures is None:
                print(f"| {label} | {method} | | {why} | |")
                continue
            estimated, seconds = figures
            print(f"| {label} | {method} | {estimated:.3g} | {seconds:.3g} | {estimated / max(seconds, 1e-9):.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
