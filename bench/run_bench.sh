#!/usr/bin/env bash
# port-check run vs the PyPTO runtime called directly on the same port (bench/direct_run.py).
#
#   bench/run_bench.sh [PORT_CHECK] [PROJECT] [RUNS]   # default build/port-check, row_softmax, 3 runs
#
# Needs hyperfine and a toolchain that reaches the simulator level (`port-check doctor`): PYPTO_ROOT
# (else ../pypto beside the repository), PYPTO_PYTHON, ptoas and g++-15 on PATH. Three commands:
#   direct     the runtime alone: compile for the simulator, run, compare (what a user would write)
#   cold       port-check run --no-cache: compile stage (pass dumps, SRAM analysis), run stage, report
#   cached     port-check run of the unchanged, passed port: replayed from the compile and run caches
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
port_check=$(realpath "${1:-$here/build/port-check}")
project=${2:-row_softmax}
runs=${3:-3}
pypto=$(realpath "${PYPTO_ROOT:-$(dirname "$here")/pypto}")
python=${PYPTO_PYTHON:-python3}
"$port_check" doctor --pypto "$pypto" --python "$python" >/dev/null || {
  echo "run_bench: the simulator level is not reached; see: port-check doctor" >&2
  exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/projects"
cp -r "$here/projects/$project" "$work/projects/$project"
git -C "$work" init -q
src="$work/projects/$project/pypto_src"
pc="$port_check run --pypto $pypto --python $python --cache-dir $work/cache projects/$project"
cd "$work"
"$port_check" run --pypto "$pypto" --python "$python" --cache-dir "$work/cache" "projects/$project" >/dev/null
hyperfine --runs "$runs" --export-markdown "$work/table.md" \
  -n direct "cd $src && PYTHONPATH=$pypto/python:$pypto/runtime:$pypto/runtime/python $python -B $here/bench/direct_run.py $src a2a3sim" \
  -n cold "$pc --no-cache" \
  -n cached "$pc"
cat "$work/table.md"
