#!/usr/bin/env python3
"""The calibration report's times in its units and its marks of the calibrated range, read back.

    calibration_units.py PDL_SCALE SOURCE_DIR

On the Jacobi kernel's runs (examples/measure, docs/measured.md section 7), checks what
docs/calibration.md ("The report", "Beyond the calibrated range") says:

* CSV with --time-unit ms: the header names the unit (measured_ms, ...), every validation row's
  measured time is the runs file's (in µs, its `# unit: us` line) divided by 1,000, its error
  (predicted - measured) / measured, its inside flag whether measured lies in [low, high];
* JSON with --time-unit ms and without: "time_unit" says ms and us, and every time of the one is
  the other's divided by 1,000;
* the table without --time-unit picks ms (the runs' median is 117 ms): the headers say [ms]
  and no figure has an exponent;
* the prediction at p = 4 (the runs have p = 1 and 2) at the program's 2048 x 1024 grid of 100
  iterations is extrapolated beyond p, at distance log 4: every calibrated setting differs from
  it by a factor 4 or more in one value (p = 1 with the 2048-row grid, or rows 512 at p = 2);
  the validation runs (2 threads at sizes calibrated at 1 thread) are inside every axis's range
  at distance log 2.

Prints "ok".
"""
import csv
import io
import json
import math
import pathlib
import re
import subprocess
import sys

ARGUMENTS = ["examples/measure/jacobi_memory.pdl", "--machine", "examples/measure/epyc-2core.machine",
             "--calibrate", "examples/measure/jacobi_runs_calibrate.csv", "--fit", "tcell,tmem,tbarrier",
             "--validate", "examples/measure/jacobi_runs_validate.csv", "--draws", "20", "--p", "4", "--quiet"]


def run(tool, source, *extra):
    return subprocess.run([tool, *ARGUMENTS, *extra], cwd=source, check=True, capture_output=True, text=True).stdout


def measured_runs(source):
    """Line number -> time in µs of the validation runs file."""
    lines = (source / "examples/measure/jacobi_runs_validate.csv").read_text().splitlines()
    header = None
    times = {}
    for number, line in enumerate(lines, start=1):
        if line.startswith("#") or not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        if header is None:
            header = fields
            continue
        times[number] = float(fields[header.index("time")])
    return times


def check_csv(text, times):
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0].keys())[:8] == ["kind", "line", "p", "rows", "columns", "blocks", "iterations", "measured_ms"]
    prediction = [r for r in rows if r["kind"] == "prediction"]
    assert len(prediction) == 1 and prediction[0]["p"] == "4" and prediction[0]["measured_ms"] == ""
    assert prediction[0]["extrapolated"] == "1" and prediction[0]["beyond"] == "p", prediction
    assert abs(float(prediction[0]["distance"]) - math.log(4)) < 1e-12, prediction
    validated = [r for r in rows if r["kind"] == "validation"]
    assert len(validated) == len(times) == 40
    for row in validated:
        measured = float(row["measured_ms"])
        assert abs(measured - times[int(row["line"])] / 1000) <= 1e-12 * measured, row
        predicted, low, high = (float(row[k]) for k in ("predicted_ms", "low_ms", "high_ms"))
        assert abs(float(row["error"]) - (predicted - measured) / measured) < 1e-12, row
        assert row["inside"] == ("1" if low <= measured <= high else "0"), row
        assert row["extrapolated"] == "0" and abs(float(row["distance"]) - math.log(2)) < 1e-12, row


def check_json(in_ms, in_us):
    assert in_ms["time_unit"] == "ms" and in_us["time_unit"] == "us"
    for a, b in zip(in_ms["validation"]["runs"], in_us["validation"]["runs"]):
        for key in ("measured", "predicted"):
            assert abs(a[key] - b[key] / 1000) <= 1e-12 * b[key], (key, a[key], b[key])
        assert all(abs(x - y / 1000) <= 1e-12 * y for x, y in zip(a["prediction"]["interval"], b["prediction"]["interval"]))
        assert a["prediction"]["extrapolated"] is False and a["prediction"]["placement"]["beyond"] == []
    predicted = in_ms["predictions"][0]
    assert predicted["extrapolated"] is True and predicted["placement"]["beyond"] == ["p"], predicted
    assert in_ms["calibration"]["range"]["axes"][0] == {"name": "p", "low": 1.0, "high": 2.0, "scale": "logarithmic"}


def check_table(text):
    assert "measured [ms]" in text and "predicted [ms]" in text and "mean [ms]" in text, text
    rows = [line for line in text.splitlines() if re.match(r"\s+\d+\s+2\s+rows=", line)]
    assert len(rows) == 40, len(rows)
    assert not any(re.search(r"\de[+-]\d", line) for line in rows), "a figure with an exponent"
    assert re.search(r"^\s+R\^2 = 0\.890 \(the share of the measured times' variation", text, re.M), text


def main():
    tool, source = sys.argv[1], pathlib.Path(sys.argv[2])
    times = measured_runs(source)
    check_csv(run(tool, source, "--format", "csv", "--time-unit", "ms"), times)
    check_json(json.loads(run(tool, source, "--format", "json", "--time-unit", "ms")),
               json.loads(run(tool, source, "--format", "json")))
    check_table(run(tool, source))
    print("ok")


if __name__ == "__main__":
    main()
