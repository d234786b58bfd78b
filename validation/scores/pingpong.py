"""Ping-pong on two real clusters (SimGrid's platform-calibration data, validation/pingpong/).

Each measured round trip is one run of validation/pingpong/pingpong.pdl at p = 2 with its
message size; the machine's message law is fitted on some sizes and scored on others:
every other size (the same range), and the protocol segment after the one fitted on (the
sizes where MPI changes protocol are the data set's own breakpoints file)."""
import csv
import os
import tempfile

from .common import Score, fitted, run_json, validation_summary

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pingpong")
CLUSTERS = {"sirocco": "sirocco (Inria PlaFRIM, InfiniBand, 2016-08-26)",
            "stampede": "stampede (TACC, 2017-06-01)"}


def round_trips(cluster):
    """(size, seconds) per measured round trip: an MPI_Send row and its MPI_Recv row, summed
    (the platform-calibration Analysis.Rmd's 'PingPong' duration)."""
    with open(os.path.join(HERE, "data", f"{cluster}_PingPong.csv"), newline="") as f:
        rows = list(csv.reader(f))
    trips = []
    for send, recv in zip(rows[0::2], rows[1::2]):
        if send[0] != "MPI_Send" or recv[0] != "MPI_Recv" or send[1] != recv[1]:
            raise ValueError(f"{cluster}: an MPI_Send row without its MPI_Recv row: {send} {recv}")
        trips.append((int(send[1]), float(send[3]) + float(recv[3])))
    return trips


def breakpoints(cluster):
    """The protocol limits of the data set, in bytes, ascending."""
    with open(os.path.join(HERE, "data", f"{cluster}_breakpoints")) as f:
        lines = [line.split(",") for line in f.read().splitlines()[1:] if line.strip()]
    return sorted(int(limit) for limit, _ in lines)


def write_runs(path, trips):
    with open(path, "w") as f:
        f.write("# unit: s\np,size,time\n")
        for size, seconds in trips:
            f.write(f"2,{size},{seconds:.9g}\n")


def splits(cluster, trips):
    """(name, calibrated-on text, predicted text, train, test) for the two held-out designs."""
    sizes = sorted({s for s, _ in trips})
    even = {s for i, s in enumerate(sizes) if i % 2 == 0}
    limits = breakpoints(cluster)
    fitted_up_to, next_up_to = limits[1], limits[2]
    yield ("alternate", f"every other size, 1 B to {sizes[-1] / 1e6:.1f} MB ({len(even)} sizes)",
           f"the other {len(sizes) - len(even)} sizes",
           [t for t in trips if t[0] in even], [t for t in trips if t[0] not in even])
    low = [t for t in trips if t[0] <= fitted_up_to]
    high = [t for t in trips if fitted_up_to < t[0] <= next_up_to]
    yield ("next segment", f"sizes up to {fitted_up_to:,} B ({len({s for s, _ in low})} sizes)",
           f"{fitted_up_to:,} to {next_up_to:,} B, the next protocol segment ({len({s for s, _ in high})} sizes)",
           low, high)


def fit_and_score(tool, cluster, label, machine_arguments, fit, calibrated_on, predicted, train, test, workdir):
    """Fits FIT on the TRAIN round trips and validates on TEST: (the Score with its model text still
    to fill in, the fitted values)."""
    train_file, test_file = (os.path.join(workdir, f"{cluster}-{label}-{k}.csv".replace(" ", "-"))
                             for k in ("train", "test"))
    write_runs(train_file, train)
    write_runs(test_file, test)
    document = run_json(tool, ["pingpong.pdl", *machine_arguments, "--calibrate", train_file, "--fit", ",".join(fit),
                               "--validate", test_file], HERE)
    summary = validation_summary(document)
    score = Score(data_set=f"ping-pong, {CLUSTERS[cluster]}", model="",
                  calibrated_on=f"{calibrated_on}: {len(train):,} round trips",
                  predicted=f"{predicted}: {len(test):,} round trips",
                  runs=summary["runs"], mean_abs_error=summary["mean_absolute_error"],
                  largest_error=summary["largest_absolute_error"], coverage=summary["coverage"],
                  anchor="LLAMP < 2%, ATLAHS < 5% (their own networks)", quick=True)
    return score, fitted(document)


def score_split(tool, cluster, machine, name, calibrated_on, predicted, train, test, workdir):
    score, values = fit_and_score(tool, cluster, name, ["--machine", machine], ["ts", "tw"], calibrated_on, predicted,
                                  train, test, workdir)
    score.model = (f"`pingpong.pdl` on `{machine}`: one affine law t_s + t_w·L, fitted t_s = "
                   f"{values['ts'][0]:.3g} µs, t_w = {values['tw'][0] * 1e3:.3g} ns/B")
    return score


PIECEWISE = ["ts0", "tw0", "ts1", "tw1", "ts2", "tw2", "ts3", "tw3", "ts4", "tw4"]


def score_piecewise(tool, cluster, calibrated_on, predicted, train, test, workdir):
    """The alternate split again, with one affine segment between each two of the data set's
    breakpoints (piecewise.machine): the law that crosses protocol limits, in today's language."""
    limits = breakpoints(cluster)
    sets = [a for k, b in enumerate(limits) for a in ("--set", f"b{k + 1}={b}")]
    score, values = fit_and_score(tool, cluster, "piecewise", ["--machine", "piecewise.machine", *sets], PIECEWISE,
                                  calibrated_on, predicted, train, test, workdir)
    laws = ", ".join(f"{values[f'ts{j}'][0]:.3g} µs + {values[f'tw{j}'][0] * 1e3:.3g} ns/B" for j in range(5))
    score.model = (f"`pingpong.pdl` on `piecewise.machine`: five affine segments at the data set's breakpoints "
                   f"({', '.join(f'{b:,}' for b in limits)} B), all fitted")
    score.details = [f"`piecewise.machine`'s fitted segments, from the smallest sizes: {laws}"]
    return score


def scores(tool):
    with tempfile.TemporaryDirectory(prefix="pdl-scale-validate-") as workdir:
        for cluster in CLUSTERS:
            trips = round_trips(cluster)
            for name, calibrated_on, predicted, train, test in splits(cluster, trips):
                yield score_split(tool, cluster, "affine.machine", name, calibrated_on, predicted, train, test, workdir)
                if name == "alternate":
                    yield score_piecewise(tool, cluster, calibrated_on, predicted, train, test, workdir)
