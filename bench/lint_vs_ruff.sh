#!/bin/sh
# Times a cold `port-check lint` of the upstream corpus's .py files beside ruff and pyflakes on the same files,
# side by side in one hyperfine run (issue 37, item 5).
#
#   bench/lint_vs_ruff.sh PYPTO_LIB_TREE PYPTO_TREE [PORT_CHECK] [RUNS]
#
# PYPTO_LIB_TREE: a pypto-lib checkout (its examples/ and models/ are linted); PYPTO_TREE: a pypto
# checkout (its examples/). PORT_CHECK defaults to build/port-check, RUNS to 10. Needs hyperfine,
# /usr/bin/python3 with pyflakes (Debian: python3-pyflakes) and ruff (PyPI; RUFF names the binary,
# default: ruff on PATH). ruff runs with --isolated (its default rule set, E4/E7/E9/F, the closest to
# pyflakes; the trees' own ruff.toml is not read) and --no-cache; it uses every core, as port-check's
# default -j does. Prints hyperfine's Markdown table, the ratios, and the load average before and after.
set -eu

[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
lib=$1
pypto=$2
port_check=${3:-$root/build/port-check}
runs=${4:-10}
ruff=${RUFF:-ruff}
pyflakes=${PYFLAKES:-/usr/bin/python3 -m pyflakes}
case $port_check in /*) ;; *) port_check=$(pwd)/$port_check ;; esac
[ -x "$port_check" ] || { echo "lint_vs_ruff: no port-check binary at $port_check" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "lint_vs_ruff: hyperfine is not installed" >&2; exit 2; }
command -v "$ruff" >/dev/null || { echo "lint_vs_ruff: ruff is not installed (pip install ruff; RUFF=path)" >&2; exit 2; }
$pyflakes --version >/dev/null 2>&1 || { echo "lint_vs_ruff: '$pyflakes' does not run (Debian: python3-pyflakes)" >&2; exit 2; }
for d in "$lib/examples" "$lib/models" "$pypto/examples"; do
  [ -d "$d" ] || { echo "lint_vs_ruff: no folder $d" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/port-check-ruff-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
trees="$lib/examples $lib/models $pypto/examples"
# shellcheck disable=SC2086
find $trees -name '*.py' -type f | sort > "$work/files.txt"
echo "files: $(wc -l < "$work/files.txt") .py files in $trees"
echo "ruff: $("$ruff" --version); pyflakes: $($pyflakes --version 2>&1 | head -1)"
echo "load before: $(cat /proc/loadavg)"

# The same .py files for every tool (the trees also hold C++ kernels, which port-check would lint too).
lint="xargs $port_check lint --no-cache --fail-on never --cache-dir $work/cache"
hyperfine --warmup 1 --runs "$runs" --export-markdown "$work/speed.md" --export-json "$work/speed.json" \
  -n "port-check lint --no-cache" "$lint < $work/files.txt >/dev/null" \
  -n "port-check lint --no-cache -j1" "$lint -j1 < $work/files.txt >/dev/null" \
  -n "ruff check --no-cache" "xargs $ruff check --no-cache --isolated --exit-zero --quiet < $work/files.txt >/dev/null" \
  -n "pyflakes" "xargs $pyflakes < $work/files.txt >/dev/null || true"
echo "load after: $(cat /proc/loadavg)"
cat "$work/speed.md"
/usr/bin/python3 - "$work/speed.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
pc, pc1 = r["port-check lint --no-cache"], r["port-check lint --no-cache -j1"]
ruff, flakes = r["ruff check --no-cache"], r["pyflakes"]
cpu = lambda x: x["user"] + x["system"]
print(f"wall: port-check {pc['mean']:.3f} s, ruff {ruff['mean']:.3f} s, pyflakes {flakes['mean']:.3f} s")
print(f"port-check vs ruff: {ruff['mean'] / pc['mean']:.2f}x on the wall "
      f"(>1: port-check faster), CPU {cpu(ruff) / cpu(pc):.2f}x; -j1 wall {ruff['mean'] / pc1['mean']:.2f}x")
print(f"port-check vs pyflakes: {flakes['mean'] / pc['mean']:.1f}x on the wall, CPU {cpu(flakes) / cpu(pc):.1f}x")
PY
