#!/usr/bin/env python3
"""--breakdown as a user reads it: on every example program, on the ideal machine and the cluster,
each p's split adds up to the prediction, no part is negative beyond the prediction's interval,
the CSV carries the JSON's figures, and the stacked chart renders to PNG.

    breakdown_sums.py PDL_SCALE SOURCE_DIR

Runs `PDL_SCALE PROGRAM [--machine M] --p 1,2,3,5,8 --method approx,mc --samples 2000
--breakdown` as JSON and as CSV. Checks per prediction with a breakdown: computation +
communication + synchronisation + idle = the prediction's estimate (to 1e-9 relative); every
busy part >= 0; idle >= 0 (the processors are never busy longer than the program runs), within
five standard errors for Monte Carlo and exactly otherwise; idle's interval is
the prediction's shifted by the busy parts. Then renders one --breakdown-plot with rsvg-convert
(Debian's librsvg2-bin). Prints "ok".
"""
import csv
import io
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

PARTS = ("computation", "communication", "synchronisation", "idle")


def run(tool, args):
    done = subprocess.run([tool, *args, "--quiet", "--threads", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}"
    return done.stdout


def check(tool, program, machine):
    args = [str(program), "--p", "1,2,3,5,8", "--method", "approx,mc", "--samples", "2000", "--breakdown"]
    if machine:
        args += ["--machine", str(machine)]
    where = f"{program.name} on {machine.name if machine else 'ideal'}"
    document = json.loads(run(tool, args + ["--format", "json"]))
    rows = {}
    for prediction in document["predictions"]:
        split = prediction["breakdown"]
        if split is None or prediction["estimate"] is None:
            continue
        p = prediction["p"]
        total = sum(split[part]["estimate"] for part in PARTS)
        estimate = prediction["estimate"]
        assert abs(total - estimate) <= 1e-9 * max(1.0, abs(estimate)), f"{where} p={p}: {total} != {estimate}"
        for part in PARTS[:3]:
            assert split[part]["lower"] >= 0.0, f"{where} p={p}: {part} {split[part]}"
        busy_lower = sum(split[part]["lower"] for part in PARTS[:3])
        busy_upper = sum(split[part]["upper"] for part in PARTS[:3])
        idle = split["idle"]
        # A Monte Carlo estimate is within five standard errors of the truth, not always within
        # its 95% interval: over the 90 predictions here one would miss by chance.
        margin = 0.0
        if prediction["interval_kind"] == "confidence":
            margin = 5.0 / 1.959964 * (prediction["upper"] - estimate)
        assert idle["estimate"] + margin >= -1e-9 * max(1.0, estimate), f"{where} p={p}: idle {idle} below 0"
        assert abs(idle["lower"] - (prediction["lower"] - busy_upper)) <= 1e-9 * max(1.0, estimate), where
        assert abs(idle["upper"] - (prediction["upper"] - busy_lower)) <= 1e-9 * max(1.0, estimate), where
        rows[(prediction["machine"], p)] = split
    assert rows, f"{where}: no prediction has a breakdown"
    if machine is None:
        assert "where the time goes" in run(tool, args), where
    lines = [line for line in run(tool, args + ["--format", "csv"]).splitlines() if not line.startswith("#")]
    for record in csv.DictReader(io.StringIO("\n".join(lines))):
        key = (record["machine"], int(record["p"]))
        if record["method"] != "prediction" or key not in rows:
            assert record["method"] == "prediction" or record["computation_us"] == "", where
            continue
        for part in PARTS:
            assert float(record[f"{part}_us"]) == rows[key][part]["estimate"], f"{where} {key} {part}"
    return len(rows)


def main():
    tool, source = sys.argv[1], pathlib.Path(sys.argv[2])
    programs = sorted((source / "examples/schemes").glob("*.pdl")) + [
        source / "examples/paper/neighbor.pdl", source / "examples/studies/stencil_1d.pdl"]
    checked = 0
    for program in programs:
        for machine in (None, source / "examples/machines/cluster.machine"):
            checked += check(tool, program, machine)
    renderer = shutil.which("rsvg-convert")
    assert renderer, "rsvg-convert is missing (Debian's librsvg2-bin; scripts/setup installs it)"
    with tempfile.TemporaryDirectory() as scratch:
        chart, png = pathlib.Path(scratch, "breakdown.svg"), pathlib.Path(scratch, "breakdown.png")
        run(tool, [str(source / "examples/paper/neighbor.pdl"), "--machine", str(source / "examples/machines/cluster.machine"),
                   "--machine", str(source / "examples/machines/textbook.machine"), "--pmax", "16",
                   "--breakdown-plot", str(chart)])
        subprocess.run([renderer, "-o", str(png), str(chart)], check=True, timeout=120)
        header = png.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
        assert (width, height) == (760, 572), (width, height)
        svg = chart.read_text()
        assert svg.count("<rect") > 16 * 2 and "textbook" in svg and "cluster" in svg
    print(f"{checked} predictions split\nok")


if __name__ == "__main__":
    main()
