#!/usr/bin/env python3
"""The validation chart as a person sees it: rendered to PNG, its labels apart and in units.

    validation_chart.py PDL_SCALE SOURCE_DIR

Draws --validation-plot for the Jacobi kernel's runs (examples/measure, docs/measured.md
section 7) in the unit the report picks (ms) and in ns (times up to 2.6e8: tick labels of nine
digits, longer than those that once ran into the y axis's label), renders each chart with rsvg-convert (Debian's
librsvg2-bin) and checks, as docs/calibration.md ("Validation") says:

* both axis labels name the unit, "[ms]" or "[µs]", and the tick labels are times in it (the
  largest tick is within a factor 2 of the largest time drawn);
* no two texts overlap: each <text> is rendered alone (with the attributes of the groups around
  it) and the boxes of its painted pixels are pairwise disjoint, all inside the image.

Prints "ok".
"""
import copy
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from PIL import Image  # Debian's python3-pil, which python3-matplotlib brings

NS = "{http://www.w3.org/2000/svg}"
ET.register_namespace("", "http://www.w3.org/2000/svg")
ARGUMENTS = ["examples/measure/jacobi_memory.pdl", "--machine", "examples/measure/epyc-2core.machine",
             "--calibrate", "examples/measure/jacobi_runs_calibrate.csv", "--fit", "tcell,tmem,tbarrier",
             "--validate", "examples/measure/jacobi_runs_validate.csv", "--draws", "20", "--quiet"]


def painted_box(svg_text):
    """(left, top, right, bottom) of the pixels an SVG paints, or None."""
    png = subprocess.run(["rsvg-convert", "-f", "png"], input=svg_text, capture_output=True, check=True).stdout
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    return image.getchannel("A").getbbox(), image.size


def alone(root, parents, text):
    """The document with `text` alone, inside copies of the groups around it."""
    document = ET.Element(root.tag, root.attrib)
    for child in root:
        if child.tag in (NS + "style", NS + "defs"):
            document.append(copy.deepcopy(child))
    chain, node = [], text
    while node in parents and parents[node] is not root:
        node = parents[node]
        chain.append(node)
    holder = document
    for group in reversed(chain):
        holder = ET.SubElement(holder, group.tag, group.attrib)
    holder.append(copy.deepcopy(text))
    return ET.tostring(document)


def check_chart(svg_path, unit, largest_time):
    root = ET.parse(svg_path).getroot()
    labels = [t.text for t in root.iter(NS + "text") if t.get("class") == "axis-label"]
    assert len(labels) == 2 and all(f"[{unit}" in label for label in labels), labels
    ticks = [float(t.text) for t in root.iter(NS + "text") if t.get("class") == "tick-label"]
    assert largest_time / 2 <= max(ticks) <= 2 * largest_time, (unit, max(ticks), largest_time)
    _, size = painted_box(svg_path.read_bytes())
    parents = {child: parent for parent in root.iter() for child in parent}
    boxes = []
    for text in root.iter(NS + "text"):
        box, _ = painted_box(alone(root, parents, text))
        assert box is not None, f"{text.text!r} paints nothing"
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1], (text.text, box, size)
        boxes.append((text.text, box))
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[:i]:
            apart = box_a[2] <= box_b[0] or box_b[2] <= box_a[0] or box_a[3] <= box_b[1] or box_b[3] <= box_a[1]
            assert apart, f"{svg_path.name}: {a!r} {box_a} overlaps {b!r} {box_b}"
    return len(boxes)


def main():
    tool, source = sys.argv[1], pathlib.Path(sys.argv[2])
    if shutil.which("rsvg-convert") is None:
        sys.exit("rsvg-convert not found: scripts/setup installs it (Debian's librsvg2-bin)")
    out = pathlib.Path(tempfile.mkdtemp(prefix="pdl-scale-validation-chart-"))
    try:
        # The largest time drawn: the runs' 199.208 ms and the intervals' ends above it.
        for name, extra, unit, largest in (("auto", [], "ms", 262.0), ("ns", ["--time-unit", "ns"], "ns", 2.62e8)):
            chart = out / f"{name}.svg"
            subprocess.run([tool, *ARGUMENTS, *extra, "--validation-plot", str(chart)], cwd=source, check=True,
                           stdout=subprocess.DEVNULL)
            texts = check_chart(chart, unit, largest)
            print(f"{name}: {texts} texts apart, axes in {unit}")
    finally:
        shutil.rmtree(out)
    print("ok")


if __name__ == "__main__":
    main()
