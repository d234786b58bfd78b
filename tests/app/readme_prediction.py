#!/usr/bin/env python3
"""The README's first command (examples/paper/neighbor.pdl --pmax 64), as issue 28 asks of it:

- every prediction, its estimate and its interval, lies within the bounds the same run proved;
- the summary's "largest p with efficiency >= 0.8" is what the exact model gives: the exact
  mean at p = 5 (state space, `--method exact --p 5`) has efficiency >= 0.8, and at every p >= 6
  the proven lower bound already puts the efficiency below 0.8 (T(1) = 160 exactly: 10 columns x
  2 iterations x Erlang-8 of mean 8).

    readme_prediction.py PDL_SCALE REPO_DIR

Prints "ok" when all hold, else what failed (exit 1).
"""
import json
import subprocess
import sys

T1 = 10 * 2 * 8.0
SLACK = 1e-9


def run(binary, repo, *arguments):
    done = subprocess.run([binary, "examples/paper/neighbor.pdl", *arguments, "--format", "json", "--quiet"],
                          cwd=repo, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main():
    binary, repo = sys.argv[1], sys.argv[2]
    failures = []
    report = run(binary, repo, "--pmax", "64")
    bounds = {row["p"]: row for row in report["results"] if row["method"] == "bounds"}
    for prediction in report["predictions"]:
        p, pair = prediction["p"], bounds[prediction["p"]]
        low, high = pair["lower"] * (1 - SLACK), pair["upper"] * (1 + SLACK)
        figures = [prediction[k] for k in ("estimate", "lower", "upper") if prediction[k] is not None]
        if not figures or any(not low <= x <= high for x in figures):
            failures.append(f"p = {p}: prediction {figures} outside the bounds [{pair['lower']}, {pair['upper']}]")
    reach = [r for r in report["summary"][0]["efficiency"] if r["threshold"] == 0.8]
    if not reach or reach[0]["largest_p"] != 5:
        failures.append(f"summary: largest p with efficiency >= 0.8 is {reach}, not 5")
    exact = run(binary, repo, "--p", "5", "--method", "exact")["results"][0]
    if exact["method"] != "exact" or T1 / (5 * exact["estimate"]) < 0.8:
        failures.append(f"the exact mean at p = 5 ({exact['estimate']}) does not reach efficiency 0.8")
    for p, pair in bounds.items():
        if p >= 6 and T1 / (p * pair["lower"]) >= 0.8:
            failures.append(f"p = {p}: the lower bound {pair['lower']} leaves efficiency 0.8 possible")
    print(f"{len(report['predictions'])} predictions against their bounds, the summary against the exact model")
    for failure in failures:
        print(failure)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
