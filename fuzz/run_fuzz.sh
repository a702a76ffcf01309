#!/usr/bin/env bash
# One short libFuzzer run: replays the seed folders, then mutates for PORTCHECK_FUZZ_SECONDS (default
# 30; 0 = replay the seeds only). New inputs go to a scratch corpus under <work>, never into the
# repository; a failing input is saved as <work>/artifacts/crash-*, leak-*, timeout-* or oom-*.
# Fails on a crash, a sanitizer report, a leak, one input running over 10 s, or more than 2 GB.
# usage: run_fuzz.sh <fuzz binary> <work dir> <seed dir>...
set -euo pipefail
binary=$1 work=$2
shift 2
seeds=()
for d in "$@"; do [ -d "$d" ] && seeds+=("$d"); done
seconds=${PORTCHECK_FUZZ_SECONDS:-30}
mkdir -p "$work/corpus" "$work/artifacts"
args=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts/")
if [ "$seconds" -eq 0 ]; then
  exec "$binary" "${args[@]}" -runs=0 "$work/corpus" "${seeds[@]}"
fi
exec "$binary" "${args[@]}" -max_total_time="$seconds" "$work/corpus" "${seeds[@]}"
