#!/usr/bin/env bash
# A failure that one rank of a job meets alone ends the whole job with exit status 2 and rank 0's
# message; no rank waits on one that has left (docs/scale-out.md, "When ranks disagree"):
# ranks started in different working directories where the output's directory exists for some
# ranks only, and MPMD launches whose ranks were given different arguments. Each launch runs
# under `timeout`, so a hang fails here rather than at ctest's limit.
# Usage: rank_failures.sh PDL_SCALE MPIEXEC
set -euo pipefail
tool="$(realpath "$1")"
mpiexec="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
program="$root/examples/paper/neighbor.pdl"

launcher=("$mpiexec" --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then launcher+=(--allow-run-as-root); fi
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1

failures=0
# expect NAME STATUS REGEX -- LAUNCH ARGUMENTS...   (REGEX '' checks the status alone)
expect() {
  local name="$1" status="$2" regex="$3"
  shift 4
  local got=0
  timeout 120 "${launcher[@]}" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err" || got=$?
  if [ "$got" -eq 124 ]; then
    echo "FAIL $name: the job hung (killed after 120 s)"
    failures=$((failures + 1))
  elif [ "$got" -ne "$status" ]; then
    echo "FAIL $name: exit $got, expected $status"
    cat "$scratch/$name.err"
    failures=$((failures + 1))
  elif [ -n "$regex" ] && ! grep -Eq -- "$regex" "$scratch/$name.out" "$scratch/$name.err"; then
    echo "FAIL $name: no line matches '$regex'"
    cat "$scratch/$name.out" "$scratch/$name.err"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

mkdir -p "$scratch/with/out" "$scratch/without"
# Only rank 0 writes: its directory decides, whatever the others' directories hold.
expect output_dir_on_rank_0_only 0 "" -- \
  -n 1 --wdir "$scratch/with" "$tool" "$program" --p 1,2 -o out/r.txt : \
  -n 2 --wdir "$scratch/without" "$tool" "$program" --p 1,2 -o out/r.txt
if ! grep -Eq "^ *2 " "$scratch/with/out/r.txt"; then
  echo "FAIL output_dir_on_rank_0_only: rank 0 did not write out/r.txt"
  failures=$((failures + 1))
fi
expect output_dir_on_other_ranks_only 2 "-o: cannot write 'out/r.txt': the directory 'out' does not exist" -- \
  -n 1 --wdir "$scratch/without" "$tool" "$program" --p 1,2 -o out/r.txt : \
  -n 2 --wdir "$scratch/with" "$tool" "$program" --p 1,2 -o out/r.txt
# MPMD: a bad option on some ranks, and two valid but different commands.
expect bad_option_on_two_ranks 2 "ranks 1-2: pdl-scale .*neighbor.pdl --p 2 --bogus" -- \
  -n 1 "$tool" "$program" --p 2 : -n 2 "$tool" "$program" --p 2 --bogus
expect different_commands 2 "rank 1: pdl-scale .*neighbor.pdl --p 3" -- \
  -n 1 "$tool" "$program" --p 2 : -n 1 "$tool" "$program" --p 3 : -n 1 "$tool" "$program" --p 2
# The same bad option on every rank: one message, from rank 0.
expect bad_option_everywhere 2 "pdl-scale: error: unknown option '--bogus'" -- \
  -n 3 "$tool" "$program" --bogus
if [ "$(grep -c 'unknown option' "$scratch/bad_option_everywhere.err")" -ne 1 ]; then
  echo "FAIL bad_option_everywhere: the message was not printed once"
  failures=$((failures + 1))
fi
exit $((failures > 0))
