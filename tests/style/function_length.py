#!/usr/bin/env python3
"""No function of the libraries is longer than 60 lines (the project's style: a function says
one thing). Universal Ctags finds each function's first and last line; a lambda counts as part
of the function that holds it. Prints every function over the limit and exits 1 when there is
one; prints "ok" otherwise.

    function_length.py SOURCE_DIR [LIMIT]
"""
import subprocess
import sys

from layers import LIBRARIES  # the same folders layers.py reads, listed there once


def functions(root):
    output = subprocess.run(
        ["ctags", "-R", "--languages=C++", "--kinds-C++=f", "--fields=+ne", "-f", "-"] + LIBRARIES,
        cwd=root, check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        fields = line.split("\t")
        extra = dict(field.split(":", 1) for field in fields[3:] if ":" in field)
        if "line" in extra and "end" in extra:
            yield fields[1], int(extra["line"]), int(extra["end"]), fields[0]


def main():
    root = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    long_ones = sorted((end - start + 1, path, start, name) for path, start, end, name in functions(root)
                       if end - start + 1 > limit)
    for length, path, start, name in reversed(long_ones):
        print(f"{path}:{start}: {name} is {length} lines, more than {limit}")
    if long_ones:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
