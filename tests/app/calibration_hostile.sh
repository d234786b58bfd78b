#!/usr/bin/env bash
# Issue 31's calibration and runs-file findings, each with the behaviour it must now have:
# times out of range once the unit converts them, a fitted name the model does not use, fewer
# settings than names, --isospeed base of a program that takes no time, a --set-file value that
# does not parse; an 8 MB line's short message; and no glog lines around a refusal.
#   calibration_hostile.sh PDL_SCALE REPO_DIR
set -u
tool="$1"
repo="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
program=("$repo/examples/calibration/tasks.pdl" --machine "$repo/examples/calibration/barrier.machine")
failures=0
expect() {  # expect EXIT PATTERN ARGS...: that exit status, stderr matching the pattern, no glog line
  local status="$1" pattern="$2"
  shift 2
  local err
  err="$("$tool" "$@" 2>&1 >/dev/null)"
  local got=$?
  if [ "$got" -ne "$status" ] || ! grep -Eq -- "$pattern" <<<"$err" ||
     grep -Eq 'InitGoogleLogging|\.cc:[0-9]+\]' <<<"$err"; then
    echo "FAILED: $* -> exit $got: $err"
    failures=$((failures + 1))
  fi
}
printf '# unit: s\np, time\n1, 100e-6\n2, 1e303\n' > "$scratch/huge.csv"
printf '# unit: ns\np, time\n1, 5e-324\n' > "$scratch/tiny.csv"
printf 'p, time\n1, 1e-310\n' > "$scratch/subnormal.csv"
for runs in huge tiny subnormal; do
  expect 2 "time .* outside \[1e-06, 1e\+18\]" "${program[@]}" --validate "$scratch/$runs.csv"
done
printf 'p, time\n2, 50\n2, 52\n' > "$scratch/one_setting.csv"
expect 2 "1 distinct setting\(s\) \(p and column values\) cannot determine 2 parameter\(s\)" \
  "${program[@]}" --calibrate "$scratch/one_setting.csv" --fit tc,ts
printf 'PROGRAM NAME IS '"'"'t'"'"'; EXECUTION PATTERN IS work -> SYNC; VARIABLE tc = 10; VARIABLE unused = 3;\nWORK PHASE work IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS EXPONENTIAL(tc); PROBLEM SIZE IS VECTOR tasks(64); END;\n' > "$scratch/unused.pdl"
printf 'p, time\n1, 700\n4, 200\n' > "$scratch/two.csv"
expect 2 "does not depend on 'unused'" "$scratch/unused.pdl" --machine "$repo/examples/calibration/barrier.machine" \
  --calibrate "$scratch/two.csv" --fit tc,unused
expect 2 "efficiency is 0 .*no speed to hold" "$repo/tests/app/data/zero_time.pdl" --isospeed base \
  --iso-variable n --pmax 8
# Two names that enter only as a product: refused in the command, naming both (issue 51; it was
# at the runs file's header), and without Ceres's glog lines (WARNING: Logging before
# InitGoogleLogging, covariance_impl.cc:772), which used to surround the refusal.
printf 'PROGRAM NAME IS '"'"'ab'"'"'; EXECUTION PATTERN IS work -> SYNC; VARIABLE a = 2; VARIABLE b = 5;\nWORK PHASE work IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS EXPONENTIAL(a*b); PROBLEM SIZE IS VECTOR tasks(64); END;\n' > "$scratch/ab.pdl"
expect 2 "^pdl-scale: error: --fit a,b: the runs do not tell 'a' from 'b'" "$scratch/ab.pdl" \
  --machine "$repo/examples/calibration/barrier.machine" --calibrate "$repo/examples/calibration/train.csv" --fit a,b
# A --set-file value that does not parse is located in the file, not in the "--set tc" it becomes.
printf '# start\ntc=1:18\n' > "$scratch/bad.sets"
expect 2 "bad.sets:2:5: error: expected ';' but found ':'" "${program[@]}" --set-file "$scratch/bad.sets"
# An 8 MB header field or set-file line makes a short message: the quoted name and the source
# line are shortened (the diagnostic echoed all 8 MB).
python3 -c "open('$scratch/wide.csv', 'w').write('p, ' + 'x' * 8_000_000 + ', time\n1, 2\n')"
python3 -c "open('$scratch/wide.sets', 'w').write('tc=' + '1' * 8_000_000 + ':\n')"
for option in --validate --set-file; do
  file="$scratch/wide.csv"
  [ "$option" = --set-file ] && file="$scratch/wide.sets"
  bytes="$("$tool" "${program[@]}" "$option" "$file" 2>&1 >/dev/null | wc -c)"
  if [ "$bytes" -gt 2000 ]; then
    echo "FAILED: $option of an 8 MB line: a message of $bytes bytes"
    failures=$((failures + 1))
  fi
done
expect 2 "wide.csv:1:4: error: the column 'x{48}\.\.\. \(8000000 bytes\)' is neither" "${program[@]}" \
  --validate "$scratch/wide.csv"
[ "$failures" -eq 0 ] && echo ok
