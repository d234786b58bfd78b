#!/usr/bin/env python3
"""The charts as a person sees them: every --plot and --tail-plot of a few runs rendered to PNG.

    render_charts.py PDL_SCALE SOURCE_DIR [OUT_DIR]

For each case below, runs PDL_SCALE with --plot and --tail-plot, renders each SVG to PNG with
rsvg-convert (Debian's librsvg2-bin, installed by scripts/setup) and checks, against what
docs/cli.md ("The chart") says the charts draw:

* the PNG is a whole image of the SVG's width and height (its rows decode), and each line's
  colour is on it (pixels within a small distance of the style's colour);
* the number of lines, and that no two share a style (colour, dash, marker) while there are at
  most 48 (plot.hpp's kDistinctLineStyles), the legend naming each once;
* the bands: one per line whose method has an interval, bounds drawn as a band and edges alone;
* the axes: log2 (ticks at powers of two, labelled as integers, "(log scale)" in the label)
  exactly when the p are powers of two (at least three) or --log-axes is given;
* the title: the program's file name, its machines and its size.

The PNGs stay in OUT_DIR (default: a temporary directory, removed) to be looked at. Prints "ok".
"""
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
NEIGHBOR = "examples/paper/neighbor.pdl"
CLUSTER = "examples/machines/cluster.machine"
SMP = "examples/machines/smp.machine"
COLUMNS_10 = "columns=" + ",".join(str(10 * k) for k in range(1, 11))

# name, arguments, expected: lines of the speedup chart, bands per panel, log x, log speedup,
# lines of the tail chart, words of the title.
CASES = [
    ("twenty_lines", [NEIGHBOR, "--machine", CLUSTER, "--machine", SMP, "--sweep", COLUMNS_10, "--pmax", "6",
                      "--method", "approx"],
     dict(lines=20, bands=20, log_x=False, log_y=False, tail_lines=20,
          title="neighbor.pdl on cluster and smp, columns = 10..100 (10 values), iterations = 2")),
    ("forty_lines", [NEIGHBOR, "--machine", CLUSTER, "--machine", SMP, "--sweep", COLUMNS_10, "--p", "1,2,3",
                     "--method", "approx,bounds"],
     dict(lines=40, bands=40, log_x=False, log_y=False, tail_lines=20,
          title="neighbor.pdl on cluster and smp, columns = 10..100 (10 values), iterations = 2")),
    ("powers_of_two", [NEIGHBOR, "--machine", CLUSTER, "--p", "1,2,4,8,16,32,64", "--method", "approx,bounds,mc",
                       "--samples", "2000", "--set", "columns=64"],
     dict(lines=3, bands=3, log_x=True, log_y=False, tail_lines=2,
          title="neighbor.pdl on cluster, columns = 64, iterations = 2")),
    ("log_axes", [NEIGHBOR, "--machine", SMP, "--sweep", "columns=10,40", "--pmax", "12", "--method", "approx,bounds",
                  "--log-axes"],
     dict(lines=4, bands=4, log_x=True, log_y=True, tail_lines=2,
          title="neighbor.pdl on smp, columns = 10, 40, iterations = 2")),
]


def parse_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA PNG, as rsvg-convert writes it."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour_type = header[:4]
    assert depth == 8 and colour_type in (2, 6), f"{path}: expected 8-bit RGB(A), got depth {depth} type {colour_type}"
    n = 3 if colour_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = n * width
    assert len(raw) == height * (stride + 1), f"{path}: {len(raw)} bytes of image data for {width}x{height}"
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(n, stride):
                line[i] = (line[i] + line[i - n]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - n] if i >= n else 0) + previous[i]) // 2) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - n] if i >= n else 0
                b, c = previous[i], previous[i - n] if i >= n else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        else:
            assert kind == 0, f"{path}: unknown filter {kind}"
        rows.append(bytes(line))
        previous = line
    return width, height, n, rows


def colour_counts(image, colours):
    """How many opaque pixels lie within a small distance of each colour "#rrggbb"."""
    targets = {c: tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours}
    counts = dict.fromkeys(colours, 0)
    n, rows = image
    for row in rows:
        for i in range(0, len(row), n):
            r, g, b = row[i:i + 3]
            a = row[i + 3] if n == 4 else 255
            if a < 250 or (r > 240 and g > 240 and b > 240):
                continue
            for colour, (tr, tg, tb) in targets.items():
                if abs(r - tr) + abs(g - tg) + abs(b - tb) <= 24:
                    counts[colour] += 1
    return counts


def line_styles(root, clip):
    """(colour, dash, marker) of every line drawn in the curves clipped to `clip`."""
    styles = []
    for group in root.iter(NS + "g"):
        if group.get("class") != "curves" or group.get("clip-path") != f"url(#{clip})":
            continue
        for line in group.iter(NS + "g"):
            if line.get("class") != "line":
                continue
            series = [e for e in line if (e.get("class") or "") == "series"]
            markers = {e.get("class").split()[1] for e in line if (e.get("class") or "").startswith("marker ")}
            assert len(series) <= 1 and len(markers) <= 1, ET.tostring(line)[:200]
            stroke = series[0] if series else None
            styles.append((stroke.get("stroke") if stroke is not None else None,
                           stroke.get("stroke-dasharray", "") if stroke is not None else None,
                           markers.pop() if markers else None))
        # Bounds: a band and its two edges, no line.
        edges = [e for e in group.iter(NS + "polyline") if e.get("class") == "band-edge"]
        for upper in edges[::2]:
            styles.append((upper.get("stroke"), upper.get("stroke-dasharray", ""), "band"))
    return styles


def check_axis(root, label_pattern, log):
    """The tick labels of the panel whose axis label matches: powers of two when log."""
    labels = [t.text for t in root.iter(NS + "text") if t.get("class") == "axis-label" and re.search(label_pattern, t.text)]
    assert labels, f"no axis label {label_pattern}"
    assert all(("(log scale)" in text) == log for text in labels), (labels, log)


def x_ticks(root):
    """The x tick labels of the first panel (those drawn centred under it)."""
    return [t.text for t in root.iter(NS + "text") if t.get("class") == "tick-label" and t.get("text-anchor") == "middle"]


def render(svg, png):
    subprocess.run(["rsvg-convert", "-o", str(png), str(svg)], check=True)
    root = ET.parse(svg).getroot()
    assert root.tag == NS + "svg", root.tag
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}", root.attrib
    png_width, png_height, n, rows = parse_png(png)
    assert (png_width, png_height) == (width, height), (png, png_width, png_height, width, height)
    return root, (n, rows)


def check_case(tool, source, out, name, arguments, expected):
    plot, tail = out / f"{name}.svg", out / f"{name}-tail.svg"
    command = [tool, *arguments, "--plot", str(plot), "--tail-plot", str(tail), "--quiet"]
    subprocess.run(command, cwd=source, check=True, stdout=subprocess.DEVNULL)

    root, rows = render(plot, out / f"{name}.png")
    styles = line_styles(root, "clip-speedup")
    assert len(styles) == expected["lines"], (name, len(styles), styles)
    assert len(set(styles)) == len(styles), (name, "two lines share a style", styles)
    assert line_styles(root, "clip-efficiency") == styles, name
    entries = [g for g in root.iter(NS + "g") if g.get("class") == "legend-entry"]
    assert len(entries) == expected["lines"] + 1, (name, len(entries))  # and the ideal
    bands = [p for p in root.iter(NS + "path") if p.get("class") == "band"]
    assert len(bands) == 2 * expected["bands"], (name, len(bands))
    title = root.find(NS + "title").text
    assert title == expected["title"], (name, title)
    check_axis(root, "^processors p|^problem size", expected["log_x"])
    check_axis(root, "^speedup", expected["log_y"])
    ticks = x_ticks(root)
    if expected["log_x"]:
        assert all(re.fullmatch(r"[0-9]+", t) and int(t) & (int(t) - 1) == 0 for t in ticks), (name, ticks)
    colours = {s[0] for s in styles}
    counts = colour_counts(rows, colours)
    assert all(n >= 50 for n in counts.values()), (name, "a line's colour is missing from the PNG", counts)

    tail_root, tail_rows = render(tail, out / f"{name}-tail.png")
    tail_styles = []
    for group in tail_root.iter(NS + "g"):
        if group.get("class") == "line":
            series = [e for e in group if e.get("class") == "series"]
            marker = {e.get("class").split()[1] for e in group if (e.get("class") or "").startswith("marker ")}
            tail_styles.append((series[0].get("stroke"), series[0].get("stroke-dasharray", ""), marker.pop()))
    assert len(tail_styles) == expected["tail_lines"], (name, len(tail_styles))
    assert len(set(tail_styles)) == len(tail_styles), (name, "two tail lines share a style", tail_styles)
    assert tail_root.find(NS + "title").text == expected["title"], name
    check_axis(tail_root, "^processors p", expected["log_x"])
    counts = colour_counts(tail_rows, {s[0] for s in tail_styles})
    assert all(n >= 50 for n in counts.values()), (name, "a tail line's colour is missing from the PNG", counts)
    print(f"{name}: {len(styles)} lines, {len(bands) // 2} bands, tail {len(tail_styles)} lines")


def main():
    tool, source = sys.argv[1], pathlib.Path(sys.argv[2])
    if shutil.which("rsvg-convert") is None:
        sys.exit("rsvg-convert not found: scripts/setup installs it (Debian's librsvg2-bin)")
    keep = len(sys.argv) > 3
    out = pathlib.Path(sys.argv[3]) if keep else pathlib.Path(tempfile.mkdtemp(prefix="pdl-scale-charts-"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        for name, arguments, expected in CASES:
            check_case(tool, source, out, name, arguments, expected)
    finally:
        if not keep:
            shutil.rmtree(out)
    print("ok")


if __name__ == "__main__":
    main()
