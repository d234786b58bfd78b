#!/usr/bin/env bash
# The output of `mpirun -n RANKS pdl-scale ...` is the output of one process, byte for byte
# (the table and CSV whole, JSON apart from its timing fields): a sweep, a Monte Carlo run with
# and without the precision rule, and a state space (docs/scale-out.md).
# Usage: same_output.sh PDL_SCALE MPIEXEC RANKS
set -euo pipefail
tool="$1"
mpiexec="$2"
ranks="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$root"

launcher=("$mpiexec" --oversubscribe -n "$ranks")
# Open MPI refuses root unless told: CI runs as root.
if [ "$(id -u)" -eq 0 ]; then launcher+=(--allow-run-as-root); fi
# No network interface is needed on one machine; keep Open MPI on shared memory.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1

failures=0
compare() {
  local name="$1"
  shift
  "$tool" "$@" >"$scratch/$name.alone" 2>"$scratch/$name.alone.err" || echo "exit=$?" >>"$scratch/$name.alone"
  "${launcher[@]}" "$tool" "$@" >"$scratch/$name.ranks" 2>"$scratch/$name.ranks.err" || echo "exit=$?" >>"$scratch/$name.ranks"
  # JSON: the timing fields differ from run to run, alone too.
  if [[ " $* " == *" json "* ]]; then
    for file in "$scratch/$name.alone" "$scratch/$name.ranks"; do
      /usr/bin/python3 - "$file" <<'PY'
import json, sys
path = sys.argv[1]
timing = {"seconds", "estimated_seconds", "wall_seconds", "elapsed_seconds", "task_samples_per_second", "started", "finished"}
def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in timing}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value
with open(path) as f:
    text = f.read()
try:
    data = strip(json.loads(text))
    out = json.dumps(data, indent=1, sort_keys=True)
except ValueError:
    out = text
with open(path, "w") as f:
    f.write(out)
PY
    done
  fi
  if cmp -s "$scratch/$name.alone" "$scratch/$name.ranks"; then
    echo "same: $name ($(wc -l <"$scratch/$name.alone") lines)"
  else
    echo "DIFFERENT: $name"
    diff "$scratch/$name.alone" "$scratch/$name.ranks" | head -20
    echo "--- stderr of the job:"
    head -20 "$scratch/$name.ranks.err"
    failures=$((failures + 1))
  fi
}

# A sweep: two machines, a swept variable, p = 1..48, approx and bounds: (case, p) items shared out.
compare sweep examples/studies/stencil_1d.pdl --machine examples/machines/cluster.machine \
  --machine examples/machines/smp.machine --pmax 48 --format csv --quiet
compare sweep_table examples/paper/neighbor.pdl --sweep iterations=2,4 --pmax 12 --quiet
# Monte Carlo, a fixed count and the precision rule, on the exact model.
compare monte_carlo examples/paper/neighbor.pdl --p 6 --method approx,mc --samples 300000 --seed 11 --format csv --quiet
compare monte_carlo_precision examples/paper/neighbor.pdl --set iterations=4 --p 1,5,10 --method mc --precision 0.002 \
  --seed 5 --format json --quiet
# The state space: 2 iterations of the paper's example, p = 1..5 (p = 5: 7.4 million states).
compare state_space examples/paper/neighbor.pdl --pmax 5 --method exact,bounds --format csv --quiet

# Input that rank 0 reads for every rank: measured data (NUMERICAL), a runs file and --set-file.
compare measured examples/measure/jacobi.pdl --p 1,2 --method approx,bounds --format csv --quiet
compare calibration examples/calibration/tasks.pdl --machine examples/calibration/barrier.machine \
  --calibrate examples/calibration/train.csv --fit tc,ts --validate examples/calibration/test.csv --format json --quiet
compare set_file examples/studies/householder.pdl --machine examples/machines/ksr1.machine \
  --set-file examples/studies/sun_zhu_fit.sets --isospeed 0.585 --iso-variable n --p 2,4,8 --set cubic=1 --quiet
# A file that is not there: the same message on standard error and the same status.
compare_errors() {
  local name="$1"
  shift
  local alone ranks
  # mpiexec adds its own box about the failed rank: rank 0's own standard error is compared,
  # as Open MPI's --output-filename keeps it.
  alone="$("$tool" "$@" 2>&1 >/dev/null; echo "exit=$?")"
  local status=0
  "${launcher[@]}" --output-filename "$scratch/$name.ranks" "$tool" "$@" >/dev/null 2>&1 || status=$?
  ranks="$(cat "$scratch/$name.ranks"/1/rank.0/stderr; echo "exit=$status")"
  if [ "$alone" == "$ranks" ]; then
    echo "same: $name ($alone)"
  else
    echo "DIFFERENT: $name"
    echo "alone: $alone"
    echo "ranks: $ranks"
    failures=$((failures + 1))
  fi
}
compare_errors missing_program examples/no/such.pdl --pmax 4
compare_errors bad_value examples/paper/neighbor.pdl --set columns=-3 --pmax 4

if [ "$failures" -ne 0 ]; then
  echo "$failures of the outputs differ between one process and $ranks ranks"
  exit 1
fi
