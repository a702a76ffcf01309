#!/usr/bin/env bash
# One short libFuzzer run: replays the seeds, then mutates for PORTCHECK_FUZZ_SECONDS (default 30;
# 0 = replay the seeds only). New inputs go to a scratch corpus under <work>, never into the
# repository; a failing input is saved as <work>/artifacts/crash-*, leak-*, timeout-* or oom-*.
# Fails on a crash, a sanitizer report, a leak, one input running over 10 s, or more than 2 GB.
# A seed argument is a folder, or a list file (fuzz/seeds/<target>.txt: repository paths of real
# fixtures, one per line, '#' comments) whose files are copied into <work>/seeds first.
# PORTCHECK_FUZZ_SEED (default 1) fixes libFuzzer's random seed, so the short runs of the test suite
# mutate the same way each time and a red CI names a bug, not bad luck; 0 draws a new seed (long runs).
# usage: run_fuzz.sh <fuzz binary> <work dir> <seed folder or list>...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$1 work=$2
shift 2
mkdir -p "$work/corpus" "$work/artifacts"
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
seeds=("$work/seeds")
n=0
for s in "$@"; do
  if [ -d "$s" ]; then
    seeds+=("$s")
  elif [ -f "$s" ]; then
    while IFS= read -r rel; do
      case $rel in '' | '#'*) continue ;; esac
      [ -f "$root/$rel" ] || { echo "run_fuzz: seed list $s names a missing file: $rel" >&2; exit 2; }
      n=$((n + 1))
      cp "$root/$rel" "$work/seeds/$n-$(basename "$rel")"
    done <"$s"
  fi
done
seconds=${PORTCHECK_FUZZ_SECONDS:-30}
args=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -seed="${PORTCHECK_FUZZ_SEED:-1}"
  -artifact_prefix="$work/artifacts/")
if [ "$seconds" -eq 0 ]; then
  exec "$binary" "${args[@]}" -runs=0 "$work/corpus" "${seeds[@]}"
fi
exec "$binary" "${args[@]}" -max_total_time="$seconds" "$work/corpus" "${seeds[@]}"
