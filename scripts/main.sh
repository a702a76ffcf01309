#!/usr/bin/env bash
# The main job: install, build, then run port-check over every bundled port and pypto-lib.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh -DPORTCHECK_TESTS=OFF
targets=(projects)
[ -d pypto-lib ] && targets+=(pypto-lib)
exec build/port-check check "${targets[@]}" "$@"
