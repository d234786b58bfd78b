#!/usr/bin/env python3
"""Recomputes every score of docs/validation.md: the tool's predictions against third-party
measurements (validation/*/README.md say where each data set comes from).

  validate.py --tool PDL_SCALE [--quick] [--check]

Without --check the table between the page's markers is written anew (whole or not at all).
With --check nothing is written: every recomputed row must stand in the page as it is, else
exit 1 with the rows that differ (the test suite runs --quick --check: docs/testing.md).
--quick computes only the rows marked quick (under two minutes on the reference machine)."""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scores import goal, lulesh, pingpong, workflows  # noqa: E402
from scores.common import ToolError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "validation.md")
BEGIN, END = "<!-- scores: begin (scripts/validate writes this table) -->", "<!-- scores: end -->"
MODULES = (pingpong, lulesh, goal, workflows)


def percent(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def row(score):
    cells = [score.data_set, score.model, score.calibrated_on, score.predicted, f"{score.runs:,}",
             percent(score.mean_abs_error), percent(score.largest_error), percent(score.coverage), score.anchor]
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def table(scores):
    lines = ["| data set | model | calibrated on | predicted | runs | mean \\|error\\| | largest \\|error\\| "
             "| inside 95% interval | others on such data |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    lines += [row(s) for s in scores]
    for s in scores:
        if s.details:
            lines.append("")
            lines.append(f"{s.data_set}:")
            lines += [f"- {d}" for d in s.details]
    return "\n".join(lines)


def page_block(text):
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        raise SystemExit(f"{PAGE}: the markers '{BEGIN}' and '{END}' are missing")
    return begin + len(BEGIN), end


def write_page(text, block):
    begin, end = page_block(text)
    new = text[:begin] + "\n" + block + "\n" + text[end:]
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(PAGE), prefix=".validation.md.")
    with os.fdopen(handle, "w") as f:
        f.write(new)
    os.replace(temporary, PAGE)


def check_page(text, scores, block):
    begin, end = page_block(text)
    written = text[begin:end]
    missing = [line for line in block.splitlines() if line.strip() and line not in written.splitlines()]
    for line in missing:
        print(f"docs/validation.md does not say (run scripts/validate):\n  {line}", file=sys.stderr)
    return 1 if missing else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", required=True, help="the pdl-scale command to score")
    parser.add_argument("--quick", action="store_true", help="only the rows the test suite recomputes")
    parser.add_argument("--check", action="store_true", help="compare with docs/validation.md, write nothing")
    args = parser.parse_args()
    tool = os.path.abspath(args.tool)
    try:
        scores = [s for m in MODULES for s in m.scores(tool) if s.quick or not args.quick]
    except ToolError as error:
        print(f"validate: {error}", file=sys.stderr)
        return 1
    with open(PAGE) as f:
        text = f.read()
    block = table(scores)
    if args.check:
        return check_page(text, scores, block)
    if args.quick:
        raise SystemExit("validate: --quick writes only part of the table; use it with --check")
    write_page(text, block)
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
