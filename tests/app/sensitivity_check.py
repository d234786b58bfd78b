#!/usr/bin/env python3
"""--sensitivity against closed forms, independent runs and its chart (docs/sensitivity.md).

    sensitivity_check.py PDL_SCALE SOURCE_DIR

* Foster's 1-D stencil (examples/studies/stencil_1d.pdl) on the SP2 (ibm-sp2.machine): with
  m = t_s + t_w L, L = 8 N Nz bytes and c(p) = 0, 1, 2 exchanges on the busiest processor for
  p = 1, 2, >= 3, T(p) = steps (t_c N^2 Nz / p + c(p) m) (docs/methods.md), so every elasticity
  has a closed form: t_c and RTFactor A / T with A = steps t_c N^2 Nz / p, t_s steps c t_s / T,
  t_w steps c t_w L / T, Nz (A + steps c t_w L) / T, steps 1 (a whole number: x - 1 and x + 1),
  N 2 at p = 1. Each must hold to 1e-9 relative; each 1% and 5% tolerance f must give
  T(f x) / T(x) = 1.01 (1.05) within 0.1% by the closed form, and the largest whole value for
  steps and N (N at p = 1: N + 1 planes do not divide evenly among more). A tolerance of t_w is also run through the command (--set tw=...).
* The paper's neighbor example and the fork-join example on the cluster (Erlang and mixture
  tasks, Monte Carlo): the elasticities of ts and tw against central differences (step 5%) of
  two independent runs of 10^6 samples each (other seeds), within four combined standard errors.
* --sensitivity-plot rendered to PNG by rsvg-convert: a whole image, a line per constant read.
Prints "ok".
"""
import json
import math
import pathlib
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from render_charts import colour_counts, parse_png  # noqa: E402

STENCIL = "examples/studies/stencil_1d.pdl"
SP2 = "examples/machines/ibm-sp2.machine"
NEIGHBOR = "examples/paper/neighbor.pdl"
CLUSTER = "examples/machines/cluster.machine"
NS = "{http://www.w3.org/2000/svg}"


def run(tool, source, *arguments):
    done = subprocess.run([tool, *arguments, "--format", "json", "--quiet"], cwd=source, capture_output=True,
                          text=True)
    assert done.returncode == 0, f"{arguments}: exit {done.returncode}: {done.stderr}"
    return json.loads(done.stdout)


def foster_time(p, constants):
    x = dict(constants)
    exchanges = 0 if p == 1 else 1 if p == 2 else 2
    length = 8 * x["n"] * x["nz"]
    work = x["steps"] * x["tc"] * x["RTFactor"] * x["n"] * x["nz"] * math.ceil(x["n"] / p)
    return work + x["steps"] * exchanges * (x["ts"] + x["tw"] * length)


def foster_elasticities(p, x):
    t = foster_time(p, x)
    exchanges = 0 if p == 1 else 1 if p == 2 else 2
    work = x["steps"] * x["tc"] * x["n"] ** 2 * x["nz"] / p
    message = x["steps"] * exchanges * x["tw"] * 8 * x["n"] * x["nz"]
    closed = {"tc": work / t, "RTFactor": work / t, "ts": x["steps"] * exchanges * x["ts"] / t, "tw": message / t,
              "nz": (work + message) / t, "steps": 1.0}
    if p == 1:
        closed["n"] = 2.0
    return closed


def check_foster(tool, source):
    processors = [1, 2, 4, 16, 64, 256]
    report = run(tool, source, STENCIL, "--machine", SP2, "--p", ",".join(map(str, processors)), "--sensitivity")
    base = {"n": 256, "nz": 10, "tc": 1, "steps": 4, "RTFactor": 1, "ts": 40, "tw": 0.0275}
    checked = 0
    for entry in report["sensitivities"]:
        p, name = entry["p"], entry["name"]
        assert entry["value"] == base[name], entry
        assert entry["interval_kind"] == "exact" and entry["why_not"] is None, entry
        closed = foster_elasticities(p, base)
        if name in closed:
            e = entry["elasticity"]
            assert abs(e - closed[name]) <= 1e-9 * max(abs(closed[name]), 1e-3), (p, name, e, closed[name])
            assert entry["lower"] <= closed[name] + 1e-12 and closed[name] - 1e-12 <= entry["upper"], entry
            checked += 1
        t = foster_time(p, base)
        for level, field in ((0.01, "tolerance_1pct"), (0.05, "tolerance_5pct")):
            factor = entry[field]
            if factor is None:
                assert entry[field + "_unbounded"] and foster_elasticities(p, base).get(name, 0) == 0, entry
                continue
            grown = dict(base, **{name: base[name] * factor})
            ratio = foster_time(p, grown) / t
            if name == "n" and p > 1:
                continue  # N + 1 planes do not divide among p: the closed form above is for even blocks
            if entry["whole_steps"]:
                above = dict(base, **{name: base[name] * factor + 1})
                assert ratio <= 1 + level + 1e-12 < foster_time(p, above) / t, (p, name, field, factor)
            elif name != "n":
                assert abs(ratio - (1 + level)) <= 0.001 * (1 + level), (p, name, field, factor, ratio)
    assert checked >= 6 * 6, checked
    # The 1% tolerance of t_w at p = 64 through the command itself.
    factor = next(e["tolerance_1pct"] for e in report["sensitivities"] if e["p"] == 64 and e["name"] == "tw")
    at = run(tool, source, STENCIL, "--machine", SP2, "--p", "64", "--set", f"tw={0.0275 * factor!r}")
    before = next(r for r in report["predictions"] if r["p"] == 64)["estimate"]
    ratio = at["predictions"][0]["estimate"] / before
    assert abs(ratio - 1.01) <= 0.001 * 1.01, ratio
    return checked


FORK_JOIN = "examples/schemes/fork_join.pdl"

# Programs whose prediction is Monte Carlo's, with their settings and processor counts.
SAMPLED = [(NEIGHBOR, ["--set", "columns=16"], [4, 8]), (FORK_JOIN, [], [2, 4])]


def monte_carlo(tool, source, program, settings, p, name, value, seed):
    report = run(tool, source, program, "--machine", CLUSTER, "--p", str(p), "--method", "mc", "--samples",
                 "1000000", "--seed", str(seed), "--set", f"{name}={value!r}", *settings, "--prediction-budget", "0")
    row = report["results"][0]
    return row["estimate"], (row["upper"] - row["estimate"]) / 1.959963984540054


def check_sampled(tool, source):
    checked = 0
    for program, settings, processors in SAMPLED:
        report = run(tool, source, program, "--machine", CLUSTER, "--p", ",".join(map(str, processors)), *settings,
                     "--sensitivity")
        for entry in report["sensitivities"]:
            if entry["name"] not in ("ts", "tw"):
                continue
            assert entry["method"] == "mc" and entry["interval_kind"] == "confidence", entry
            p, value, step = entry["p"], entry["value"], 0.05
            base = next(r for r in report["predictions"] if r["p"] == p)["estimate"]
            plus, plus_error = monte_carlo(tool, source, program, settings, p, entry["name"], value * (1 + step), 11)
            minus, minus_error = monte_carlo(tool, source, program, settings, p, entry["name"], value * (1 - step), 12)
            reference = (plus - minus) / (2 * step * base)
            reference_error = math.hypot(plus_error, minus_error) / (2 * step * base)
            error = (entry["upper"] - entry["lower"]) / (2 * 1.959963984540054)
            assert abs(entry["elasticity"] - reference) <= 4 * math.hypot(error, reference_error), \
                (program, entry, reference, reference_error)
            checked += 1
    assert checked == 8, checked
    return checked


def check_chart(tool, source, directory):
    if shutil.which("rsvg-convert") is None:
        sys.exit("rsvg-convert is missing: install librsvg2-bin (scripts/setup does)")
    svg = directory / "sensitivity.svg"
    report = run(tool, source, STENCIL, "--machine", SP2, "--p", "1,2,4,8,16,32,64", "--sensitivity-plot", str(svg))
    read = {e["name"] for e in report["sensitivities"] if e["elasticity"] not in (None, 0) and not e["whole_steps"]}
    root = ET.parse(svg).getroot()
    lines = root.findall(f".//{NS}g[@class='line']")
    assert len(lines) == len(read), (len(lines), read)
    colours = {line.find(f"{NS}polyline").get("stroke") for line in lines}
    png = directory / "sensitivity.png"
    subprocess.run(["rsvg-convert", "-o", str(png), str(svg)], check=True)
    width, height, channels, rows = parse_png(png)
    assert (width, height) == (round(float(root.get("width"))), round(float(root.get("height")))), (width, height)
    counts = colour_counts((channels, rows), sorted(colours))
    assert all(count > 20 for count in counts.values()), counts
    return len(lines)


def main():
    tool, source = sys.argv[1], pathlib.Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as scratch:
        figures = (check_foster(tool, source), check_sampled(tool, source), check_chart(tool, source,
                                                                                        pathlib.Path(scratch)))
    print(f"ok: {figures[0]} closed forms, {figures[1]} Monte Carlo elasticities, {figures[2]} chart lines")


if __name__ == "__main__":
    main()
