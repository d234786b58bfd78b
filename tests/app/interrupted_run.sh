#!/bin/sh
# An interrupted sweep keeps its work (issue 30; docs/cli.md, "Exit status"): SIGINT, then
# SIGTERM, sent a few seconds into a sweep of minutes. Each run must end with status 130 within
# seconds, its report holding the row of p = 1 and more, fewer rows than asked for, and the note
# naming the processor counts not solved; with -o the file holds that report whole.
#   interrupted_run.sh PDL_SCALE (run from the source directory)
set -u
bin=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# sweep SIGNAL OUTPUT-ARGS...: the sweep started, the signal sent after 3 s; its status.
sweep() {
  signal=$1
  shift
  "$bin" examples/paper/neighbor.pdl --set columns=2048 --set iterations=20 --pmax 1024 --method approx \
    --quiet --allow-long "$@" 2>"$scratch/err" &
  pid=$!
  sleep 3
  kill "-$signal" "$pid"
  wait "$pid"
  return $?
}

check_report() {  # FILE SIGNAL
  grep -q '^   1 ' "$1" || fail "$2: no row of p = 1"
  rows=$(grep -c '^ *[0-9][0-9]* ' "$1")
  [ "$rows" -ge 2 ] || fail "$2: only $rows rows"
  [ "$rows" -lt 1024 ] || fail "$2: all $rows rows: the signal came too late to test anything"
  grep -q '^interrupted run (Ctrl-C or a termination signal): p = .* not solved' "$1" || fail "$2: no note"
  grep -q 'pdl-scale: interrupted: finishing the models under way' "$scratch/err" || fail "$2: nothing said on stderr"
  echo "$2: $rows rows, exit 130"
}

sweep INT >"$scratch/out"
status=$?
[ "$status" -eq 130 ] || fail "SIGINT: status $status, not 130"
check_report "$scratch/out" SIGINT

sweep TERM -o "$scratch/report.txt" >"$scratch/out"
status=$?
[ "$status" -eq 130 ] || fail "SIGTERM: status $status, not 130"
[ ! -s "$scratch/out" ] || fail "SIGTERM: the report went to stdout as well as -o"
check_report "$scratch/report.txt" SIGTERM
echo ok
