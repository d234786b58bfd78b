"""What every score needs: running the tool, reading its JSON, Clement's error figures."""
import json
import os
import subprocess
from dataclasses import dataclass, field


@dataclass
class Score:
    """One row of docs/validation.md's table: a model predicting measurements it was not fitted to."""
    data_set: str          # what was measured, and where
    model: str             # the program and machine, and what is fitted
    calibrated_on: str     # the measurements the fit saw ('-': none)
    predicted: str         # the measurements scored
    runs: int              # how many measured runs were scored
    mean_abs_error: float  # Clement's mean |predicted - measured| / measured
    largest_error: float   # the largest of those
    coverage: float | None  # share of scored runs inside their 95% prediction interval (None: no interval)
    anchor: str            # what others reach on such data, for comparison
    quick: bool            # part of the subset the test suite recomputes
    details: list = field(default_factory=list)  # further lines under the table


class ToolError(RuntimeError):
    pass


def run_tool(tool, args, cwd):
    """Runs pdl-scale with ARGS in CWD and returns its standard output; a failure says how."""
    done = subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True, env=_quiet_env())
    if done.returncode != 0:
        raise ToolError(f"pdl-scale {' '.join(args)} (in {cwd}) exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def run_json(tool, args, cwd):
    return json.loads(run_tool(tool, [*args, "--format", "json"], cwd))


def _quiet_env():
    env = dict(os.environ)
    env.pop("PDL_SCALE_PROGRESS", None)
    return env


def validation_summary(document):
    """The validation summary of a --validate JSON document (docs/calibration.md, 'The report')."""
    return document["validation"]["summary"]


def fitted(document):
    """name -> (value, standard error) of a --calibrate JSON document."""
    return {p["name"]: (p["value"], p["standard_error"]) for p in document["calibration"]["parameters"]}
