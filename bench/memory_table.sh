#!/usr/bin/env bash
# Peak resident memory and wall-clock time of each method on models of 10^3 to 10^6 tasks
# (docs/performance.md, "Memory"): the paper's neighbour example and a random ARBITRARY DAG
# (bench/random_dag.py), each at p = 64 (the command also solves p = 1, the base of the
# speedups), then the budget's refusals. Needs /usr/bin/time (GNU time).
# Usage: bench/memory_table.sh [path/to/pdl-scale] [--memory SIZE]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tool="$(realpath "${1:-$root/build/release/app/pdl-scale}")"
memory="${2:-4G}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$root"
python3 bench/random_dag.py 1000 --out "$scratch/dag1000.pdl"
python3 bench/random_dag.py 10000 --out "$scratch/dag10000.pdl"

# "| model | tasks | method | peak | time |": one command, its peak RSS and wall-clock time.
measure() {
  local model="$1" tasks="$2" method="$3"
  shift 3
  local out
  out="$( { /usr/bin/time -f '%M %e' "$tool" "$@" --quiet > "$scratch/out.txt"; } 2>&1 | tail -1)"
  local kib="${out% *}" seconds="${out#* }"
  local note=""
  if grep -q "not computed" "$scratch/out.txt"; then note=" (refused)"; fi
  printf '| %s | %s | %s | %.0f MiB | %.2f s%s |\n' "$model" "$tasks" "$method" "$(echo "$kib / 1024" | bc -l)" "$seconds" "$note"
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| model | tasks | method | peak RSS | time |"
echo "| --- | --- | --- | --- | --- |"
common=(--p 64 --max-exact-tasks 2000000 --memory "$memory")
for size in "100 10 1e3" "1000 10 1e4" "1000 100 1e5" "10000 100 1e6"; do
  set -- $size
  for method in approx bounds mc exact; do
    measure neighbor "$3" "$method" examples/paper/neighbor.pdl --set "columns=$1" --set "iterations=$2" --method "$method" "${common[@]}"
  done
done
for size in "dag1000 1 1e3" "dag10000 1 1e4" "dag10000 10 1e5" "dag10000 100 1e6"; do
  set -- $size
  for method in approx bounds mc exact; do
    measure "random DAG" "$3" "$method" "$scratch/$1.pdl" --set "reps=$2" --method "$method" "${common[@]}"
  done
done
echo
echo "refusals:"
echo "| model | tasks | method | peak RSS | time |"
echo "| --- | --- | --- | --- | --- |"
measure "neighbor, --memory 64M" 1e6 "bounds,mc" examples/paper/neighbor.pdl --set columns=10000 \
  --set iterations=100 --method bounds,mc --p 64 --max-exact-tasks 2000000 --memory 64M
measure "neighbor, 8 iterations, p = 10, --memory 64M" 80 exact examples/paper/neighbor.pdl --set iterations=8 \
  --method exact --p 10 --max-states 1000000000000 --memory 64M
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
