"""pdl-scale in a notebook: predicted runtimes, speedups and efficiencies as arrays.

The figures come from the same library and the same code paths as the ``pdl-scale`` command
(``_pdl_scale.run`` runs a command line in this process, with the GIL released), so they are the
command's figures to the last bit: ``analyze`` is ``pdl-scale PROGRAM --format json`` with its
arguments, ``check`` is ``--check``, ``fit`` is ``pdl-scale fit``, ``import_program`` is
``pdl-scale import``, and every other mode has its
function (``calibrate``, ``validate``, ``predict``, ``isoefficiency``, ``isospeed``, ``loss``,
``breakdown``). docs/python.md has a tour.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

try:
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the interpreter
    raise ImportError(
        "pdl_scale needs NumPy, which this Python interpreter lacks: run Debian's /usr/bin/python3 "
        "(scripts/setup installs python3-numpy and python3-pandas), or install numpy for this one") from missing

from . import _pdl_scale

__all__ = ["analyze", "calibrate", "validate", "predict", "isoefficiency", "isospeed", "loss", "breakdown",
           "sensitivity", "check", "fit", "import_program", "Imported", "Analysis", "Calibration", "Diagnostic",
           "PdlError", "CheckError", "AnalysisError"]

Number = Union[int, float]

# A program or machine given as text gets this name in the diagnostics.
_PROGRAM_TEXT = "<program>.pdl"
_MACHINE_TEXT = "<machine>.machine"


@dataclass(frozen=True)
class Diagnostic:
    """One message of the checker, as `file:line:column: severity: message`."""

    file: str
    line: int
    column: int
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


class PdlError(Exception):
    """pdl-scale refused the input (the command's exit status 2). `text` is its whole message."""

    def __init__(self, text: str, diagnostics: Sequence[Diagnostic] = ()):
        self.text = text
        self.diagnostics = list(diagnostics)
        super().__init__(text.strip())


class CheckError(PdlError):
    """The program or machine has errors; `diagnostics` locates each (file, line, column)."""


class AnalysisError(PdlError):
    """The analysis could not run (a value a scaling rule refuses, a limit); `text` says why."""


_DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|note): (?P<message>.*)$")


def _diagnostics(text: str) -> list[Diagnostic]:
    found = []
    for line in text.splitlines():
        match = _DIAGNOSTIC.match(line)
        if match:
            found.append(Diagnostic(match["file"], int(match["line"]), int(match["column"]), match["severity"],
                                    match["message"]))
    return found


# Every argument reaches the command as text through the helpers below, which raise TypeError for
# a value of the wrong type and ValueError for one no command line can hold, so that nothing else
# (an OverflowError, an integer taken as a file descriptor, a string iterated as its characters,
# a name read as an option) comes out of a call.

def _path(value, what: str) -> str:
    """A file's path (str or os.PathLike); one that starts with '-' is made './-...' so that the
    command reads it as a file, never as an option."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{what}: expected a file's path, got {type(value).__name__}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise TypeError(f"{what}: expected a file's path as text, got {type(path).__name__}")
    if "\0" in path:
        raise ValueError(f"{what}: a path cannot hold a NUL character")
    return os.path.join(".", path) if path.startswith("-") else path


def _paths(values, what: str) -> list[str]:
    """Several paths; a single path (a str) is one, not its characters."""
    if isinstance(values, (str, os.PathLike)):
        return [_path(values, what)]
    return [_path(v, what) for v in _iterable(values, what)]


def _iterable(values, what: str) -> list:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{what}: expected a list, got {type(values).__name__}")
    return list(values)


def _name(value, what: str) -> str:
    """A variable's or constant's name as the command reads it."""
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a name, got {type(value).__name__}")
    if not value or value.startswith("-") or any(c in value for c in "\0\n=,"):
        raise ValueError(f"{what}: {value!r} is not a name")
    return value


def _source(value, what: str, text_name: str, texts: dict[str, str]) -> str:
    """A path as it is; text (several lines, or a statement) is served from memory as `text_name`."""
    if isinstance(value, str) and ("\n" in value or ";" in value) and not os.path.exists(value):
        texts[text_name] = value
        return text_name
    return _path(value, what)


def _number(value, what: str) -> str:
    """A number as the command's text: whole numbers exactly, others to the last bit."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__}")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{what}: {x!r} is not a finite number")
    return str(int(x)) if x.is_integer() and abs(x) < 2.0 ** 53 else repr(x)


def _whole(value, what: str) -> str:
    """A whole number (a count, a seed) as the command's text; never rounded."""
    text = _number(value, what)
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"{what}: {value!r} is not a whole number")
    return text


def _values(values: Iterable[Number], what: str = "value") -> str:
    return ",".join(_number(v, what) for v in _iterable(values, what))


def _processor_counts(p: Iterable[int]) -> str:
    """The --p list: whole numbers, at least one; anything else is a ValueError, never rounded."""
    counts = []
    for n in _iterable(p, "p"):
        if not isinstance(n, numbers.Real):
            raise TypeError(f"p: {n!r} is not a processor count")
        if isinstance(n, bool) or not math.isfinite(float(n)) or not float(n).is_integer():
            raise ValueError(f"p: {n!r} is not a whole processor count")
        counts.append(str(int(n)))
    if not counts:
        raise ValueError("p: no processor count (give at least one, e.g. p=range(1, 17))")
    return ",".join(counts)


def _arguments(program: str, machine: Optional[str], settings: Optional[Mapping[str, Number]],
               texts: dict[str, str]) -> list[str]:
    arguments = [_source(program, "program", _PROGRAM_TEXT, texts)]
    if machine is not None:
        arguments += ["--machine", _source(machine, "machine", _MACHINE_TEXT, texts)]
    if settings is not None and not isinstance(settings, Mapping):
        raise TypeError(f"set: expected a mapping of names to values, got {type(settings).__name__}")
    for name, value in (settings or {}).items():
        arguments += ["--set", f"{_name(name, 'set')}={_number(value, f'set {name}')}"]
    return arguments


def _run(arguments: list[str], texts: dict[str, str], error: type, progress=None) -> str:
    status, out, err = _pdl_scale.run(arguments, texts, progress)
    if status == 0 or (status == 130 and progress is not None):  # 130: stopped by progress, rows kept
        return out
    if status == 2:
        raise error(err, _diagnostics(err))
    raise RuntimeError(f"pdl-scale: internal failure (status {status}): {err.strip()}")


class Analysis:
    """The rows of an analysis, one per (machine, swept values, p, method), as NumPy arrays.

    Columns: ``machine``, ``sweep`` (a dict per row), ``p``, ``method``, ``estimate``, ``lower``,
    ``upper``, ``interval_kind``, ``speedup``, ``efficiency``, ``speedup_lower``, ``speedup_upper``
    (NaN where the report has null: an unsolved method, a bound pair with no single figure),
    ``detail``. Times are in ``unit`` (``"us"`` unless the program says otherwise).
    ``predictions`` are the best-justified figure per p (the table's prediction column, with
    ``efficiency_lower``/``efficiency_upper`` and ``own_solve``), ``summary`` the least runtime and,
    per efficiency threshold, the largest p that surely and possibly reaches it per configuration,
    ``notes`` what the run says besides its figures (methods not computed, caveats, far-off
    approximations: ``kind``, ``machine``, ``sweep``, ``p``, ``method``, ``text``), ``quantiles`` per
    row (level -> estimate) where the method gives them, and ``json`` the command's whole JSON report.
    """

    _NUMBERS = ("estimate", "lower", "upper", "speedup", "efficiency", "speedup_lower", "speedup_upper",
                "efficiency_lower", "efficiency_upper")

    def __init__(self, report: dict):
        self.json: dict = report
        self.unit: str = report["time_unit"]
        self.summary: list[dict] = report["summary"]
        self.notes: list[dict] = report["notes"]
        self.rows: dict[str, np.ndarray] = self._columns(report["results"])
        self.predictions: dict[str, np.ndarray] = self._columns(report["predictions"])
        self.quantiles: list[dict[float, float]] = [
            {q["level"]: q["estimate"] for q in (row.get("quantiles") or [])} for row in report["results"]]

    @classmethod
    def _columns(cls, rows: list[dict]) -> dict[str, np.ndarray]:
        columns: dict[str, np.ndarray] = {
            "machine": np.array([r["machine"] for r in rows], dtype=object),
            "sweep": np.array([r["sweep"] for r in rows], dtype=object),
            "p": np.array([r["p"] for r in rows], dtype=np.int64),
            "method": np.array([r["method"] for r in rows], dtype=object),
            "interval_kind": np.array([r.get("interval_kind") for r in rows], dtype=object),
        }
        for name in cls._NUMBERS:
            columns[name] = np.array([np.nan if r.get(name) is None else r[name] for r in rows], dtype=np.float64)
        if rows and "detail" in rows[0]:
            columns["detail"] = np.array([r.get("detail") for r in rows], dtype=object)
        if rows and "own_solve" in rows[0]:
            columns["own_solve"] = np.array([bool(r.get("own_solve")) for r in rows], dtype=bool)
        return columns

    def __len__(self) -> int:
        return len(self.rows["p"])

    def __getitem__(self, column: str) -> np.ndarray:
        return self.rows[column]

    def method(self, name: str) -> dict[str, np.ndarray]:
        """The rows of one method ("approx", "bounds", "mc", "exact"), every column."""
        keep = self.rows["method"] == name
        return {column: values[keep] for column, values in self.rows.items()}

    def to_pandas(self):
        """The rows as a pandas DataFrame (needs pandas), swept variables as columns of their own,
        and per quantile level asked for (``quantiles=``) the columns ``q50``, ``q50_lower`` and
        ``q50_upper`` (the level in percent; NaN where the method gives no quantiles)."""
        import pandas as pd

        frame = pd.DataFrame({k: v for k, v in self.rows.items() if k != "sweep"})
        for name in sorted({n for sweep in self.rows["sweep"] for n in sweep}):
            frame.insert(1, name, [sweep.get(name, np.nan) for sweep in self.rows["sweep"]])
        for level in self.json["inputs"]["options"].get("quantiles") or []:
            for suffix, field in (("", "estimate"), ("_lower", "lower"), ("_upper", "upper")):
                frame[f"q{_percent(level)}{suffix}"] = [_quantile(row, level, field) for row in self.json["results"]]
        return frame

    def __repr__(self) -> str:
        methods = sorted(set(self.rows["method"]))
        p = self.rows["p"]
        return (f"<pdl_scale.Analysis: {len(self)} rows, p = {p.min() if len(p) else '-'}..{p.max() if len(p) else '-'}, "
                f"methods {', '.join(methods)}, times in {self.unit}>")


def _percent(level: float) -> str:
    """0.5 -> "50", 0.999 -> "99.9": a quantile level as the reports name it."""
    return f"{100.0 * level:.10g}"


def _quantile(row: dict, level: float, field: str) -> float:
    for one in row.get("quantiles") or []:
        if one["level"] == level:
            return np.nan if one[field] is None else one[field]
    return np.nan


def analyze(program: str, machine: Optional[str] = None, p: Iterable[int] = range(1, 65),
            methods: Sequence[str] = ("approx", "bounds"), set: Optional[Mapping[str, Number]] = None,
            sweep: Optional[Mapping[str, Iterable[Number]]] = None, seed: int = 1, threads: int = 0,
            quantiles: Sequence[float] = (), samples: Optional[int] = None, memory: Optional[str] = None,
            allow_long: bool = False, prediction_budget: Optional[float] = None,
            efficiency: Sequence[float] = (), progress: Optional[Callable[[float, int], Any]] = None) -> Analysis:
    """Predicts the program's runtime on each processor count by each method.

    program, machine: a file path, or the text itself (a text of several lines or with a ``;``).
    p: the processor counts (ascending). methods: "approx", "bounds", "mc", "exact", "auto".
    set: variable (or machine constant) values. sweep: name -> values, every combination analysed.
    seed: of Monte Carlo. threads: 0 for every core. quantiles: levels in percent, e.g. (50, 95).
    samples: Monte Carlo's sample count (else its precision rule). memory: the run's memory
    budget, e.g. "4G" (else a quarter of the machine's). allow_long: run an analysis estimated
    past the command's time limit. prediction_budget: seconds each p may spend on the
    prediction's own solve (the command's --prediction-budget; 0 turns it off). efficiency: the
    summary's thresholds, e.g. (0.7, 0.9) (the command's --efficiency). progress: called as
    ``progress(done, total)`` while the analysis runs (models solved, fractional, of the total; at
    most every 100 ms and after each model, from the thread that solves, with the GIL held); a
    falsy answer other than None stops it, and the Analysis then holds the processor counts solved
    whole with an ``interrupted`` note; an exception it raises stops it too and is raised here.

    Raises CheckError (with located diagnostics) for a program or machine with errors and
    AnalysisError for an analysis the command refuses.
    """
    texts: dict[str, str] = {}
    arguments = _analysis_arguments(program, machine, p, methods, set, sweep, seed, threads, quantiles, samples,
                                    memory, allow_long, prediction_budget, efficiency, texts)
    return Analysis(json.loads(_run(arguments, texts, AnalysisError, progress)))


def _memory(memory) -> list[str]:
    """--memory SIZE, or nothing for None."""
    if memory is None:
        return []
    if not isinstance(memory, (str, numbers.Integral)) or isinstance(memory, bool):
        raise TypeError(f"memory: expected a size such as '4G', got {type(memory).__name__}")
    return ["--memory", _name(str(memory), "memory")]


def _analysis_arguments(program, machine, p, methods, set, sweep, seed, threads, quantiles, samples, memory, allow_long,
                        prediction_budget, efficiency, texts: dict[str, str]) -> list[str]:
    """The command line of ``analyze`` (and of ``loss`` and ``breakdown``, which add their flag)."""
    arguments = _arguments(program, machine, set, texts)
    arguments += ["--p", _processor_counts(p), "--method", ",".join(_name(m, "methods") for m in _iterable(methods, "methods")),
                  "--seed", _whole(seed, "seed"), "--threads", _whole(threads, "threads"), "--format", "json", "--quiet"]
    if sweep is not None and not isinstance(sweep, Mapping):
        raise TypeError(f"sweep: expected a mapping of names to values, got {type(sweep).__name__}")
    for name, values in (sweep or {}).items():
        arguments += ["--sweep", f"{_name(name, 'sweep')}={_values(values, f'sweep {name}')}"]
    if quantiles:
        arguments += ["--quantiles", _values(quantiles, "quantiles")]
    if samples is not None:
        arguments += ["--samples", _whole(samples, "samples")]
    arguments += _memory(memory)
    if prediction_budget is not None:
        budget = _number(prediction_budget, "prediction_budget")
        arguments += ["--prediction-budget", "0" if float(budget) == 0 else f"{budget}s"]
    if efficiency:
        arguments += ["--efficiency", _values(efficiency, "efficiency")]
    if allow_long:
        arguments.append("--allow-long")
    return arguments


def loss(program: str, machine: Optional[str] = None, p: Iterable[int] = range(1, 65),
         methods: Sequence[str] = ("approx", "bounds"), set: Optional[Mapping[str, Number]] = None,
         seed: int = 1, threads: int = 0, samples: Optional[int] = None, memory: Optional[str] = None,
         allow_long: bool = False, progress: Optional[Callable[[float, int], Any]] = None):
    """The loss analysis (``pdl-scale PROGRAM --loss``, the paper's section 5): per phase alone
    (every other phase costing nothing), p and method, its runtime and speedup and its share of
    the whole program's. A DataFrame with ``machine``, ``phase``, ``p``, ``method``, ``estimate``,
    ``lower``, ``upper``, ``interval_kind``, ``speedup``, ``efficiency``, ``speedup_lower``,
    ``speedup_upper`` and ``share`` (NaN where the report has null); the command's whole report
    (whose ``results`` are the whole program's rows) in its ``attrs["json"]``. progress: as
    analyze's."""
    texts: dict[str, str] = {}
    arguments = _analysis_arguments(program, machine, p, methods, set, None, seed, threads, (), samples, memory,
                                    allow_long, None, (), texts) + ["--loss"]
    report = json.loads(_run(arguments, texts, AnalysisError, progress))
    columns = Analysis._columns(report["loss"])
    frame = _frame({"machine": columns.pop("machine"), "phase": [r["phase"] for r in report["loss"]],
                    **{k: v for k, v in columns.items() if k not in ("sweep", "efficiency_lower", "efficiency_upper")},
                    "share": [np.nan if r.get("share") is None else r["share"] for r in report["loss"]]})
    frame.attrs["json"] = report
    return frame


_BREAKDOWN_PARTS = ("computation", "communication", "synchronisation", "idle")


def breakdown(program: str, machine: Optional[str] = None, p: Iterable[int] = range(1, 65),
              methods: Sequence[str] = ("approx", "bounds"), set: Optional[Mapping[str, Number]] = None,
              sweep: Optional[Mapping[str, Iterable[Number]]] = None, seed: int = 1, threads: int = 0,
              samples: Optional[int] = None, memory: Optional[str] = None, allow_long: bool = False,
              prediction_budget: Optional[float] = None, progress: Optional[Callable[[float, int], Any]] = None):
    """Where the time goes (``pdl-scale PROGRAM --breakdown``, docs/cli.md "Where the time goes"):
    per configuration and p, the prediction per processor split into ``computation``,
    ``communication``, ``synchronisation`` and ``idle``, each with ``_lower`` and ``_upper``
    (NaN where the report has null), beside the prediction's ``method`` and ``estimate``. A
    DataFrame, each swept variable a column; the command's whole report in ``attrs["json"]``.
    progress: as analyze's."""
    texts: dict[str, str] = {}
    arguments = _analysis_arguments(program, machine, p, methods, set, sweep, seed, threads, (), samples, memory,
                                    allow_long, prediction_budget, (), texts) + ["--breakdown"]
    report = json.loads(_run(arguments, texts, AnalysisError, progress))
    rows = []
    for one in report["predictions"]:
        row = {"machine": one.get("machine"), **(one.get("sweep") or {}), "p": one["p"], "method": one.get("method"),
               "estimate": np.nan if one.get("estimate") is None else one["estimate"]}
        for part in _BREAKDOWN_PARTS:
            figures = (one.get("breakdown") or {}).get(part) or {}
            for suffix, field in (("", "estimate"), ("_lower", "lower"), ("_upper", "upper")):
                row[part + suffix] = np.nan if figures.get(field) is None else figures[field]
        rows.append(row)
    frame = _frame(rows)
    frame.attrs["json"] = report
    return frame


_SENSITIVITY_FIELDS = ("name", "owner", "value", "method", "interval_kind", "whole_steps", "rank", "elasticity",
                       "lower", "upper",
                       "tolerance_1pct", "tolerance_5pct", "tolerance_1pct_unbounded", "tolerance_5pct_unbounded",
                       "why_not")


def sensitivity(program: str, machine: Optional[str] = None, p: Iterable[int] = range(1, 65),
                methods: Sequence[str] = ("approx", "bounds"), set: Optional[Mapping[str, Number]] = None,
                sweep: Optional[Mapping[str, Iterable[Number]]] = None, seed: int = 1, threads: int = 0,
                samples: Optional[int] = None, memory: Optional[str] = None, allow_long: bool = False,
                prediction_budget: Optional[float] = None, progress: Optional[Callable[[float, int], Any]] = None):
    """What limits scaling (``pdl-scale PROGRAM --sensitivity``, docs/sensitivity.md): per
    configuration, p and numeric constant, the elasticity d ln T / d ln x of the prediction with
    its ``lower`` and ``upper`` ends, and the factors x may grow by before T grows 1% and 5%
    (``tolerance_1pct``, ``tolerance_5pct``; NaN where there is none, ``..._unbounded`` True when T
    does not grow that much within a factor 10**6). A DataFrame with ``machine``, each swept
    variable, ``p`` and the fields of the report's ``sensitivities`` entries; the command's whole
    report in ``attrs["json"]``. progress: as analyze's (the constants' rows count after the
    models, one each, as the command's bar counts them)."""
    texts: dict[str, str] = {}
    arguments = _analysis_arguments(program, machine, p, methods, set, sweep, seed, threads, (), samples, memory,
                                    allow_long, prediction_budget, (), texts) + ["--sensitivity"]
    report = json.loads(_run(arguments, texts, AnalysisError, progress))
    rows = []
    for one in report["sensitivities"]:
        row = {"machine": one.get("machine"), **(one.get("sweep") or {}), "p": one["p"]}
        for field in _SENSITIVITY_FIELDS:
            value = one.get(field)
            row[field] = np.nan if value is None and field not in ("name", "why_not", "owner", "method",
                                                                   "interval_kind", "whole_steps") else value
        rows.append(row)
    frame = _frame(rows)
    frame.attrs["json"] = report
    return frame


def _frame(rows: list[dict]):
    import pandas as pd

    return pd.DataFrame(rows)


def _interval_parts(prediction: dict) -> dict[str, Any]:
    """A prediction interval's figures, flat: the whole interval, its parts and where the setting
    lies relative to the calibration (``distance``, ``extrapolated``; None without a fit)."""
    placement = prediction.get("placement")
    return {"mean": prediction["mean"],
            "lower": prediction["interval"][0], "upper": prediction["interval"][1],
            "task_lower": prediction["task"][0], "task_upper": prediction["task"][1],
            "parameters_lower": prediction["parameters"]["interval"][0],
            "parameters_upper": prediction["parameters"]["interval"][1],
            "parameters_standard_error": prediction["parameters"]["standard_error"],
            "unexplained": prediction["unexplained"],
            "distance": None if placement is None else placement["distance"],
            "extrapolated": prediction.get("extrapolated")}


class Calibration:
    """A model fitted to measured runs, its predictions with intervals, and its validation.

    ``parameters``: a DataFrame, one row per fitted name (``name``, ``value``, ``standard_error``,
    ``start``, ``kind``); ``calibration`` the fit's figures (R², residual standard error, the
    correlation, ...); ``predictions``: one row per p of ``p=``, the interval and its three parts
    (``task_*``: task randomness, ``parameters_*``: parameter uncertainty, ``unexplained``);
    ``validation``: one row per run of ``validate=`` (``measured``, ``predicted``, ``error``,
    ``inside``, the interval, the bounds where asked for) and ``validation_summary`` (Clement's
    errors, the coverage); ``json`` the command's whole report (docs/calibration.md).
    """

    def __init__(self, report: dict):
        self.json: dict = report
        self.level: Optional[float] = report.get("level")
        self.time_unit: Optional[str] = report.get("time_unit")
        self.parameters = _frame(report.get("parameters") or [])
        self.calibration: Optional[dict] = report.get("calibration")
        self.predictions = _frame([{"p": one["p"], **_interval_parts(one)} for one in report.get("predictions") or []])
        validation = report.get("validation")
        self.validation = None if validation is None else _frame([
            {"line": run["line"], "p": run["p"], **run["values"], "repetition": run["repetition"],
             "measured": run["measured"], "predicted": run["predicted"], "error": run["error"],
             "inside": run["inside"], "lower": run["prediction"]["interval"][0],
             "upper": run["prediction"]["interval"][1],
             "distance": _interval_parts(run["prediction"])["distance"],
             "extrapolated": run["prediction"].get("extrapolated"), "lower_bound": run.get("lower_bound"),
             "upper_bound": run.get("upper_bound")} for run in validation["runs"]])
        self.validation_summary: Optional[dict] = None if validation is None else validation["summary"]


def _measured_arguments(program: str, machine: Optional[str], set: Optional[Mapping[str, Number]],
                        set_files: Iterable[str], texts: dict[str, str]) -> list[str]:
    arguments = _arguments(program, machine, set, texts)
    for file in _paths(set_files, "set_files"):
        arguments += ["--set-file", file]
    return arguments


def _fit_list(names: list[str], ranges: Optional[Mapping[str, tuple[Number, Number]]]) -> str:
    """--fit's value: each name, as NAME=LOW..HIGH where ``ranges`` gives it one."""
    ranges = dict(ranges or {})
    for name in ranges:
        if name not in names:
            raise ValueError(f"ranges: {name!r} is not a fitted name")
    entries = []
    for name in names:
        if name in ranges:
            low, high = _iterable(ranges[name], f"ranges[{name!r}]")
            name = f"{name}={_number(low, f'ranges[{name!r}]')}..{_number(high, f'ranges[{name!r}]')}"
        entries.append(name)
    return ",".join(entries)


def calibrate(program: str, runs: str, fit: Sequence[str], machine: Optional[str] = None,
              set: Optional[Mapping[str, Number]] = None, p: Optional[Iterable[int]] = None,
              validate: Optional[str] = None, interval: Optional[float] = None, draws: Optional[int] = None,
              seed: int = 1, set_files: Iterable[str] = (),
              ranges: Optional[Mapping[str, tuple[Number, Number]]] = None,
              time_unit: Optional[str] = None) -> Calibration:
    """Fits program variables or machine constants to measured runs (``pdl-scale PROGRAM
    --calibrate RUNS --fit NAMES``), predicts at each p of ``p`` with an interval (``--p``,
    ``--interval`` percent, ``--draws``, ``--seed``), and scores the runs of ``validate``.
    ``ranges`` keeps a fitted name within (LOW, HIGH) (``--fit NAME=LOW..HIGH``); ``time_unit``
    (``ns``, ``us``, ``ms``, ``s``; ``--time-unit``) the unit of the report's times. ``runs`` and
    ``validate`` are runs files (docs/calibration.md). Raises AnalysisError with the command's text
    for input it refuses."""
    given = fit.split(",") if isinstance(fit, str) else _iterable(fit, "fit")  # "tc,ts" as the command writes it
    names = [_name(n, "fit") for n in given]
    if not names:
        raise ValueError("fit: no name to fit (give the program variables or machine constants, e.g. ['tc'])")
    texts: dict[str, str] = {}
    arguments = _measured_arguments(program, machine, set, set_files, texts)
    arguments += ["--calibrate", _path(runs, "runs"), "--fit", _fit_list(names, ranges), "--seed",
                  _whole(seed, "seed"), "--format", "json"]
    if p is not None:
        arguments += ["--p", _processor_counts(p)]
    if validate is not None:
        arguments += ["--validate", _path(validate, "validate")]
    if interval is not None:
        arguments += ["--interval", _number(interval, "interval")]
    if draws is not None:
        arguments += ["--draws", _whole(draws, "draws")]
    if time_unit is not None:
        arguments += ["--time-unit", _name(time_unit, "time_unit")]
    return Calibration(json.loads(_run(arguments, texts, AnalysisError)))


def predict(program: str, runs: str, fit: Sequence[str], p: Iterable[int], machine: Optional[str] = None,
            set: Optional[Mapping[str, Number]] = None, interval: Optional[float] = None, draws: Optional[int] = None,
            seed: int = 1, set_files: Iterable[str] = (), ranges: Optional[Mapping[str, tuple[Number, Number]]] = None,
            time_unit: Optional[str] = None):
    """The calibrated model's prediction at each p with its interval (``pdl-scale PROGRAM
    --calibrate RUNS --fit NAMES --p LIST``, docs/calibration.md): a DataFrame with ``p``,
    ``mean``, ``lower``, ``upper`` and the interval's three parts (``task_lower``/``_upper``: the
    tasks' randomness; ``parameters_lower``/``_upper``/``_standard_error``: the fitted values'
    uncertainty; ``unexplained``: the spread the model does not explain; ``distance`` and
    ``extrapolated``: where p lies relative to the runs), the command's whole report in
    ``attrs["json"]``. ``calibrate`` gives the same with the fit and a validation."""
    fitted = calibrate(program, runs, fit, machine=machine, set=set, p=p, interval=interval, draws=draws, seed=seed,
                       set_files=set_files, ranges=ranges, time_unit=time_unit)
    frame = fitted.predictions
    frame.attrs["json"] = fitted.json
    return frame


def validate(program: str, runs: str, machine: Optional[str] = None, set: Optional[Mapping[str, Number]] = None,
             bounds: bool = False, set_files: Iterable[str] = (), time_unit: Optional[str] = None) -> Calibration:
    """Scores the model's predictions against measured runs (``pdl-scale PROGRAM --validate RUNS``),
    e.g. with the values ``calibrate`` wrote (``set_files``); ``bounds`` adds Mendes and Reed's
    RatioLB and RatioUB (``--method approx,bounds``)."""
    texts: dict[str, str] = {}
    arguments = _measured_arguments(program, machine, set, set_files, texts)
    arguments += ["--validate", _path(runs, "runs"), "--format", "json"]
    if bounds:
        arguments += ["--method", "approx,bounds"]
    if time_unit is not None:
        arguments += ["--time-unit", _name(time_unit, "time_unit")]
    return Calibration(json.loads(_run(arguments, texts, AnalysisError)))


def isoefficiency(program: str, target: float, variable: str, machine: Optional[str] = None,
                  p: Iterable[int] = (2, 4, 8, 16), set: Optional[Mapping[str, Number]] = None,
                  iso_max: Optional[float] = None):
    """Per p, the smallest value of ``variable`` that keeps the efficiency at least ``target``
    (``pdl-scale PROGRAM --isoefficiency E --iso-variable NAME``, docs/isoefficiency.md): a
    DataFrame with ``machine``, ``p``, ``size`` (NaN where not reached), ``efficiency``, ``mean``,
    ``evaluations``; the command's whole report in its ``attrs["json"]``."""
    texts: dict[str, str] = {}
    arguments = _arguments(program, machine, set, texts)
    arguments += ["--isoefficiency", _number(target, "target"), "--iso-variable", _name(variable, "variable"),
                  "--p", _processor_counts(p), "--format", "json", "--quiet"]
    if iso_max is not None:
        arguments += ["--iso-max", _number(iso_max, "iso_max")]
    report = json.loads(_run(arguments, texts, AnalysisError))
    frame = _frame(report["isoefficiency"]["points"])
    frame.attrs["json"] = report
    return frame


def isospeed(program: str, target: Union[str, float], variable: str, machine: Optional[str] = None,
             p: Iterable[int] = (2, 4, 8, 16), set: Optional[Mapping[str, Number]] = None):
    """Per p, the smallest value of ``variable`` that holds the average speed per processor
    (``target`` "base": of the smallest p; a fraction A: of one processor's speed), and the work
    it needs (``pdl-scale PROGRAM --isospeed base|A --iso-variable NAME``, docs/scaling.md): a
    DataFrame with ``machine``, ``p``, ``size``, ``work``, ``speed``, ``mean``, ``evaluations``;
    the command's whole report (with Sun and Zhu's psi table) in its ``attrs["json"]``."""
    texts: dict[str, str] = {}
    arguments = _arguments(program, machine, set, texts)
    target_text = _name(target, "target") if isinstance(target, str) else _number(target, "target")
    arguments += ["--isospeed", target_text, "--iso-variable", _name(variable, "variable"),
                  "--p", _processor_counts(p), "--format", "json", "--quiet"]
    report = json.loads(_run(arguments, texts, AnalysisError))
    machines = report["isospeed"]["machines"]
    frame = _frame([{"machine": one["machine"], **point} for one in machines for point in one["points"]])
    frame.attrs["json"] = report
    return frame


def check(program: str, machine: Optional[str] = None, set: Optional[Mapping[str, Number]] = None) -> list[Diagnostic]:
    """Checks a program (on a machine): its warnings when it is valid; raises CheckError when not."""
    texts: dict[str, str] = {}
    arguments = _arguments(program, machine, set, texts) + ["--check"]
    status, out, err = _pdl_scale.run(arguments, texts)
    if status == 2:
        raise CheckError(err, _diagnostics(err))
    if status != 0:
        raise RuntimeError(f"pdl-scale: internal failure (status {status}): {err.strip()}")
    return _diagnostics(err)


@dataclass(frozen=True)
class Imported:
    """What ``import_program`` made: ``program``, the PDL text (None when written to ``output``),
    ``files``, the files written (the data files first, the program last), and ``notes``, what
    the reader decided, located in the input."""

    program: Optional[str]
    files: list[str]
    notes: list[Diagnostic]


def import_program(format: str, path: str, output: Optional[str] = None, drop_auxiliary: bool = False,
                   memory: Optional[str] = None) -> Imported:
    """A foreign description of a program made into PDL, as ``pdl-scale import FORMAT PATH [-o OUTPUT]``
    (docs/import.md): ``format`` is ``"goal"``, ``"wfformat"`` or (in a build with OTF2)
    ``"otf2"``. Without ``output`` the program's text is returned (an import that writes data
    files beside its program needs ``output``). Raises CheckError with the located diagnostics
    for an input the reader refuses, or an output that cannot be written."""
    arguments = ["import", _name(format, "format"), _path(path, "path")]
    if output is not None:
        arguments += ["-o", _path(output, "output")]
    if not isinstance(drop_auxiliary, bool):
        raise TypeError(f"drop_auxiliary: expected True or False, got {type(drop_auxiliary).__name__}")
    if drop_auxiliary:
        arguments.append("--drop-auxiliary")
    arguments += _memory(memory)
    status, out, err = _pdl_scale.run(arguments, {})
    if status == 2:
        raise CheckError(err, _diagnostics(err))
    if status != 0:
        raise RuntimeError(f"pdl-scale: internal failure (status {status}): {err.strip()}")
    if output is None:
        return Imported(out, [], _diagnostics(err))
    return Imported(None, [line[len("wrote "):] for line in out.splitlines() if line.startswith("wrote ")],
                    _diagnostics(err))


def fit(samples: Iterable[Number], weights: Optional[Iterable[Number]] = None) -> list[dict[str, Any]]:
    """PDL distributions fitted to measured runtimes, best first (as ``pdl-scale fit``).

    Each fit is a dict: ``family``, ``detail``, ``pdl`` (the text for SUBTASK RUNTIME IS ...) and
    ``ks`` (the Kolmogorov-Smirnov distance to the samples). ``weights``: one per sample for a
    histogram. Raises ValueError for samples that are negative, not finite or none.
    """
    values = [float(_number(v, "samples")) for v in _iterable(samples, "samples")]
    given = [float(_number(w, "weights")) for w in _iterable(weights, "weights")] if weights is not None else []
    return _pdl_scale.fit(values, given)
