#!/usr/bin/env python3
"""Checks (or, with --update, rewrites) the pdl-scale transcripts in a Markdown page.

A transcript is a fenced code block whose lines starting with "$ " are commands (a trailing
backslash continues one onto the next line), each followed by what it prints. Only blocks in
which every command runs pdl-scale (as `scripts/pdl-scale`, `pdl-scale` or
`build/release/app/pdl-scale`) are transcripts; other blocks are left alone.

Each command runs with the given binary in a scratch directory holding a link to the
repository's `examples/` and an empty `docs/` (so `--plot docs/x.svg` writes nothing into the
source tree), standard error merged into standard output as a terminal shows it. An output
whose last line is "…" is compared up to that line; a "…" inside a line matches any text (a
time); a command that fails ends its output with "(exit status N)". The check fails, with a diff per command,
when any output differs from the page.

    transcripts.py BINARY PAGE.md [--update]
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

PROGRAM = re.compile(r"^(scripts/pdl-scale|pdl-scale|build/release/app/pdl-scale)(\s|$)")


def blocks(lines):
    """(first, last) line indices of every fenced block's contents."""
    inside, start = False, 0
    for i, line in enumerate(lines):
        if line.startswith("```"):
            if inside:
                yield start, i
            else:
                start = i + 1
            inside = not inside


def commands(body):
    """[(command lines, command text, expected output lines)] of a block, or None when it is
    no transcript."""
    result, i = [], 0
    while i < len(body):
        if not body[i].startswith("$ "):
            if not result:
                return None
            result[-1][2].append(body[i])
            i += 1
            continue
        written, text = [body[i]], body[i][2:]
        while text.endswith("\\") and i + 1 < len(body):
            i += 1
            written.append(body[i])
            text = text[:-1] + " " + body[i].strip()
        if not PROGRAM.match(text):
            return None
        result.append((written, text, []))
        i += 1
    return result or None


def run(binary, repository, text):
    words = shlex.split(text)
    words[0] = binary
    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(os.path.join(repository, "examples"), os.path.join(scratch, "examples"))
        os.mkdir(os.path.join(scratch, "docs"))
        done = subprocess.run(words, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=600)
    printed = done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []
    return printed + ([f"(exit status {done.returncode})"] if done.returncode else [])


def matches(wanted, actual):
    """A page line with "…" inside stands for any text there (a time, say)."""
    if "…" not in wanted or wanted == "…":
        return wanted == actual
    return re.fullmatch(".*".join(re.escape(part) for part in wanted.split("…")), actual) is not None


def keep_elisions(wanted, actual):
    """The actual lines, with each one that a page line containing "…" matches replaced by that
    page line (aligned by difflib, so an added or removed line elsewhere does not lose them)."""
    kept = list(actual)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wanted, actual, autojunk=False).get_opcodes():
        if tag == "replace":
            for w, j in zip(wanted[i1:i2], range(j1, j2)):
                if matches(w, actual[j]):
                    kept[j] = w
    return kept


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--update"):
        sys.exit(__doc__)
    binary, page, update = os.path.abspath(sys.argv[1]), sys.argv[2], len(sys.argv) == 4
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, kept, failures, checked = [], 0, 0, 0
    for first, last in blocks(lines):
        found = commands(lines[first:last])
        if found is None:
            continue
        out += lines[kept:first]
        for written, text, expected in found:
            checked += 1
            # A blank line after an output separates it from the next command: not output.
            blank = bool(expected) and expected[-1] == ""
            wanted = expected[:-1] if blank else expected
            actual = run(binary, repository, text)
            # A last line "…" stands for the rest of a long output: only the lines above it count.
            if wanted and wanted[-1] == "…" and len(actual) >= len(wanted) - 1:
                actual = actual[:len(wanted) - 1] + ["…"]
            actual = keep_elisions(wanted, actual)
            if actual != wanted and not update:
                failures += 1
                print(f"{page}:{first + 1}: the output of `{text}` differs from the page:")
                for line in difflib.unified_diff(wanted, actual, "page", "tool", lineterm=""):
                    print(line)
            out += written + (actual if update else wanted) + ([""] if blank else [])
        kept = last
    out += lines[kept:]
    if update:
        with open(page + ".tmp", "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        os.replace(page + ".tmp", page)
        print(f"{page}: {checked} transcripts rewritten")
        return 0
    print(f"{page}: {checked} transcripts, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
