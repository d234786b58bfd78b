#!/usr/bin/env python3
"""Checks --calibrate --validate --format json on docs/calibration.md's worked example against
figures computed here, independently of the tool (scipy):

* each predicted mean is E[max of p gamma(64/p, tc)] + ts ceil(log2 p) at the fitted tc and ts,
  the expectation integrated numerically as the integral of 1 - F(x)^p;
* each error is (predicted - measured) / measured, and each `inside` is low <= measured <= high;
* the summary (mean |error|, mean error, largest, shares within 10/20/40%, inside, coverage) is
  what the rows give.

    validation_check.py PDL_SCALE   (run from the repository's root)
"""
import json
import math
import subprocess
import sys

from scipy import integrate, stats

binary = sys.argv[1]
document = json.loads(subprocess.run(
    [binary, "examples/calibration/tasks.pdl", "--machine", "examples/calibration/barrier.machine",
     "--calibrate", "examples/calibration/train.csv", "--fit", "tc,ts",
     "--validate", "examples/calibration/test.csv", "--format", "json"],
    check=True, capture_output=True, text=True).stdout)
fitted = {parameter["name"]: parameter["value"] for parameter in document["parameters"]}
tc, ts = fitted["tc"], fitted["ts"]
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


rows = document["validation"]["runs"]
for row in rows:
    p, measured, predicted = row["p"], row["measured"], row["predicted"]
    law = stats.gamma(64 / p, scale=tc)
    tail, _ = integrate.quad(lambda x: 1 - law.cdf(x) ** p, 0, math.inf, epsabs=1e-10, limit=200)
    mean = tail + (ts * math.ceil(math.log2(p)) if p > 1 else 0.0)
    expect(abs(predicted - mean) <= 1e-4 * mean, f"line {row['line']}: predicted {predicted}, integrated {mean}")
    expect(abs(row["error"] - (predicted - measured) / measured) <= 1e-12, f"line {row['line']}: error")
    low, high = row["prediction"]["interval"]
    expect(row["inside"] == (low <= measured <= high), f"line {row['line']}: inside")

errors = [row["error"] for row in rows]
summary = document["validation"]["summary"]
n = len(rows)
expected = {
    "runs": n,
    "mean_absolute_error": sum(abs(e) for e in errors) / n,
    "mean_signed_error": sum(errors) / n,
    "largest_absolute_error": max(abs(e) for e in errors),
    "within_10": sum(abs(e) <= 0.10 for e in errors) / n,
    "within_20": sum(abs(e) <= 0.20 for e in errors) / n,
    "within_40": sum(abs(e) <= 0.40 for e in errors) / n,
    "inside": sum(row["inside"] for row in rows),
    "coverage": sum(row["inside"] for row in rows) / n,
}
for key, value in expected.items():
    expect(abs(summary[key] - value) <= 1e-12, f"summary {key}: {summary[key]}, from the rows {value}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{n} runs: predicted means, errors, intervals and summary agree (tc = {tc:.6g}, ts = {ts:.6g})")
