#!/usr/bin/env python3
"""The command layer stays thin and errors stay typed (issue 29):

  * app/ holds under 15% of the libraries' lines;
  * no `catch` of a standard exception (std::...) outside the programs' main() (app/main.cpp,
    tools/pdl_fit.cpp), which report an escaped one as an internal error (exit 1): below them, an error a user can cause has a type
    of its own, so that a bug is never worded as bad input;
  * no catch-all (`catch (...)`) that does not rethrow.

    layers.py SOURCE_DIR
Prints each breach and exits 1, or prints the figures and "ok"."""
import os
import re
import sys

LIBRARIES = ["outcome", "distributed", "distributions", "pdl", "importers", "models", "graph", "scaling", "solvers",
             "analysis", "report", "tools", "app", "python"]
STANDARD_CATCH = re.compile(r"catch\s*\(\s*(const\s+)?std::")
MAINS = {os.path.join("app", "main.cpp"), os.path.join("tools", "pdl_fit.cpp")}
CATCH_ALL = re.compile(r"catch\s*\(\s*\.\.\.\s*\)")


def sources(root):
    for library in LIBRARIES:
        for folder, _, files in os.walk(os.path.join(root, library)):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp")):
                    yield library, os.path.join(folder, name)


def main():
    root = sys.argv[1]
    lines = {}
    breaches = []
    for library, path in sources(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines[library] = lines.get(library, 0) + text.count("\n")
        relative = os.path.relpath(path, root)
        for number, line in enumerate(text.splitlines(), 1):
            if STANDARD_CATCH.search(line) and relative not in MAINS:
                breaches.append(f"{relative}:{number}: catches a standard exception: {line.strip()}")
            if CATCH_ALL.search(line):
                following = "\n".join(text.splitlines()[number:number + 12])
                if "rethrow" not in following and "throw;" not in following and "current_exception" not in following:
                    breaches.append(f"{relative}:{number}: a catch-all that neither rethrows nor keeps the exception")
    total = sum(lines.values())
    share = lines.get("app", 0) / total
    print(f"app/: {lines.get('app', 0)} of {total} lines, {100 * share:.1f}%")
    if share >= 0.15:
        breaches.append(f"app/ holds {100 * share:.1f}% of the libraries' lines, 15% or more")
    for breach in breaches:
        print(breach)
    if breaches:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
