#!/usr/bin/env python3
"""The runs of docs/calibration.md's worked example, drawn with numpy from the model of
tasks.pdl with known values (tc = 2 us, ts = 30 us): each run is the largest of p gamma(64/p, tc)
sums (a processor's exponential tasks) plus the barrier ts * ceil(log2 p) (none at p = 1).
train.csv: four runs at each of p = 1, 2, 4, 8; test.csv: three at each of p = 16, 32, 64.

    /usr/bin/python3 examples/calibration/generate_runs.py   (numpy; rewrites both files)
"""
import math
import pathlib

import numpy as np

TC, TS = 2.0, 30.0
HERE = pathlib.Path(__file__).parent


def run(p, rng):
    barrier = TS * math.ceil(math.log2(p)) if p > 1 else 0.0
    return rng.gamma(64 / p, TC, size=p).max() + barrier


def write(name, ps, repetitions, rng, what):
    with open(HERE / name, "w") as out:
        out.write(f"# {what}, drawn by generate_runs.py (numpy, seed 2026) from tasks.pdl with tc = 2, ts = 30\n")
        out.write("# unit: us\np, time, repetition\n")
        for p in ps:
            for repetition in range(1, repetitions + 1):
                out.write(f"{p}, {run(p, rng):.3f}, {repetition}\n")


rng = np.random.default_rng(2026)
write("train.csv", [1, 2, 4, 8], 4, rng, "runs to calibrate on")
write("test.csv", [16, 32, 64], 3, rng, "held-out runs to validate on")
