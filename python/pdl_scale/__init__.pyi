# Type stubs of the pdl_scale package (docs/python.md), for editors and type checkers.
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

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
            efficiency: Sequence[float] = ...) -> Analysis:
    """Predicts the program's runtime on each processor count by each method (pdl-scale --format json)."""

def check(program: str, machine: Optional[str] = ..., set: Optional[Mapping[str, Number]] = ...) -> list[Diagnostic]:
    """Checks a program; its warnings when valid, CheckError when not."""

def fit(samples: Iterable[Number], weights: Optional[Iterable[Number]] = ...) -> list[dict[str, Any]]:
    """PDL distributions fitted to measured runtimes, best first (pdl-scale fit)."""
