#!/usr/bin/env bash
# The benchmark set of docs/performance.md against the committed figures (bench/baseline.json):
# each figure then and now, REGRESSION and exit 1 when one is more than 15% slower.
# Usage: bench/compare.sh [BUILD_DIR] [--update | --tolerance T | --filter REGEX]
# Builds the benchmarks first (scripts/build); run on an otherwise idle machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/release}"
[ $# -gt 0 ] && shift
cmake --build "$build" -j2 --target monte_carlo_bench state_space_bench approximate_sweep_bench calibration_bench \
  distributions_bench >/dev/null
exec python3 "$root/bench/compare.py" "$build" "$@"
