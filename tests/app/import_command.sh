#!/usr/bin/env bash
# `pdl-scale import` as a user meets it (docs/import.md): each bad input exits 2 with a located
# message and leaves no file behind (truncated JSON, an unmatched send, a cycle of requires, a
# negative size, 10^7 operations within --memory, an output on the input); good inputs write the
# program and its data files, and the program checks and solves.
#   import_command.sh PDL_SCALE REPO_DIR
set -u
tool="$1"
repo="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
# refused EXPECTED_PATTERN ARGS...: exit 2, stderr matching, and no out.* file left in the scratch directory.
refused() {
  local pattern="$1"
  shift
  local err
  err="$("$tool" import "$@" 2>&1 >/dev/null)"
  local got=$?
  [ "$got" -eq 2 ] || fail "import $* -> exit $got, expected 2: $err"
  grep -Eq -- "$pattern" <<<"$err" || fail "import $* -> message '$err' does not match '$pattern'"
  if ls out* .out* >/dev/null 2>&1; then fail "import $* left $(ls -a | grep out | tr '\n' ' ')"; fi
}
wf="$repo/validation/wfinstances/srasearch-chameleon-10a-001.json"
head -c 3000 "$wf" >truncated.json
refused '^truncated\.json:[0-9]+:[0-9]+: error: invalid JSON: .*unexpected end of input' wfformat truncated.json -o out.pdl
printf 'num_ranks 2\nrank 0 {\n  send 8b to 1 tag 3\n}\n' >unmatched.goal
refused '^unmatched\.goal:3:3: error: this send to rank 1 with tag 3 has no receive' goal unmatched.goal -o out.pdl
printf 'num_ranks 1\nrank 0 {\n  a: calc 1\n  b: calc 2\n  a requires b\n  b requires a\n}\n' >cycle.goal
refused '^cycle\.goal:3:3: error: these operations wait for each other in a cycle' goal cycle.goal -o out.pdl
printf 'num_ranks 2\nrank 0 {\n  send -8b to 1\n}\n' >negative.goal
refused '^negative\.goal:3:8: error: a message size \(bytes\) must be a whole number of at least 0' goal negative.goal
# 10^7 operations (about 70 MB) against a 64 MB budget: refused where the import crosses it.
awk 'BEGIN { print "num_ranks 1"; print "rank 0 {"; for (i = 0; i < 10000000; ++i) print "calc 1"; print "}" }' >huge.goal
refused '^huge\.goal:[0-9]+:[0-9]+: error: (reading the input up to here holds about|the imported program passes)' \
  goal huge.goal --memory 64M -o out.pdl
# 10^6 tasks of WfFormat (69 MB) against a 32 MB budget: the command holds 16 MB of it and refuses there.
awk 'BEGIN { printf "{\"name\": \"big\", \"schemaVersion\": \"1.5\", \"workflow\": {\"specification\": {\"tasks\": [";
  for (i = 0; i < 1000000; ++i) printf "%s{\"name\": \"t%d\", \"id\": \"t%d\", \"parents\": [], \"children\": []}", (i ? ",\n" : "\n"), i, i;
  print "]}}}" }' >big.json
refused '^big\.json:[0-9]+:[0-9]+: error: the input is 65\.6 MiB; within the memory budget of 32\.0 MiB' \
  wfformat big.json --memory 32M -o out.pdl
refused 'would overwrite an input of this run \(the input' goal unmatched.goal -o unmatched.goal
refused 'give -o PROGRAM' wfformat "$wf"
refused "unknown format 'otf3'" otf3 "$wf"
refused "cannot read 'missing.goal'" goal missing.goal
# Good inputs: the program and its data files, and the program solves.
"$tool" import wfformat "$wf" -o wf/flow.pdl >/dev/null 2>&1 && fail "a missing directory for -o was not refused"
mkdir wf
"$tool" import wfformat "$wf" -o wf/flow.pdl >listed 2>/dev/null || fail "import wfformat -> exit $?"
grep -q '^wrote wf/flow.pdl$' listed || fail "the program is not listed last: $(cat listed)"
[ -f wf/srasearch-chameleon-10a-001.runs.csv ] || fail "no runs file beside the program"
"$tool" wf/flow.pdl --validate wf/srasearch-chameleon-10a-001.runs.csv >/dev/null 2>&1 ||
  fail "the imported program does not validate against its runs file"
"$tool" import goal "$repo/validation/goal/dissemination_16.goal" >d16.pdl || fail "import goal to stdout -> exit $?"
out="$("$tool" d16.pdl --machine "$repo/examples/machines/loggopsim.machine" --p 16 --method exact --format csv)"
grep -Eq '^[^,]*,16,exact,22(\.0*)?,' <<<"$out" || fail "dissemination_16 is not 22 us: $out"
[ "$failures" -eq 0 ] && echo ok
