#!/usr/bin/env bash
# Whole-process timings of pdl-scale (docs/performance.md): the paper's example and the
# large neighbour problem whose cost must not grow with the columns or the iterations.
# Usage: bench/whole_process.sh [path/to/pdl-scale] [repetitions]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="${1:-$root/build/release/app/pdl-scale}"
repetitions="${2:-5}"
cd "$root"

# Best and median wall-clock seconds of `repetitions` runs of the command.
measure() {
  local times=()
  for _ in $(seq "$repetitions"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "best %.3f s, median %.3f s\n", a[1], a[int((NR+1)/2)]}'
}

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
echo "paper example, --pmax 64 (the README's first command: approx, bounds and the prediction's own solve):"
measure "$tool" examples/paper/neighbor.pdl --pmax 64 --quiet
echo "paper example, --pmax 64 --prediction-budget 0 (approx and bounds alone):"
measure "$tool" examples/paper/neighbor.pdl --pmax 64 --prediction-budget 0 --quiet
for size in "100000 1000" "1000000 10000" "10000000 100000"; do
  set -- $size
  echo "columns=$1 iterations=$2, --pmax 1024:"
  measure "$tool" examples/paper/neighbor.pdl --set "columns=$1" --set "iterations=$2" --pmax 1024 --quiet
done
echo "paper example, --pmax 10 --method mc (precision 0.001):"
measure "$tool" examples/paper/neighbor.pdl --pmax 10 --method mc --quiet
