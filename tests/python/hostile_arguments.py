"""Hostile arguments to every function of the pdl_scale package (issue 31): seeded calls with
values drawn from extremes (NaN, inf, 1e308, negative and huge counts, empty and enormous
strings, NUL bytes, option-like strings such as "-o" or "--help", directories, wrong types,
generators) beside ordinary ones. Every call must return its result or raise PdlError (the
command's exit 2), ValueError or TypeError; never RuntimeError (an internal failure), never a
crash of the interpreter, never a file written or an input changed. A hang fails by ctest's
timeout. Run from the repository's root:
    PYTHONPATH=build/release/python python3 tests/python/hostile_arguments.py [SEED] [CALLS]
"""

import hashlib
import math
import os
import random
import shutil
import sys
import tempfile

import pdl_scale

PROGRAM = "examples/calibration/tasks.pdl"
MACHINE = "examples/calibration/barrier.machine"
TRAIN = "examples/calibration/train.csv"
TEST = "examples/calibration/test.csv"
INPUTS = [PROGRAM, MACHINE, TRAIN, TEST, "examples/paper/neighbor.pdl"]

NUMBERS = [0, 1, 2, -1, 0.5, 1e-300, 5e-324, 1e308, -1e308, float("nan"), float("inf"), -float("inf"), 2 ** 63,
           2 ** 64, -(2 ** 63), 10 ** 30, True, 3]
STRINGS = ["", " ", "\0", "x" * 100_000, "-o", "--help", "--version", "-", "--", "--p", "--output=x.txt", "tc",
           "ts", "nosuch", "tc,ts", "a=b", "1;2", "\n", "é", "/", ".", "/dev/null", "/nonexistent/x.pdl",
           "tc=1", "'", "\"", "${HOME}", "*", "1e999"]


# The chance that each argument of a call is hostile, drawn per call (call()): some calls are
# all ordinary, so that enough of them reach the command and its figures.
RATES = [0.0, 0.05, 0.15, 0.5]
rate = 0.0


def hostile(rng, ordinary):
    """The ordinary value, or at the call's rate an extreme of any type."""
    if rng.random() >= rate:
        return ordinary
    kind = rng.randrange(10)
    if kind < 5:
        kind = rng.choice([5, 6, 7, 8, 9])
    if kind < 7:
        return rng.choice(NUMBERS)
    if kind < 9:
        return rng.choice(STRINGS)
    return rng.choice([None, [], {}, (), [float("nan")], {"": 1}, b"bytes", object(), iter([1, 2]), [1, "x"]])


def processor_counts(rng):
    choices = [[1, 2], range(1, 5), [4], [], [0], [-1], [1.5], [2 ** 31], [1 << 20], [True], [3, 2], "12", None,
               [float("nan")], (p for p in [1, 2])]
    return rng.choice(choices) if rng.random() < rate else [1, 2, 4]


def settings(rng):
    choices = [{"tc": 2}, {"tc": float("nan")}, {"tc": float("inf")}, {"tc": 1e308}, {"": 1}, {"-o": 1},
               {"tc=1": 2}, {"nosuch": 1}, {"tc": "x"}, {"tc": None}, {1: 2}, [("tc", 1)], "tc=1"]
    return rng.choice(choices) if rng.random() < rate else None


def call(rng):
    """One call: (name, thunk, its arguments)."""
    global rate
    rate = rng.choice(RATES)
    program = hostile(rng, PROGRAM)
    machine = hostile(rng, MACHINE) if rng.randrange(2) else None
    name = rng.randrange(10)
    if name == 0:
        kwargs = dict(machine=machine, p=processor_counts(rng), methods=hostile(rng, ("approx",)), set=settings(rng),
                      seed=hostile(rng, 1), threads=hostile(rng, 1), quantiles=hostile(rng, ()),
                      samples=hostile(rng, None), memory=hostile(rng, "256M"), efficiency=hostile(rng, ()))
        return "analyze", lambda: pdl_scale.analyze(program, **kwargs), kwargs
    if name == 1:
        kwargs = dict(machine=machine, p=processor_counts(rng), set=settings(rng), threads=1)
        return "loss", lambda: pdl_scale.loss(program, **kwargs), kwargs
    if name == 2:
        kwargs = dict(machine=machine, p=processor_counts(rng), set=settings(rng), threads=1)
        return "breakdown", lambda: pdl_scale.breakdown(program, **kwargs), kwargs
    if name in (3, 4):
        kwargs = dict(machine=hostile(rng, MACHINE), set=settings(rng), p=processor_counts(rng) if rng.randrange(2) else None,
                      validate=hostile(rng, TEST) if rng.randrange(2) else None, interval=hostile(rng, None),
                      draws=hostile(rng, None), seed=hostile(rng, 1), set_files=hostile(rng, ()))
        runs, fit = hostile(rng, TRAIN), hostile(rng, ["tc", "ts"])
        return "calibrate", lambda: pdl_scale.calibrate(program, runs, fit, **kwargs), dict(kwargs, runs=runs, fit=fit)
    if name == 5:
        runs, fit, p = hostile(rng, TRAIN), hostile(rng, ["tc"]), processor_counts(rng)
        kwargs = dict(machine=MACHINE, draws=hostile(rng, 20))
        return "predict", lambda: pdl_scale.predict(program, runs, fit, p, **kwargs), dict(kwargs, runs=runs, p=p)
    if name == 6:
        runs = hostile(rng, TEST)
        kwargs = dict(machine=hostile(rng, MACHINE), set=settings(rng), bounds=hostile(rng, False),
                      set_files=hostile(rng, ()))
        return "validate", lambda: pdl_scale.validate(program, runs, **kwargs), dict(kwargs, runs=runs)
    if name == 7:
        target, variable = hostile(rng, 0.5), hostile(rng, "tc")
        kwargs = dict(machine=machine, p=processor_counts(rng), set=settings(rng), iso_max=hostile(rng, None))
        return ("isoefficiency", lambda: pdl_scale.isoefficiency(program, target, variable, **kwargs),
                dict(kwargs, target=target, variable=variable))
    if name == 8:
        target, variable = hostile(rng, "base"), hostile(rng, "tc")
        kwargs = dict(machine=machine, p=processor_counts(rng), set=settings(rng))
        return ("isospeed", lambda: pdl_scale.isospeed(program, target, variable, **kwargs),
                dict(kwargs, target=target, variable=variable))
    if rng.randrange(3) == 0:  # to standard output only: a hostile call writes no file
        kwargs = dict(drop_auxiliary=hostile(rng, False), memory=hostile(rng, None))
        form = hostile(rng, rng.choice(["goal", "wfformat"]))
        return ("import_program", lambda: pdl_scale.import_program(form, program, **kwargs),
                dict(kwargs, format=form))
    if rng.randrange(2):
        kwargs = dict(machine=machine, set=settings(rng))
        return "check", lambda: pdl_scale.check(program, **kwargs), kwargs
    samples = hostile(rng, [1.0, 2.0, 3.5, 4.0])
    weights = hostile(rng, None)
    return "fit", lambda: pdl_scale.fit(samples, weights), dict(samples=samples, weights=weights)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 31
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(seed)
    before = {path: digest(path) for path in INPUTS}
    directory = tempfile.mkdtemp(prefix="pdl-scale-python-hostile-")
    cwd = os.getcwd()
    tally = {"returned": 0, "PdlError": 0, "ValueError": 0, "TypeError": 0}
    failures = 0
    try:
        for k in range(calls):
            what, thunk, kwargs = call(rng)
            # Run from an empty directory holding links to the inputs: any file written is found.
            os.chdir(directory)
            for path in INPUTS:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if not os.path.exists(path):
                    os.symlink(os.path.join(cwd, path), path)
            listing = sorted(os.listdir(directory))
            try:
                thunk()
                tally["returned"] += 1
            except pdl_scale.PdlError:
                tally["PdlError"] += 1
            except ValueError:  # json.JSONDecodeError is one: see below
                tally["ValueError"] += 1
            except TypeError:
                tally["TypeError"] += 1
            except Exception as error:  # noqa: BLE001 - anything else is a finding
                failures += 1
                print(f"FAIL call {k}: {what}({kwargs!r:.400}): {type(error).__name__}: {str(error)[:600]}")
            finally:
                os.chdir(cwd)
            written = sorted(set(os.listdir(directory)) - set(listing))
            if written:
                failures += 1
                print(f"FAIL call {k}: {what}({kwargs!r:.400}) wrote {written}")
                for name in written:
                    target = os.path.join(directory, name)
                    shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    after = {path: digest(path) for path in INPUTS}
    for path in INPUTS:
        if before[path] != after[path]:
            failures += 1
            print(f"FAIL: {path} changed")
    print(f"{calls} calls (seed {seed}): {tally}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
