#!/usr/bin/env python3
"""The toy method of solver_toy.cpp, added by its own files and one line of the factory's table,
shows everywhere a method shows (docs/architecture.md, "How to add a method"):

    toy_method.py PDL_SCALE_WITH_TOY FACTORY FACTORY_WITH_TOY

run from the repository's root. Prints "ok" when every check holds."""
import csv
import difflib
import io
import json
import subprocess
import sys

TOOL, FACTORY, WITH_TOY = sys.argv[1:4]
PROGRAM = "examples/paper/neighbor.pdl"


def run(*arguments, status=0):
    done = subprocess.run([TOOL, PROGRAM, *arguments, "--quiet"], capture_output=True, text=True)
    assert done.returncode == status, (arguments, done.returncode, done.stderr)
    return done


# The factory differs by the toy's include and its table line, nothing else.
with open(FACTORY) as f, open(WITH_TOY) as g:
    added = [line for line in difflib.ndiff(f.read().splitlines(), g.read().splitlines()) if line[:2] in ("+ ", "- ")]
assert [line[:2] for line in added] == ["+ ", "+ "], added
assert "toy_method/solver_toy.hpp" in added[0] and "methods::make_toy" in added[1], added

# --method all runs it, after the project's methods; JSON has its rows.
report = json.loads(run("--p", "1,2,4", "--method", "all", "--format", "json").stdout)
toy = {r["p"]: r for r in report["results"] if r["method"] == "toy"}
assert sorted(toy) == [1, 2, 4], toy
methods = [r["method"] for r in report["results"] if r["p"] == 2]
assert methods == ["approx", "bounds", "mc", "exact", "toy"], methods
# Its figures: on one processor the longest path of the means is the chain's sum, T(1), which
# the run computes on its own (the prediction at p = 1); above, a lower bound of the exact mean.
t1 = next(r for r in report["predictions"] if r["p"] == 1)
assert abs(toy[1]["estimate"] - t1["estimate"]) <= 1e-12 * t1["estimate"], (toy[1], t1)
for p in (2, 4):
    exact = next(r for r in report["results"] if r["p"] == p and r["method"] == "exact")
    assert toy[p]["estimate"] <= exact["estimate"] * (1 + 1e-12), (p, toy[p], exact)
    assert toy[p]["detail"] == "toy: the longest path of the mean runtimes"
    assert abs(toy[p]["speedup"] - t1["estimate"] / toy[p]["estimate"]) <= 1e-12 * toy[p]["speedup"]

# The table titles its column with the toy's info, CSV has its rows.
table = run("--p", "1,2", "--method", "approx,toy").stdout
assert "toy [" in table, table  # the column of EstimateOnly is titled by its name
rows = list(csv.DictReader(io.StringIO(run("--p", "1,2", "--method", "toy", "--format", "csv").stdout)))
assert [r["p"] for r in rows if r["method"] == "toy"] == ["1", "2"], rows

# The cost estimate counts it (a second per task): refused past a time limit, with its part.
refused = run("--p", "1,2,4", "--method", "toy", "--time-limit", "1s", status=2).stderr
assert "toy on p = " in refused, refused

# --method and --help know it by its info alone.
assert "toy (a toy: the exact model's longest path of the mean runtimes)" in \
    subprocess.run([TOOL, "--help"], capture_output=True, text=True, check=True).stdout
unknown = run("--method", "nonsense", status=2).stderr
assert "toy" in unknown, unknown
print("ok")
