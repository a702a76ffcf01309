#!/bin/sh
# Times the pre-commit check of a commit that stages 20 PyPTO DSL files (lint only), side by side with
# the hook a user would write instead: the staged names piped to pyflakes.
#
#   bench/hook_bench.sh [PORT_CHECK] [RUNS]
#
# PORT_CHECK defaults to build/port-check. Needs git, hyperfine and python3 with pyflakes
# (Debian: python3-pyflakes). Prints a Markdown table (also written to $OUT_DIR/hook_bench.md).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
port_check=${1:-$root/build/port-check}
runs=${2:-50}
case $port_check in /*) ;; *) port_check=$(pwd)/$port_check ;; esac
[ -x "$port_check" ] || { echo "hook_bench: no port-check binary at $port_check" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hook_bench: hyperfine is not installed" >&2; exit 2; }
python=python3
$python -m pyflakes --version >/dev/null 2>&1 || python=/usr/bin/python3
$python -m pyflakes --version >/dev/null 2>&1 || { echo "hook_bench: python3 -m pyflakes is not available" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/port-check-hook-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
OUT_DIR=${OUT_DIR:-$work}
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
export GIT_CONFIG_NOSYSTEM=1 HOME=$work GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com \
       GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q -b main .

# A committed project (golden + orchestration), then 20 new incore files staged for the next commit:
# the template's incore module, each with its own function name.
src=projects/bench/pypto_src
mkdir -p "$src"
sed 's/{{name}}/bench/g' "$root/templates/project/pypto_src/golden.py" > "$src/golden.py"
sed 's/{{name}}/bench/g' "$root/templates/project/pypto_src/orchestration.py" > "$src/orchestration.py"
git add -A && git commit -q -m base
i=1
while [ $i -le 20 ]; do
  sed -e 's/{{name}}/bench/g' -e "s/scale_add_rows/scale_add_rows_$i/g" \
      "$root/templates/project/pypto_src/incore.py" > "$src/incore_$i.py"
  i=$((i + 1))
done
git add -A
echo "staged: $(git diff --cached --name-only | wc -l) files, $(cat "$src"/incore_*.py | wc -l) lines" >&2

"$port_check" hook run >/dev/null 2>&1 || echo "hook_bench: note: port-check hook run exited $? on the bench project" >&2

pyflakes_hook="git diff --cached --name-only --diff-filter=ACMR -z -- 'projects/*/pypto_src/*' 'pypto-lib/*' | xargs -0 $python -m pyflakes"
hyperfine --warmup 5 --runs "$runs" -N --ignore-failure \
  --export-markdown "$OUT_DIR/hook_bench.md" \
  -n "port-check hook run (staged blobs, lint)" "$port_check hook run" \
  -n "port-check lint --staged -j1" "$port_check lint --staged -j1" \
  -n "port-check lint projects/bench (disk)" "$port_check lint projects/bench" >&2
hyperfine --warmup 3 --runs "$runs" --ignore-failure \
  --export-markdown "$OUT_DIR/hook_bench_pyflakes.md" \
  -n "git diff --cached | xargs pyflakes (working files)" "$pyflakes_hook" >&2
cat "$OUT_DIR/hook_bench.md" "$OUT_DIR/hook_bench_pyflakes.md"
