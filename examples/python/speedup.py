"""Speedup curves of the paper's section 5.1 example on three machines, in a notebook's style:
the analysis as arrays, a data frame, and a matplotlib chart (docs/python.md).

    PYTHONPATH=build/release/python python3 examples/python/speedup.py [speedup.png]
"""

import sys

import matplotlib

matplotlib.use("Agg")  # no display needed; a notebook shows the figure inline instead
import matplotlib.pyplot as plt

import pdl_scale

MACHINES = {
    "ideal": None,
    "shared-memory node": "examples/machines/shared-memory-node.machine",
    "cluster": "examples/machines/cluster.machine",
}

figure, axes = plt.subplots(figsize=(7, 4.5))
for label, machine in MACHINES.items():
    analysis = pdl_scale.analyze("examples/paper/neighbor.pdl", machine=machine, p=range(1, 17),
                                 set={"columns": 16, "iterations": 4})
    # The prediction: the exact model's mean by the best method the run could afford, with its
    # interval (docs/cli.md, "The prediction"); approx dashed beside it for comparison.
    prediction = analysis.predictions
    approx = analysis.method("approx")
    line, = axes.plot(prediction["p"], prediction["speedup"], marker="o", markersize=3, label=f"{label}: prediction")
    axes.fill_between(prediction["p"], prediction["speedup_lower"], prediction["speedup_upper"], color=line.get_color(),
                      alpha=0.2)
    axes.plot(approx["p"], approx["speedup"], color=line.get_color(), linestyle=":", linewidth=1,
              label=f"{label}: approx")
    best = analysis.summary[0]
    efficient = next(reach for reach in best["efficiency"] if reach["threshold"] == 0.8)
    print(f"{label:20s} least runtime {best['fastest_time']:.1f} {analysis.unit} at p = {best['fastest_p']}, "
          f"largest p with efficiency >= 0.8: {efficient['largest_p'] or (efficient['surely'], efficient['possibly'])}")

frame = pdl_scale.analyze("examples/paper/neighbor.pdl", machine=MACHINES["cluster"], p=[1, 2, 4, 8, 16],
                          set={"columns": 16, "iterations": 4}).to_pandas()
print(frame[frame["method"] == "approx"][["p", "estimate", "speedup", "efficiency"]].to_string(index=False))
for note in pdl_scale.analyze("examples/paper/neighbor.pdl", machine=MACHINES["cluster"], p=[1, 2, 4, 8, 16],
                              set={"columns": 16, "iterations": 4}).notes:
    print(f"note ({note['kind']}): {note['text']}")

axes.plot([1, 16], [1, 16], color="grey", linewidth=0.8, linestyle="--", label="linear")
axes.set_xlabel("processors p")
axes.set_ylabel("speedup T(1) / T(p)")
axes.set_title("neighbor-5.1, 16 columns, 4 iterations")
axes.legend(fontsize=8)
figure.tight_layout()
figure.savefig(sys.argv[1] if len(sys.argv) > 1 else "speedup.png", dpi=100)
