#!/usr/bin/env bash
# --calibrate and --validate check their outputs as the analysis does (app/destinations.hpp):
# no output may replace an input (the program, the machine file, the runs, a --set-file) or
# another output, none may be '', and an unwritable one is refused before any work, so a failed
# run leaves no file. Each case runs in a scratch copy of examples/calibration; every input must
# be unchanged afterwards and nothing new may appear.
#   calibration_outputs.sh PDL_SCALE REPO_DIR
set -u
tool="$1"
repo="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$repo"/examples/calibration/tasks.pdl "$repo"/examples/calibration/barrier.machine \
   "$repo"/examples/calibration/train.csv "$repo"/examples/calibration/test.csv "$scratch"/
cd "$scratch"
printf 'tc=9\n' > start.sets
cp -r . ../"$(basename "$scratch")".orig
original="../$(basename "$scratch").orig"
fit=(tasks.pdl --machine barrier.machine --calibrate train.csv --fit tc,ts)
failures=0
expect() {  # expect MESSAGE-PREFIX ARGS...: exit 2, that message, no file changed or added
  local message="$1"
  shift
  local err status
  err="$("$tool" "$@" 2>&1 >/dev/null)"
  status=$?
  if [ "$status" -ne 2 ] || [[ "$err" != "$message"* ]]; then
    echo "FAILED: $* -> exit $status: $err"
    failures=$((failures + 1))
  fi
  if ! diff -r "$original" . >/dev/null; then
    echo "FAILED: $* changed the files: $(diff -rq "$original" . | tr '\n' ' ')"
    failures=$((failures + 1))
    rm -rf ./* && cp -r "$original"/. .
  fi
}
expect "pdl-scale: error: -o tasks.pdl would overwrite an input of this run (the program, 'tasks.pdl')" "${fit[@]}" -o tasks.pdl
expect "pdl-scale: error: -o train.csv would overwrite an input of this run (the runs of --calibrate, 'train.csv')" "${fit[@]}" -o train.csv
expect "pdl-scale: error: -o test.csv would overwrite an input of this run (the runs of --validate, 'test.csv')" tasks.pdl --validate test.csv -o test.csv
expect "pdl-scale: error: --write-fit barrier.machine would overwrite an input of this run (the machine file, 'barrier.machine')" "${fit[@]}" --write-fit barrier.machine
expect "pdl-scale: error: --write-fit train.csv would overwrite an input of this run (the runs of --calibrate" "${fit[@]}" --write-fit train.csv
expect "pdl-scale: error: --write-fit start.sets would overwrite an input of this run (a --set-file, 'start.sets')" "${fit[@]}" --set-file start.sets --write-fit start.sets
ln -s tasks.pdl link.pdl && cp -P link.pdl "$original"/
expect "pdl-scale: error: --write-fit link.pdl would overwrite an input of this run (the program, 'tasks.pdl')" "${fit[@]}" --write-fit link.pdl
expect "pdl-scale: error: -o out.txt and --write-fit out.txt are the same file" "${fit[@]}" --write-fit out.txt -o out.txt
expect "pdl-scale: error: -o v.svg and --validation-plot v.svg are the same file" "${fit[@]}" --validate test.csv --validation-plot v.svg -o v.svg
expect "pdl-scale: error: -o: cannot write 'nodir/r'" "${fit[@]}" --write-fit f.sets -o nodir/r
expect "pdl-scale: error: --validation-plot: cannot write 'nodir/v.svg'" "${fit[@]}" --write-fit f.sets --validate test.csv --validation-plot nodir/v.svg
expect "pdl-scale: error: --write-fit '': expected a file name" "${fit[@]}" --write-fit ''
rm -rf "$original"
if [ "$failures" -eq 0 ]; then echo ok; else echo "$failures failures"; exit 1; fi
