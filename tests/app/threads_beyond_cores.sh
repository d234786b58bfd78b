#!/usr/bin/env bash
# docs/measured.md, "Threads beyond the cores": the Jacobi kernel's measured sweep at 1, 2 and 4
# threads on a 2-core box (examples/measure/jacobi_threads_runs.csv) against the prediction from
# one-thread task times on examples/measure/two-cores.machine (a NODE of 2 cores): the median of
# each thread count within 15% of the prediction, and 4 threads predicted no faster than 2 (the
# machine without the NODE predicts them twice as fast).
#   threads_beyond_cores.sh PDL_SCALE REPO_DIR
set -u
tool="$1"
repo="$2"
measure="$repo/examples/measure"
predicted="$("$tool" "$measure/jacobi_threads.pdl" --machine "$measure/two-cores.machine" --p 1,2,4 \
  --method approx --format csv --quiet)" || { echo "FAILED: the prediction"; exit 1; }
# The median wall time of each thread count's runs.
medians="$(awk -F, '!/^#/ && $1 ~ /^[0-9]+$/ { print $1, $6 }' "$measure/jacobi_threads_runs.csv" | sort -n -k1,1 -k2,2 |
  awk '{ t[$1] = t[$1] " " $2 } END { for (p in t) { n = split(t[p], v, " "); print p, v[int((n + 1) / 2)] } }' | sort -n)"
failures=0
two=""
while read -r p median; do
  estimate="$(printf '%s\n' "$predicted" | awk -F, -v p="$p" '$2 == p && $3 == "approx" { print $4 }')"
  error="$(awk -v e="$estimate" -v m="$median" 'BEGIN { printf "%.4f", (e - m) / m }')"
  echo "p = $p: measured median $median us, predicted $estimate us, error $error"
  if awk -v x="$error" 'BEGIN { exit !(x > 0.15 || x < -0.15) }'; then
    echo "FAILED: p = $p off by more than 15%"
    failures=$((failures + 1))
  fi
  [ "$p" = 2 ] && two="$estimate"
  if [ "$p" = 4 ] && awk -v a="$estimate" -v b="$two" 'BEGIN { exit !(a < b) }'; then
    echo "FAILED: 4 threads on 2 cores predicted faster than 2"
    failures=$((failures + 1))
  fi
done <<< "$medians"
[ "$failures" -eq 0 ] && echo ok
