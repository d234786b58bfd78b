"""LogGOPSim's example GOAL schedules (validation/goal/): imported with `pdl-scale import goal`
and solved exactly at p = their ranks on examples/machines/loggopsim.machine, against the times
LogGOPSim gives at its default parameters. Those are simulated, not measured: the row checks the
reader and the machine file against LogGOPSim's model, not either against a network."""
import os
import tempfile

from .common import Score, run_json, run_tool

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "goal")
MACHINE = "../../examples/machines/loggopsim.machine"
# file -> (ranks, LogGOPSim's time in µs, where the figure comes from)
CASES = {
    "dissemination_16.goal": (16, 22.0, "LogGOPSim's README"),
    "binary_tree_16.goal": (16, 22.0, "worked from LogGOPSim's rules, validation/goal/README.md"),
    "dissemination_32.goal": (32, 27.5, "worked from LogGOPSim's rules"),
}


def scores(tool):
    errors, details = [], []
    with tempfile.TemporaryDirectory(prefix="pdl-scale-validate-") as workdir:
        for name, (ranks, expected, source) in CASES.items():
            program = os.path.join(workdir, name.replace(".goal", ".pdl"))
            run_tool(tool, ["import", "goal", name, "-o", program], HERE)
            document = run_json(tool, [program, "--machine", MACHINE, "--p", str(ranks), "--method", "exact"], HERE)
            (result,) = [r for r in document["results"] if r["method"] == "exact"]
            errors.append(abs(result["estimate"] - expected) / expected)
            details.append(f"`{name}` at p = {ranks}: {result['estimate']:.3f} µs ({result['interval_kind']}), "
                           f"LogGOPSim {expected * 1000:,.0f} ns ({source})")
    yield Score(data_set="LogGOPSim's example GOAL schedules (spcl/LogGOPSim), simulated at its defaults",
                model="`pdl-scale import goal` on `loggopsim.machine` (L = 2.5 µs, o = 1.5 µs, g = 1 µs, "
                      "G = 6 ns/B), exact",
                calibrated_on="-", predicted="3 schedules", runs=len(errors),
                mean_abs_error=sum(errors) / len(errors), largest_error=max(errors), coverage=None,
                anchor="LogGOPSim itself (these are its figures)", quick=True, details=details)
