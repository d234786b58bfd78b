"""LULESH weak scaling (LLNL Thicket's test profiles, validation/lulesh/): calibrated on the
runs at p = 27 and 64, predicting p = 125, 216 and 343 (Caliper's `elapsed_time`)."""
import os
import tempfile

from .common import Score, fitted, run_json, validation_summary

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lulesh")
CALIBRATED_ON = (27, 64)
PREDICTED = (125, 216, 343)
MACHINE = "../../examples/machines/infiniband-edr.machine"


def caliper_metadata(path):
    """Caliper's global attributes of a .cali file (its `adiak` metadata), name -> text.

    A .cali file is a list of records; `__rec=node,id=I,attr=A,data=D[,parent=Q]` defines node I
    holding value D of attribute A, and an attribute is itself the node whose id A names, with
    its name as data (attr 8 is cali.attribute.name). The globals record references a chain of
    nodes; every node on it holds one global value."""
    nodes = {}
    with open(path) as f:
        for line in f:
            if line.startswith("__rec=node,"):
                fields = dict(kv.split("=", 1) for kv in line.rstrip("\n").split(",")[1:] if "=" in kv)
                nodes[fields["id"]] = fields
    names = {i: n["data"] for i, n in nodes.items() if n.get("attr") == "8"}
    return {names[n["attr"]]: n["data"] for n in nodes.values() if n.get("attr") in names}


def measured_runs():
    """p -> measured elapsed seconds, from the five profiles."""
    runs = {}
    for p in CALIBRATED_ON + PREDICTED:
        meta = caliper_metadata(os.path.join(HERE, "data", f"{p}_cores.cali"))
        if int(meta["jobsize"]) != p or meta["iterations"] != "800" or meta["problem_size"] != "30":
            raise ValueError(f"{p}_cores.cali: not the run lulesh.pdl describes: {meta}")
        runs[p] = float(meta["elapsed_time"])
    return runs


def write_runs(path, runs, processors):
    with open(path, "w") as f:
        f.write("# unit: s\np,time\n")
        for p in processors:
            f.write(f"{p},{runs[p]!r}\n")


def scores(tool):
    runs = measured_runs()
    with tempfile.TemporaryDirectory(prefix="pdl-scale-validate-") as workdir:
        train, test = os.path.join(workdir, "calibrate.csv"), os.path.join(workdir, "validate.csv")
        write_runs(train, runs, CALIBRATED_ON)
        write_runs(test, runs, PREDICTED)
        document = run_json(tool, ["lulesh.pdl", "--machine", MACHINE, "--calibrate", train, "--fit", "speed",
                                   "--validate", test], HERE)
    summary = validation_summary(document)
    per_run = [f"p = {r['p']}: measured {r['measured'] / 1e6:.1f} s, predicted {r['predicted'] / 1e6:.1f} s "
               f"({r['error']:+.1%}), 95% interval [{r['prediction']['interval'][0] / 1e6:.1f}, "
               f"{r['prediction']['interval'][1] / 1e6:.1f}] s, {'inside' if r['inside'] else 'OUTSIDE'}"
               for r in document["validation"]["runs"]]
    speed, error = fitted(document)["speed"]
    yield Score(data_set="LULESH 2.0.3 weak scaling, 30³ elements per rank, 800 cycles (LLNL, Thicket's profiles)",
                model=f"`lulesh.pdl` on `infiniband-edr`: per-rank work spread from the profiles' min/avg/max, "
                      f"a halo and an allreduce per cycle; fitted speed = {speed:.3f} ± {error:.3f}",
                calibrated_on="p = 27, 64", predicted="p = 125, 216, 343",
                runs=summary["runs"], mean_abs_error=summary["mean_absolute_error"],
                largest_error=summary["largest_absolute_error"], coverage=summary["coverage"],
                anchor="Clement et al.: 12%", quick=True, details=per_run)
