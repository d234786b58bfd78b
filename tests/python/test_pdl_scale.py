"""The pdl_scale package against the pdl-scale command: the same figures to the last bit, every
argument, the located errors. Run by ctest (tests/python/CMakeLists.txt) as
    PYTHONPATH=build/release/python python3 tests/python/test_pdl_scale.py build/release/app/pdl-scale
from the repository's root."""

import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import numpy as np

import pdl_scale

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build/release/app/pdl-scale"
NEIGHBOR = "examples/paper/neighbor.pdl"
CLUSTER = "examples/machines/cluster.machine"


def command_json(*arguments):
    done = subprocess.run([TOOL, *arguments, "--format", "json", "--quiet"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def without_timing(report):
    """A report without what differs between two runs of the same command: the seconds it took
    (also in the methods' details and the estimate's cost) and the command line's order of options."""
    if isinstance(report, dict):
        return {k: without_timing(v) for k, v in report.items() if k not in ("seconds", "command", "detail", "cost")}
    if isinstance(report, list):
        return [without_timing(v) for v in report]
    return report


def same_numbers(test, values, rows, name):
    expected = np.array([math.nan if r[name] is None else r[name] for r in rows], dtype=float)
    test.assertTrue(np.array_equal(values, expected, equal_nan=True), f"{name}: {values} != {expected}")


class AgainstTheCommand(unittest.TestCase):
    def check_rows(self, analysis, report):
        rows = report["results"]
        self.assertEqual(len(analysis), len(rows))
        self.assertEqual(list(analysis["p"]), [r["p"] for r in rows])
        self.assertEqual(list(analysis["method"]), [r["method"] for r in rows])
        self.assertEqual(list(analysis["machine"]), [r["machine"] for r in rows])
        self.assertEqual(list(analysis["sweep"]), [r["sweep"] for r in rows])
        for name in ("estimate", "lower", "upper", "speedup", "efficiency", "speedup_lower", "speedup_upper"):
            same_numbers(self, analysis[name], rows, name)
        for name in ("estimate", "lower", "upper", "efficiency_lower", "efficiency_upper"):
            same_numbers(self, analysis.predictions[name], report["predictions"], name)
        self.assertEqual(list(analysis.predictions["own_solve"]), [r["own_solve"] for r in report["predictions"]])
        self.assertEqual(analysis.summary, report["summary"])
        self.assertEqual(analysis.notes, report["notes"])
        self.assertEqual(analysis.unit, report["time_unit"])

    def test_defaults_are_the_commands(self):
        analysis = pdl_scale.analyze(NEIGHBOR, p=range(1, 13))
        self.check_rows(analysis, command_json(NEIGHBOR, "--p", ",".join(map(str, range(1, 13)))))
        self.assertEqual(set(analysis["method"]), {"approx", "bounds"})

    def test_every_scheme_example(self):
        for name in sorted(os.listdir("examples/schemes")):
            if not name.endswith(".pdl"):
                continue
            path = os.path.join("examples/schemes", name)
            with self.subTest(example=path):
                analysis = pdl_scale.analyze(path, machine=CLUSTER, p=[1, 2, 3, 8], methods=("approx", "bounds"))
                self.check_rows(analysis, command_json(path, "--machine", CLUSTER, "--p", "1,2,3,8",
                                                       "--method", "approx,bounds"))

    def test_allow_long(self):
        # Estimated at days: refused without allow_long, like the command without --allow-long.
        # 10^9 Monte Carlo samples of 10^5 columns on 64 processors: estimated at days.
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.analyze(NEIGHBOR, p=[64], methods=("mc",), set={"columns": 100000}, samples=10**9)
        self.assertIn("--allow-long", raised.exception.text)
        # Allowed, a short analysis runs as before; a small budget refuses the state space instead.
        small = pdl_scale.analyze(NEIGHBOR, p=[1, 2], methods=("exact",), memory="64M", allow_long=True)
        self.assertTrue(np.all(np.isfinite(small["estimate"])))

    def test_every_argument(self):
        analysis = pdl_scale.analyze(NEIGHBOR, machine=CLUSTER, p=[1, 2, 4, 8], methods=("approx", "mc", "exact"),
                                     set={"iterations": 3}, sweep={"columns": [8, 16]}, seed=7, threads=1,
                                     quantiles=(50, 95), samples=20000)
        report = command_json(NEIGHBOR, "--machine", CLUSTER, "--p", "1,2,4,8", "--method", "approx,mc,exact",
                              "--set", "iterations=3", "--sweep", "columns=8,16", "--seed", "7", "--threads", "2",
                              "--quantiles", "50,95", "--samples", "20000")
        self.check_rows(analysis, report)  # the figures do not depend on the threads
        mc = analysis.method("mc")
        self.assertTrue(np.all(mc["lower"] < mc["estimate"]))
        self.assertEqual(sorted(analysis.quantiles[0]), [0.5, 0.95])
        other_seed = pdl_scale.analyze(NEIGHBOR, machine=CLUSTER, p=[8], methods=("mc",), seed=8, samples=20000)
        self.assertNotEqual(other_seed.method("mc")["estimate"][-1],
                            pdl_scale.analyze(NEIGHBOR, machine=CLUSTER, p=[8], methods=("mc",), seed=7,
                                              samples=20000).method("mc")["estimate"][-1])

    def test_prediction_budget_and_efficiency_thresholds(self):
        analysis = pdl_scale.analyze(NEIGHBOR, p=range(1, 7), prediction_budget=0, efficiency=(0.9, 0.75))
        report = command_json(NEIGHBOR, "--p", "1,2,3,4,5,6", "--prediction-budget", "0", "--efficiency", "0.9,0.75")
        self.check_rows(analysis, report)
        # Without its own solve the prediction comes from approx and the bounds alone.
        self.assertTrue(set(analysis.predictions["method"]) <= {"approx", "bounds", "exact"})
        self.assertEqual([r["threshold"] for r in analysis.summary[0]["efficiency"]], [0.9, 0.75])
        own = pdl_scale.analyze(NEIGHBOR, p=[2, 6], prediction_budget=0.5)
        self.assertEqual(list(own.predictions["method"]), ["exact", "mc"])

    def test_processor_counts_are_checked_not_rounded(self):
        for bad in ([], [2.5], [1, True]):
            with self.subTest(p=bad), self.assertRaises(ValueError):
                pdl_scale.analyze(NEIGHBOR, p=bad)
        self.assertEqual(list(pdl_scale.analyze(NEIGHBOR, p=[2.0, 4], methods=("approx",))["p"]), [2, 4])

    def test_usage_errors_carry_the_commands_text(self):
        # Refused by the option parser itself (before issue 29 they reached only the process's
        # stderr, and the exception's text was empty): the same words as the command prints.
        for arguments, memory in ((["--memory", "zz"], "zz"), (["--threads", "-3"], None)):
            with self.subTest(arguments=arguments):
                done = subprocess.run([TOOL, NEIGHBOR, "--p", "2", *arguments], capture_output=True, text=True)
                self.assertEqual(done.returncode, 2)
                if memory is not None:
                    with self.assertRaises(pdl_scale.AnalysisError) as raised:
                        pdl_scale.analyze(NEIGHBOR, p=[2], memory=memory)
                    self.assertEqual(raised.exception.text, done.stderr)
                    self.assertTrue(raised.exception.text.startswith("pdl-scale: error: --memory zz"))
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.analyze(NEIGHBOR, p=[2], threads=-3)
        done = subprocess.run([TOOL, NEIGHBOR, "--p", "2", "--method", "approx,bounds", "--seed", "1", "--threads",
                               "-3", "--format", "json", "--quiet"], capture_output=True, text=True)
        self.assertEqual(raised.exception.text, done.stderr)
        self.assertIn("--threads", raised.exception.text)

    def test_csv_is_plain(self):
        # The header on line 1, every row as wide, times' units in the column names: Python's csv
        # module and pandas.read_csv read it with no options (issue 29).
        import csv
        import io

        import pandas as pd
        cases = [
            [NEIGHBOR, "--p", "1,2,4", "--quantiles", "50,95", "--breakdown"],
            [NEIGHBOR, "--p", "2,4", "--machine", CLUSTER, "--sweep", "columns=10,20", "--method", "approx,bounds,mc"],
            [NEIGHBOR, "--p", "1,2", "--loss", "--time-unit", "ms"],
            ["examples/variants/precompute.pdl", "examples/variants/recompute.pdl", "--p", "1,2"],
        ]
        for arguments in cases:
            with self.subTest(arguments=arguments):
                text = subprocess.run([TOOL, *arguments, "--format", "csv", "--quiet"], capture_output=True, text=True,
                                      check=True).stdout
                rows = list(csv.reader(io.StringIO(text)))
                self.assertEqual({len(row) for row in rows}, {len(rows[0])})
                frame = pd.read_csv(io.StringIO(text))
                self.assertEqual(frame.shape, (len(rows) - 1, len(rows[0])))
                unit = "ms" if "ms" in arguments else "us"
                self.assertIn(f"estimate_{unit}", frame.columns)
                self.assertTrue(all(name.endswith(f"_{unit}") for name in frame.columns if name.startswith("q")))

    def test_calibrate_and_validate_are_the_commands(self):
        program, machine = "examples/calibration/tasks.pdl", "examples/calibration/barrier.machine"
        train, test = "examples/calibration/train.csv", "examples/calibration/test.csv"
        fitted = pdl_scale.calibrate(program, train, ["tc", "ts"], machine=machine, p=[16, 32], validate=test,
                                     draws=200, seed=3)
        report = command_json(program, "--machine", machine, "--calibrate", train, "--fit", "tc,ts", "--p", "16,32",
                              "--validate", test, "--draws", "200", "--seed", "3")
        self.assertEqual(fitted.json, report)
        self.assertEqual(list(fitted.parameters["name"]), ["tc", "ts"])
        self.assertEqual(list(fitted.parameters["value"]), [x["value"] for x in report["parameters"]])
        self.assertEqual(list(fitted.predictions["p"]), [16, 32])
        self.assertEqual(list(fitted.predictions["lower"]), [x["interval"][0] for x in report["predictions"]])
        self.assertEqual(list(fitted.predictions["task_upper"]), [x["task"][1] for x in report["predictions"]])
        self.assertEqual(list(fitted.validation["measured"]), [r["measured"] for r in report["validation"]["runs"]])
        self.assertEqual(fitted.validation_summary, report["validation"]["summary"])
        scored = pdl_scale.validate(program, test, machine=machine, set={"tc": 1.8, "ts": 40}, bounds=True)
        self.assertEqual(scored.json, command_json(program, "--machine", machine, "--set", "tc=1.8", "--set", "ts=40",
                                                   "--validate", test, "--method", "approx,bounds"))
        self.assertTrue(scored.parameters.empty)
        with self.assertRaises(ValueError):
            pdl_scale.calibrate(program, train, [], machine=machine)
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.calibrate(program, train, ["nothing"], machine=machine)
        self.assertIn("--fit nothing", raised.exception.text)
        # A range is the command's --fit NAME=LOW..HIGH: the same report, the starts included.
        ranged = pdl_scale.calibrate(program, train, ["tc", "ts"], machine=machine, ranges={"ts": (1, 20)})
        self.assertEqual(ranged.json, command_json(program, "--machine", machine, "--calibrate", train, "--fit",
                                                   "tc,ts=1..20", "--seed", "1"))
        self.assertEqual(ranged.json["calibration"]["parameters"][1]["range"], [1, 20])
        self.assertEqual(len(ranged.json["calibration"]["starts"]), 5)
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.calibrate(program, train, ["tc"], machine=machine, ranges={"tc": (5, 1)})
        self.assertIn("--fit tc=5..1: a range is NAME=LOW..HIGH with 0 < LOW < HIGH", raised.exception.text)
        with self.assertRaises(ValueError):
            pdl_scale.calibrate(program, train, ["tc"], machine=machine, ranges={"ts": (1, 2)})
        # --time-unit, and where each setting lies relative to the runs (p = 1 to 8 calibrated).
        in_ms = pdl_scale.calibrate(program, train, ["tc", "ts"], machine=machine, p=[8, 32], validate=test,
                                    time_unit="ms")
        self.assertEqual(in_ms.json, command_json(program, "--machine", machine, "--calibrate", train, "--fit", "tc,ts",
                                                  "--seed", "1", "--p", "8,32", "--validate", test,
                                                  "--time-unit", "ms"))
        self.assertEqual((in_ms.time_unit, fitted.time_unit), ("ms", "us"))
        self.assertEqual(list(in_ms.predictions["extrapolated"]), [False, True])
        self.assertEqual(list(in_ms.predictions["distance"]), [0.0, math.log(4)])
        self.assertTrue(all(in_ms.validation["extrapolated"]))
        for ms, us in zip(in_ms.validation["measured"], fitted.validation["measured"]):
            self.assertAlmostEqual(ms, us / 1000, delta=1e-12 * us)

    def test_isoefficiency_and_isospeed_are_the_commands(self):
        points = pdl_scale.isoefficiency(NEIGHBOR, 0.8, "columns", p=[2, 4, 8])
        report = command_json(NEIGHBOR, "--isoefficiency", "0.8", "--iso-variable", "columns", "--p", "2,4,8")
        self.assertEqual(points.attrs["json"], report)
        self.assertEqual(list(points["size"]), [x["size"] for x in report["isoefficiency"]["points"]])
        speed = pdl_scale.isospeed("examples/studies/householder.pdl", 0.585, "n",
                                   machine="examples/machines/ksr1.machine", p=[2, 4])
        report = command_json("examples/studies/householder.pdl", "--isospeed", "0.585", "--iso-variable", "n",
                              "--machine", "examples/machines/ksr1.machine", "--p", "2,4")
        self.assertEqual(speed.attrs["json"], report)
        self.assertEqual(list(speed["work"]), [x["work"] for x in report["isospeed"]["machines"][0]["points"]])

    def test_loss_breakdown_and_predict_are_the_commands(self):
        lost = pdl_scale.loss(NEIGHBOR, p=[1, 2, 4])
        report = command_json(NEIGHBOR, "--p", "1,2,4", "--method", "approx,bounds", "--seed", "1", "--threads", "0",
                              "--loss")
        self.assertEqual(without_timing(lost.attrs["json"]), without_timing(report))
        self.assertEqual(list(lost["phase"]), [r["phase"] for r in report["loss"]])
        for name in ("estimate", "lower", "upper", "speedup", "share"):
            same_numbers(self, lost[name].to_numpy(dtype=float), report["loss"], name)
        split = pdl_scale.breakdown(NEIGHBOR, p=[1, 2, 4], machine=CLUSTER)
        report = command_json(NEIGHBOR, "--p", "1,2,4", "--machine", CLUSTER, "--method", "approx,bounds", "--seed",
                              "1", "--threads", "0", "--breakdown")
        self.assertEqual(without_timing(split.attrs["json"]), without_timing(report))
        self.assertEqual(list(split["p"]), [1, 2, 4])
        for part in ("computation", "communication", "synchronisation", "idle"):
            for suffix, field in (("", "estimate"), ("_lower", "lower"), ("_upper", "upper")):
                expected = [math.nan if (r["breakdown"] or {}).get(part) is None or r["breakdown"][part][field] is None
                            else r["breakdown"][part][field] for r in report["predictions"]]
                self.assertTrue(np.array_equal(split[part + suffix].to_numpy(dtype=float), np.array(expected),
                                               equal_nan=True), part + suffix)
        program, machine = "examples/calibration/tasks.pdl", "examples/calibration/barrier.machine"
        train = "examples/calibration/train.csv"
        predicted = pdl_scale.predict(program, train, ["tc", "ts"], p=[8, 64], machine=machine, draws=100, seed=5)
        report = command_json(program, "--machine", machine, "--calibrate", train, "--fit", "tc,ts", "--p", "8,64",
                              "--draws", "100", "--seed", "5")
        self.assertEqual(predicted.attrs["json"], report)
        self.assertEqual(list(predicted["mean"]), [x["mean"] for x in report["predictions"]])
        self.assertEqual(list(predicted["upper"]), [x["interval"][1] for x in report["predictions"]])
        self.assertEqual(list(predicted["parameters_standard_error"]),
                         [x["parameters"]["standard_error"] for x in report["predictions"]])
        self.assertEqual(list(predicted["unexplained"]), [x["unexplained"] for x in report["predictions"]])

    def test_sensitivity_is_the_commands(self):
        frame = pdl_scale.sensitivity(NEIGHBOR, p=[1, 4], machine=CLUSTER, methods=("approx", "bounds", "mc"),
                                      samples=4000)
        report = command_json(NEIGHBOR, "--p", "1,4", "--machine", CLUSTER, "--method", "approx,bounds,mc", "--seed",
                              "1", "--threads", "0", "--samples", "4000", "--sensitivity")
        self.assertEqual(without_timing(frame.attrs["json"]), without_timing(report))
        entries = report["sensitivities"]
        self.assertGreater(len(entries), 0)
        self.assertEqual(list(frame["p"]), [e["p"] for e in entries])
        self.assertEqual(list(frame["name"]), [e["name"] for e in entries])
        for name in ("elasticity", "lower", "upper", "tolerance_1pct", "tolerance_5pct", "value"):
            same_numbers(self, frame[name].to_numpy(dtype=float), entries, name)
        # RTFactor, ts and tw scale every time of the model: their elasticities add up to 1.
        at_4 = frame[frame["p"] == 4].set_index("name")
        self.assertAlmostEqual(at_4.loc[["RTFactor", "ts", "tw"], "elasticity"].sum(), 1.0, delta=0.01)

    def test_to_pandas_has_the_quantiles(self):
        analysis = pdl_scale.analyze(NEIGHBOR, p=[1, 4], methods=("approx", "mc"), quantiles=(50, 99.9), samples=2000)
        frame = analysis.to_pandas()
        rows = analysis.json["results"]
        levels = analysis.json["inputs"]["options"]["quantiles"]  # 99.9 / 100 is 0.9990000000000001
        for level, name in zip(levels, ("q50", "q99.9")):
            for suffix, field in (("", "estimate"), ("_lower", "lower"), ("_upper", "upper")):
                expected = [next((math.nan if q[field] is None else q[field] for q in (r["quantiles"] or [])
                                  if q["level"] == level), math.nan) for r in rows]
                self.assertTrue(np.array_equal(frame[name + suffix].to_numpy(dtype=float), np.array(expected),
                                               equal_nan=True), name + suffix)
        self.assertFalse(math.isnan(frame["q99.9"][0]))

    def test_text_is_the_file(self):
        with open(NEIGHBOR) as f:
            program = f.read()
        with open(CLUSTER) as f:
            machine = f.read()
        from_text = pdl_scale.analyze(program, machine=machine, p=[1, 4, 10])
        from_files = pdl_scale.analyze(NEIGHBOR, machine=CLUSTER, p=[1, 4, 10])
        for name in ("estimate", "lower", "upper", "speedup"):
            self.assertTrue(np.array_equal(from_text[name], from_files[name], equal_nan=True), name)

    def test_to_pandas(self):
        frame = pdl_scale.analyze(NEIGHBOR, p=[1, 2], sweep={"columns": [10, 20]}).to_pandas()
        self.assertEqual(len(frame), 8)
        for column in ("machine", "columns", "p", "method", "estimate", "speedup", "efficiency"):
            self.assertIn(column, frame.columns)
        self.assertEqual(sorted(set(frame["columns"])), [10, 20])

    def test_the_gil_is_released_during_an_analysis(self):
        ticks = 0
        done = threading.Event()
        worker = threading.Thread(target=lambda: (pdl_scale.analyze(NEIGHBOR, p=range(1, 9), methods=("exact",)),
                                                  done.set()))
        start = time.monotonic()
        worker.start()
        while not done.is_set() and time.monotonic() - start < 60:
            ticks += 1
        worker.join()
        # Python kept running in this thread while the analysis ran in the other.
        self.assertGreater(ticks, 1000)

    def test_progress_hears_every_model_and_can_stop(self):
        # Every model told, ending at total of total; the figures those of the run without it.
        heard = []
        analysis = pdl_scale.analyze(NEIGHBOR, p=range(1, 9), methods=("approx", "mc"), samples=20000,
                                     progress=lambda done, total: heard.append((done, total)))
        self.assertTrue(heard)
        self.assertEqual(heard[-1], (8.0, 8))
        self.assertTrue(all(a[0] <= b[0] for a, b in zip(heard, heard[1:])))
        plain = pdl_scale.analyze(NEIGHBOR, p=range(1, 9), methods=("approx", "mc"), samples=20000)
        same_numbers(self, analysis["estimate"], [{"estimate": e} for e in plain["estimate"]], "estimate")
        # False after the first model: the rows of the counts solved whole, marked interrupted.
        stopped = pdl_scale.analyze(NEIGHBOR, p=range(1, 9), methods=("approx", "mc"), samples=200000, threads=1,
                                    progress=lambda done, total: done < 1.0)
        self.assertLess(len(set(stopped["p"])), 8)
        self.assertIn("interrupted", [note["kind"] for note in stopped.notes])
        # An exception stops the run and is raised here.
        def fail(done, total):
            raise ValueError("enough")
        with self.assertRaisesRegex(ValueError, "enough"):
            pdl_scale.analyze(NEIGHBOR, p=range(1, 9), methods=("approx", "mc"), samples=200000, threads=1,
                              progress=fail)

    def test_progress_in_loss_breakdown_and_sensitivity(self):
        # Issue 53: docs/python.md lists progress= for these too. Each hears its run to the end;
        # sensitivity's total is the models' and one per (case, p) row after them.
        totals = {}
        for function in (pdl_scale.loss, pdl_scale.breakdown, pdl_scale.sensitivity):
            heard = []
            function(NEIGHBOR, p=[1, 2, 4], methods=("approx",), progress=lambda done, t: heard.append((done, t)))
            self.assertTrue(heard, function.__name__)
            done, total = heard[-1]
            self.assertEqual(done, total, function.__name__)
            totals[function.__name__] = total
        self.assertEqual(totals["sensitivity"], totals["breakdown"] + 3)


class Errors(unittest.TestCase):
    def test_check_gives_the_location(self):
        with self.assertRaises(pdl_scale.CheckError) as raised:
            pdl_scale.check("PROGRAM NAME IS 'x';\nEXECUTION PATTERN IS w;\nWORK PHASE w IS:\n  PARALLELIZATION SCHEME IS NONSENSE;\nEND;\n")
        diagnostic = raised.exception.diagnostics[0]
        self.assertEqual(diagnostic.file, "<program>.pdl")
        self.assertEqual(diagnostic.line, 4)
        self.assertGreater(diagnostic.column, 1)
        self.assertEqual(diagnostic.severity, "error")
        self.assertEqual(pdl_scale.check(NEIGHBOR), [])

    def test_a_bad_value_raises_with_the_location(self):
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.analyze(NEIGHBOR, p=[1, 2], set={"columns": -3})
        diagnostic = raised.exception.diagnostics[0]
        self.assertEqual((diagnostic.file, diagnostic.line), (NEIGHBOR, 20))
        self.assertIn("problem-size extent", diagnostic.message)

    def test_a_missing_file_raises(self):
        with self.assertRaises(pdl_scale.PdlError) as raised:
            pdl_scale.analyze("examples/no/such.pdl")
        self.assertIn("cannot open", raised.exception.text)

    def test_an_unknown_method_raises_with_the_commands_words(self):
        with self.assertRaises(pdl_scale.AnalysisError) as raised:
            pdl_scale.analyze(NEIGHBOR, methods=("nonsense",))
        self.assertIn("unknown method 'nonsense'", raised.exception.text)

    def test_every_error_class_raises_with_the_commands_text(self):
        # Each kind of refusal the command has (issue 29), through Python: the exception's text is
        # what the command prints on stderr for the very same command line, and its status is 2.
        calls = [
            ("option value the parser refuses", lambda: pdl_scale.analyze(NEIGHBOR, p=[2], memory="zz")),
            ("unknown method", lambda: pdl_scale.analyze(NEIGHBOR, p=[2], methods=("nonsense",))),
            ("processor count out of range", lambda: pdl_scale.analyze(NEIGHBOR, p=[0])),
            ("unknown variable", lambda: pdl_scale.analyze(NEIGHBOR, p=[2], set={"colums": 3})),
            ("value a scaling rule refuses", lambda: pdl_scale.analyze(NEIGHBOR, p=[2], set={"columns": -3})),
            ("missing file", lambda: pdl_scale.analyze("examples/no/such.pdl", p=[2])),
            ("program with errors", lambda: pdl_scale.check(broken)),
            ("variable without a value", lambda: pdl_scale.analyze("tests/app/data/no_default.pdl", p=[2])),
            ("machine with errors", lambda: pdl_scale.analyze(NEIGHBOR, machine="tests/app/data/broken.machine")),
            ("estimate past the time limit",
             lambda: pdl_scale.analyze(NEIGHBOR, p=[64], methods=("mc",), samples=10**9, set={"iterations": 10**4})),
            ("runs file with errors",
             lambda: pdl_scale.validate("examples/calibration/tasks.pdl", "tests/app/data/runs/negative_time.csv",
                                        machine="examples/calibration/barrier.machine")),
            ("name to fit unknown", lambda: pdl_scale.calibrate("examples/calibration/tasks.pdl",
                                                                 "examples/calibration/train.csv", ["nothing"],
                                                                 machine="examples/calibration/barrier.machine")),
            ("isoefficiency target out of range", lambda: pdl_scale.isoefficiency(NEIGHBOR, 1.5, "columns")),
            ("isospeed without a size variable", lambda: pdl_scale.isospeed(NEIGHBOR, "base", "nothing")),
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".pdl", delete=False) as f:
            f.write("PROGRAM NAME IS 'broken';\nEXECUTION PATTERN IS ;\n")
            broken = f.name
        self.addCleanup(os.unlink, broken)
        real = pdl_scale._pdl_scale

        class Recording:
            arguments = None

            def run(self, arguments, texts, progress=None):
                Recording.arguments = list(arguments)
                return real.run(arguments, texts, progress)

        pdl_scale._pdl_scale = Recording()
        try:
            for what, call in calls:
                with self.subTest(what):
                    with self.assertRaises(pdl_scale.PdlError) as raised:
                        call()
                    done = subprocess.run([TOOL, *Recording.arguments], capture_output=True, text=True)
                    self.assertEqual(done.returncode, 2)
                    self.assertTrue(done.stderr)
                    self.assertEqual(raised.exception.text, done.stderr)
        finally:
            pdl_scale._pdl_scale = real

    def test_fit_refuses_negative_samples(self):
        with self.assertRaises(ValueError):
            pdl_scale.fit([1.0, -2.0])

    def test_fit_refuses_what_the_command_refuses(self):
        # Runtimes beyond [1e-100, 1e100] (issue 31): the command exits 2 on the same values.
        for values in ([1e308, 1e307, 5e307], [1e-308, 2e-308, 3e-308]):
            with self.assertRaisesRegex(ValueError, r"a runtime must be 0 or lie in \[1e-100, 1e\+100\]"):
                pdl_scale.fit(values)
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as data:
                data.write("\n".join(repr(v) for v in values) + "\n")
            try:
                done = subprocess.run([TOOL, "fit", data.name], capture_output=True, text=True)
            finally:
                os.unlink(data.name)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn("a runtime must be 0 or lie in [1e-100, 1e+100]", done.stderr)


class Fit(unittest.TestCase):
    def test_fit_is_the_commands(self):
        samples = np.random.default_rng(2026).gamma(8.0, 1.0, size=4000)
        fits = pdl_scale.fit(samples)
        # Erlang-8 samples: a family with Erlang phases fits them best, within the KS noise of 4000 samples.
        self.assertIn("ERLANG", fits[0]["pdl"])
        self.assertLess(fits[0]["ks"], 0.03)
        self.assertTrue(all(a["ks"] <= b["ks"] for a, b in zip(fits, fits[1:])))
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("\n".join(repr(float(v)) for v in samples) + "\n")
        try:
            text = subprocess.run([TOOL, "fit", f.name], capture_output=True, text=True, check=True).stdout
        finally:
            os.unlink(f.name)
        listed = [line.strip()[len("SUBTASK RUNTIME IS "):-1] for line in text.splitlines()
                  if line.strip().startswith("SUBTASK RUNTIME IS ")]
        self.assertEqual(listed, [one["pdl"] for one in fits])  # the same fits, in the same order



class Import(unittest.TestCase):
    def test_import_is_the_commands(self):
        goal = "validation/goal/dissemination_16.goal"
        imported = pdl_scale.import_program("goal", goal)
        command = subprocess.run([TOOL, "import", "goal", goal], capture_output=True, text=True, check=True)
        self.assertEqual(imported.program, command.stdout)  # the same program, byte for byte
        self.assertEqual(imported.files, [])
        instance = "validation/wfinstances/srasearch-chameleon-10a-001.json"
        with tempfile.TemporaryDirectory() as directory:
            written = pdl_scale.import_program("wfformat", instance, output=os.path.join(directory, "flow.pdl"))
            self.assertIsNone(written.program)
            self.assertEqual(written.files[-1], os.path.join(directory, "flow.pdl"))
            self.assertTrue(all(os.path.exists(path) for path in written.files))
            self.assertTrue(any(path.endswith(".runs.csv") for path in written.files))
            # The reader's notes, as the command prints them on standard error.
            self.assertTrue(any("renamed" in note.message for note in written.notes), written.notes)

    def test_a_refused_input_raises_with_the_commands_text(self):
        with tempfile.NamedTemporaryFile("w", suffix=".goal", delete=False) as f:
            f.write("num_ranks 2\nrank 0 {\n  send 8b to 1 tag 3\n}\n")
        try:
            done = subprocess.run([TOOL, "import", "goal", f.name], capture_output=True, text=True)
            with self.assertRaises(pdl_scale.CheckError) as raised:
                pdl_scale.import_program("goal", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(raised.exception.text, done.stderr)
        self.assertEqual((raised.exception.diagnostics[0].line, raised.exception.diagnostics[0].column), (3, 3))
        with self.assertRaises(pdl_scale.CheckError):
            pdl_scale.import_program("wfformat", "validation/wfinstances/srasearch-chameleon-10a-001.json")
        with self.assertRaises(TypeError):
            pdl_scale.import_program("goal", "x.goal", drop_auxiliary="yes")
        with self.assertRaises(ValueError):
            pdl_scale.import_program("--help", "x.goal")

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]])
