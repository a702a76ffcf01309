#!/usr/bin/env bash
# port-check compile vs a direct compile of the same program with the same adapter.
#
#   bench/compile_bench.sh [PORT_CHECK] [RUNS]     # default build/port-check, 10 runs; needs hyperfine
#
# The program is tests/fixtures/compile/e2e/vec_ok (a @pl.jit port, one pl.at scope). Both commands
# run the real compiler once per run: port-check with --no-cache (process handling, result reading,
# analysis of the pass dumps, report) and the adapter alone (`python3 -B port_check_adapter.py
# --project ...`), which is what a user would run by hand. A third command shows the cached replay.
# The toolchain is PYPTO_ROOT (else ../pypto beside the repository) and PYPTO_PYTHON (else python3);
# when it does not import, the stand-in interpreter tests/fixtures/compile/fake-python.sh is used
# instead and the figures only measure port-check's own overhead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
port_check=$(realpath "${1:-$here/build/port-check}")
runs=${2:-10}
pypto=${PYPTO_ROOT:-$(dirname "$here")/pypto}
python=${PYPTO_PYTHON:-python3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/projects"
cp -r "$here/tests/fixtures/compile/e2e/vec_ok" "$work/projects/vec_ok"
git -C "$work" init -q

mode=real
if ! PYTHONPATH="$pypto/python" "$python" -c 'import pypto.language, torch' >/dev/null 2>&1; then
  mode=stand-in
  python="$here/tests/fixtures/compile/fake-python.sh"
  echo ok > "$work/projects/vec_ok/pypto_src/FAKE_MODE"
  mkdir -p "$work/pypto/python/pypto" && touch "$work/pypto/python/pypto/__init__.py"
  pypto="$work/pypto"
  echo "note: no importable PyPTO at $pypto: timing the stand-in interpreter (port-check overhead only)" >&2
fi

# The adapter exactly as port-check installs it.
cache="$work/cache"
(cd "$work" && "$port_check" compile --cache-dir "$cache" --pypto "$pypto" --python "$python" projects/vec_ok >/dev/null) || true
adapter=$(ls "$cache"/adapter/*/port_check_adapter.py)
src="$work/projects/vec_ok/pypto_src"
out="$work/direct-out"

cd "$work"
hyperfine --warmup 1 --runs "$runs" --export-markdown "$work/compile_bench.md" \
  -n "port-check compile --no-cache ($mode)" \
  "'$port_check' compile --no-cache --cache-dir '$cache' --pypto '$pypto' --python '$python' projects/vec_ok" \
  -n "adapter directly ($mode)" \
  "cd '$src' && rm -rf '$out' && PYTHONPATH='$pypto/python' NO_COLOR=1 '$python' -B '$adapter' --project '$src' --platform a2a3sim --out-dir '$out' --result '$work/result.json'" \
  -n "port-check compile, cached replay" \
  "'$port_check' compile --cache-dir '$cache' --pypto '$pypto' --python '$python' projects/vec_ok"
cat "$work/compile_bench.md"
