#!/usr/bin/env python3
"""scripts/reading-path counts what it says (issue 52): it is run on a tree of four small C++
files written to a temporary folder, whose reading is known by hand, and its output and exit
codes are compared with that reading. The tree has calls across files, overloads told apart by
their arguments (one through a default written on a declaration), overloads it can only guess
between, a call inside a lambda, a lambda argument, a call nested in another, calls whose
arguments do not carry the value (one only a cast of a part of it), a fake call in a comment and
one in a string holding braces (either, read as code, would send the reader to audit.cpp first).

    reading_path_test.py SOURCE_DIR
Prints each difference and exits 1, or prints "ok"."""
import os
import subprocess
import sys
import tempfile

FILES = {
    "analysis/entry.cpp": """\
#include "solvers/solve.hpp"
namespace analysis {
struct Request {
  int threads = 1;
};
int plan(const Request& request, int extra = 0);  // its default is on the declaration

namespace {
int helper(const Request& r) { return r.threads; }
}  // namespace

int run(const Request& request) {
  const char* text = "{ report::audit(request) }";  // report::audit(request) is no call either
  int total = plan(request);
  total += solvers::apply([&](int k) {
    return solvers::solve(request.threads, k) + request.threads;
  });
  total += solvers::twice(helper(request)) + solvers::twice(3);
  total += solvers::twice(static_cast<int>(request.threads));  // a value made from it: not followed
  return total + report::show(request, text);
}
}  // namespace analysis
""",
    "analysis/plan.cpp": """\
namespace analysis {
int plan(const Request& given, int extra) { return solvers::solve(given) + extra; }
}  // namespace analysis
""",
    "solvers/solve.hpp": """\
#pragma once
namespace solvers {
inline int solve(int threads, int k, int extra = 1) { return threads * k * extra; }
inline int solve(int threads, int k) { return threads * k; }
template <typename R>
int solve(const R& options) {
  return options.threads;
}
template <class F>
int apply(const F& f) {
  return f(1);
}
inline int twice(int n) { return 2 * n; }
inline int show(int n, const char* text) { return n + text[0]; }
}  // namespace solvers
""",
    "report/audit.cpp": """\
namespace report {
int show(const analysis::Request& request, const char* text) { return text[0] + request.threads; }
int audit(const analysis::Request& request) { return show(request, "}"); }
}  // namespace report
""",
}

# By hand: run reads plan (plan.cpp), which passes `given` to the one-argument solve (solve.hpp);
# back in run, apply is not entered (only its lambda names the request), the lambda's solve call
# is, to the overload of exactly two parameters; twice is not entered (helper consumes the
# request, and is entered), and show is.
EXPECTED = """\
analysis::run request: 9 stays, 5 returns to a file already left
from analysis::run (analysis/entry.cpp:12)
  1. analysis/entry.cpp: analysis::run 12-21
  2. analysis/plan.cpp: analysis::plan 2-2
  3. solvers/solve.hpp: solvers::solve 5-8
  4. analysis/plan.cpp (back): analysis::plan 2-2 (continued)
  5. analysis/entry.cpp (back): analysis::run 12-21 (continued)
  6. solvers/solve.hpp (back): solvers::solve 4-4
  7. analysis/entry.cpp (back): analysis::run 12-21 (continued), analysis::helper 9-9
  8. report/audit.cpp: report::show 2-2
  9. analysis/entry.cpp (back): analysis::run 12-21 (continued)
"""
AUDIT = """\
report::audit request: 1 stays, 0 returns to a file already left
from report::audit (report/audit.cpp:3)
note: report/audit.cpp:3: report::audit calls show with 2 arguments: 2 functions fit \
(report/audit.cpp:2, solvers/solve.hpp:14); followed the one in the caller's file, report/audit.cpp:2
  1. report/audit.cpp: report::audit 3-3, report::show 2-2
"""


def run(script, root, *arguments):
    done = subprocess.run([sys.executable, script, "--root", root, *arguments], capture_output=True, text=True)
    return done.returncode, done.stdout


def write(root):
    for path, text in FILES.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)


def differences(script, root):
    found = []
    code, out = run(script, root, "--verbose", "analysis::run", "request")
    if (code, out) != (0, EXPECTED):
        found.append(f"the reading of analysis::run (exit {code}):\n{out}expected:\n{EXPECTED}")
    for limit, expected in ((9, 0), (8, 1)):
        code, _ = run(script, root, "--max-stays", str(limit), "run", "request")
        if code != expected:
            found.append(f"--max-stays {limit} exits {code}, not {expected}")
    code, out = run(script, root, "--verbose", "report::audit", "request")
    if (code, out) != (0, AUDIT):
        found.append(f"the reading of report::audit (exit {code}):\n{out}expected:\n{AUDIT}")
    code, _ = run(script, root, "analysis::absent", "request")
    if code != 2:
        found.append(f"an ENTRY that names no function exits {code}, not 2")
    return found


def main():
    script = os.path.join(sys.argv[1], "scripts", "reading-path")
    with tempfile.TemporaryDirectory() as root:
        write(root)
        found = differences(script, root)
    for difference in found:
        print(difference)
    if found:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
