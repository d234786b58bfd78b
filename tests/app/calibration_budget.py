#!/usr/bin/env python3
"""--calibrate and --validate under --time-limit and --memory (issue 30), as a user meets them.

    calibration_budget.py BINARY

Runs files of many rows over four settings are written to a temporary directory. The command
must refuse a validation whose parameter draws would take longer than --time-limit (exit 2, in
under 2 s, naming what costs), refuse a JSON report of 400,000 validated runs that would not fit
--memory (exit 2), and hold a validation that fits within its --memory: the peak resident memory
(getrusage(RUSAGE_CHILDREN).ru_maxrss of each child) is measured against the budget. A fit of
100,000 rows costs its distinct settings, not its rows: it runs within a 10 s --time-limit.
"""
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "examples", "calibration", "tasks.pdl")
MACHINE = os.path.join(ROOT, "examples", "calibration", "barrier.machine")


def write_runs(path, rows):
    rng = random.Random(2026)
    with open(path, "w") as out:
        out.write("# unit: us\np, time, repetition\n")
        for i in range(rows):
            p = (1, 2, 4, 8)[i % 4]
            out.write(f"{p}, {100 / p + 30 * p ** 0.5 + rng.gauss(0, 3):.3f}, {i // 4 + 1}\n")


def run(binary, args):
    """(exit status, stderr, seconds, peak MiB) of one child."""
    start = time.monotonic()
    child = subprocess.Popen([binary, PROGRAM, "--machine", MACHINE, *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    _, err = child.communicate()
    seconds = time.monotonic() - start
    return child.returncode, err, seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        train, big = os.path.join(directory, "train.csv"), os.path.join(directory, "big.csv")
        write_runs(train, 100_000)
        write_runs(big, 400_000)

        status, err, seconds, _ = run(binary, ["--calibrate", train, "--fit", "tc,ts", "--time-limit", "10s"])
        assert status == 0, err
        print(f"fit of 100,000 rows: {seconds:.2f} s")

        status, err, seconds, _ = run(binary, ["--calibrate", train, "--fit", "tc,ts", "--validate", train,
                                               "--draws", "5000", "--memory", "2G", "--time-limit", "5s"])
        assert status == 2 and "would take" in err and "the validation: " in err and "--draws" in err, err
        assert seconds < 2.0, f"the refusal took {seconds:.2f} s"
        print(f"refused by --time-limit in {seconds:.2f} s: {err.strip()}")

        status, err, seconds, peak = run(binary, ["--validate", big, "--memory", "200M", "--format", "json"])
        assert status == 2 and "would need about" in err and "--memory" in err, err
        assert peak <= 200, f"peak {peak:.0f} MiB over the budget of 200 MiB"
        print(f"refused by --memory 200M: peak {peak:.0f} MiB: {err.strip()}")

        status, err, seconds, peak = run(binary, ["--validate", train, "--memory", "200M"])
        assert status == 0, err
        assert peak <= 200, f"peak {peak:.0f} MiB over the budget of 200 MiB"
        print(f"validation of 100,000 rows within --memory 200M: peak {peak:.0f} MiB")
    print("ok")


if __name__ == "__main__":
    main()
