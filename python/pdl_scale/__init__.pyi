# Type stubs of the pdl_scale package (docs/python.md), for editors and type checkers.
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

Number = Union[int, float]

class Diagnostic:
    """One message of the checker: file, line, column, severity ("error", "warning", "note"), message."""
    file: str
    line: int
    column: int
    severity: str
    message: str
    def __init__(self, file: str, line: int, column: int, severity: str, message: str) -> None: ...

class PdlError(Exception):
    """pdl-scale refused the input (exit status 2); `text` is its whole message."""
    text: str
    diagnostics: list[Diagnostic]
    def __init__(self, text: str, diagnostics: Sequence[Diagnostic] = ...) -> None: ...

class CheckError(PdlError):
    """The program or machine has errors; `diagnostics` locates each."""

class AnalysisError(PdlError):
    """The analysis could not run; `text` says why."""

class Analysis:
    """Rows per (machine, swept values, p, method) as NumPy arrays; times in `unit`."""
    json: dict[str, Any]
    unit: str
    summary: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    rows: dict[str, np.ndarray]
    predictions: dict[str, np.ndarray]
    quantiles: list[dict[float, float]]
    def __len__(self) -> int: ...
    def __getitem__(self, column: str) -> np.ndarray: ...
    def method(self, name: str) -> dict[str, np.ndarray]:
        """The rows of one method, every column."""
    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas)."""

def analyze(program: str, machine: Optional[str] = ..., p: Iterable[int] = ...,
            methods: Sequence[str] = ..., set: Optional[Mapping[str, Number]] = ...,
            sweep: Optional[Mapping[str, Iterable[Number]]] = ..., seed: int = ..., threads: int = ...,
            quantiles: Sequence[float] = ..., samples: Optional[int] = ..., memory: Optional[str] = ...,
            allow_long: bool = ..., prediction_budget: Optional[float] = ...,
            efficiency: Sequence[float] = ...,
            progress: Optional[Callable[[float, int], Any]] = ...) -> Analysis:
    """Predicts the program's runtime on each processor count by each method (pdl-scale --format json)."""

class Calibration:
    json: dict[str, Any]
    level: Optional[float]
    time_unit: Optional[str]
    parameters: Any  # pandas.DataFrame
    calibration: Optional[dict[str, Any]]
    predictions: Any  # pandas.DataFrame
    validation: Any  # pandas.DataFrame or None
    validation_summary: Optional[dict[str, Any]]
    def __init__(self, report: dict[str, Any]) -> None: ...

def calibrate(program: str, runs: str, fit: Sequence[str], machine: Optional[str] = ...,
              set: Optional[Mapping[str, Number]] = ..., p: Optional[Iterable[int]] = ...,
              validate: Optional[str] = ..., interval: Optional[float] = ..., draws: Optional[int] = ...,
              seed: int = ..., set_files: Iterable[str] = ...,
              ranges: Optional[Mapping[str, tuple[Number, Number]]] = ..., time_unit: Optional[str] = ...) -> Calibration:
    """pdl-scale PROGRAM --calibrate RUNS --fit NAMES [--p ...] [--validate RUNS] --format json."""

def validate(program: str, runs: str, machine: Optional[str] = ..., set: Optional[Mapping[str, Number]] = ...,
             bounds: bool = ..., set_files: Iterable[str] = ..., time_unit: Optional[str] = ...) -> Calibration:
    """pdl-scale PROGRAM --validate RUNS --format json."""

def predict(program: str, runs: str, fit: Sequence[str], p: Iterable[int], machine: Optional[str] = ...,
            set: Optional[Mapping[str, Number]] = ..., interval: Optional[float] = ..., draws: Optional[int] = ...,
            seed: int = ..., set_files: Iterable[str] = ...,
            ranges: Optional[Mapping[str, tuple[Number, Number]]] = ..., time_unit: Optional[str] = ...) -> Any:
    """pdl-scale PROGRAM --calibrate RUNS --fit NAMES --p LIST: the predictions with their intervals, a DataFrame."""

def loss(program: str, machine: Optional[str] = ..., p: Iterable[int] = ..., methods: Sequence[str] = ...,
         set: Optional[Mapping[str, Number]] = ..., seed: int = ..., threads: int = ..., samples: Optional[int] = ...,
         memory: Optional[str] = ..., allow_long: bool = ...) -> Any:
    """pdl-scale PROGRAM --loss --format json: per phase alone, p and method, as a DataFrame."""

def breakdown(program: str, machine: Optional[str] = ..., p: Iterable[int] = ..., methods: Sequence[str] = ...,
              set: Optional[Mapping[str, Number]] = ..., sweep: Optional[Mapping[str, Iterable[Number]]] = ...,
              seed: int = ..., threads: int = ..., samples: Optional[int] = ..., memory: Optional[str] = ...,
              allow_long: bool = ..., prediction_budget: Optional[float] = ...) -> Any:
    """pdl-scale PROGRAM --breakdown --format json: the prediction per p split by where the time goes, a DataFrame."""

def sensitivity(program: str, machine: Optional[str] = ..., p: Iterable[int] = ..., methods: Sequence[str] = ...,
                set: Optional[Mapping[str, Number]] = ..., sweep: Optional[Mapping[str, Iterable[Number]]] = ...,
                seed: int = ..., threads: int = ..., samples: Optional[int] = ..., memory: Optional[str] = ...,
                allow_long: bool = ..., prediction_budget: Optional[float] = ...) -> Any:
    """pdl-scale PROGRAM --sensitivity --format json: each constant's elasticity and tolerances per p, a DataFrame."""

def isoefficiency(program: str, target: float, variable: str, machine: Optional[str] = ...,
                  p: Iterable[int] = ..., set: Optional[Mapping[str, Number]] = ...,
                  iso_max: Optional[float] = ...) -> Any:
    """pdl-scale PROGRAM --isoefficiency E --iso-variable NAME --format json, as a DataFrame."""

def isospeed(program: str, target: Union[str, float], variable: str, machine: Optional[str] = ...,
             p: Iterable[int] = ..., set: Optional[Mapping[str, Number]] = ...) -> Any:
    """pdl-scale PROGRAM --isospeed base|A --iso-variable NAME --format json, as a DataFrame."""

def check(program: str, machine: Optional[str] = ..., set: Optional[Mapping[str, Number]] = ...) -> list[Diagnostic]:
    """Checks a program; its warnings when valid, CheckError when not."""

class Imported:
    """What import_program made: the program's text (None when written), the files written, the notes."""
    program: Optional[str]
    files: list[str]
    notes: list[Diagnostic]
    def __init__(self, program: Optional[str], files: list[str], notes: list[Diagnostic]) -> None: ...

def import_program(format: str, path: str, output: Optional[str] = ..., drop_auxiliary: bool = ...,
                   memory: Optional[str] = ...) -> Imported:
    """pdl-scale import FORMAT PATH [-o OUTPUT]: the PDL program, the files written, the reader's notes."""

def fit(samples: Iterable[Number], weights: Optional[Iterable[Number]] = ...) -> list[dict[str, Any]]:
    """PDL distributions fitted to measured runtimes, best first (pdl-scale fit)."""
