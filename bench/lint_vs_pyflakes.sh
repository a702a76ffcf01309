#!/bin/sh
# Times `port-check lint` against `python3 -m pyflakes` on the same tree of generated PyPTO DSL
# files (fixture-style programs of port-check's own: element-wise, reduction, matmul K-loop and
# @pl.program kernels with varied shapes, ops and names; no third-party code).
#
#   bench/lint_vs_pyflakes.sh [PORT_CHECK] [FILES] [RUNS]
#
# PORT_CHECK defaults to build/port-check, FILES to 240, RUNS to 10. Needs hyperfine and python3
# with pyflakes (Debian: python3-pyflakes). Prints hyperfine's Markdown table: port-check cold
# (--no-cache, two threads and one), with the lint cache warm, and with one file edited between runs;
# pyflakes has no cache.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
port_check=${1:-$root/build/port-check}
files=${2:-240}
runs=${3:-10}
case $port_check in /*) ;; *) port_check=$(pwd)/$port_check ;; esac
[ -x "$port_check" ] || { echo "lint_vs_pyflakes: no port-check binary at $port_check" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "lint_vs_pyflakes: hyperfine is not installed" >&2; exit 2; }
python=python3
$python -m pyflakes --version >/dev/null 2>&1 || python=/usr/bin/python3
$python -m pyflakes --version >/dev/null 2>&1 || { echo "lint_vs_pyflakes: python3 -m pyflakes is not available" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/port-check-lint-bench.XXXXXX")
[ -n "${KEEP_TREE:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree"

"$python" - "$work/tree" "$files" <<'PY'
import sys
out, count = sys.argv[1], int(sys.argv[2])
ops = ["exp", "relu", "neg", "abs", "sqrt", "rsqrt", "recip", "log"]
bins = ["add", "sub", "mul", "maximum", "minimum"]
dtypes = [("FP32", 128), ("BF16", 256), ("FP16", 256)]
rows = [16, 32, 64]

def elementwise(i):
    dt, cols = dtypes[i % 3]
    r = rows[i % 3]
    op, b = ops[i % len(ops)], bins[i % len(bins)]
    return f'''"""Element-wise kernel {i}: y = {b}({op}(x), x) on [{r * 4}, {cols}] {dt}."""
import pypto.language as pl

ROWS = {r * 4}
COLS = {cols}
ROW_TILE = {r}


@pl.jit
def ew_{i}(
    x: pl.Tensor[[ROWS, COLS], pl.{dt}],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.{dt}]],
):
    for r0 in pl.parallel(0, ROWS, ROW_TILE):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="ew_{i}"):
            t = pl.load(x, [r0, 0], [ROW_TILE, COLS])
            u = pl.{op}(t)
            v = pl.{b}(u, t)
            pl.store(v, [r0, 0], y)
    return y
'''

def rownorm(i):
    return f'''"""Row-normalise kernel {i}: y = x / rowsum(x)."""
import pypto.language as pl

ROWS = {64 * (1 + i % 4)}
COLS = 128
ROW_TILE = 32


@pl.jit.incore
def rownorm_kernel_{i}(x: pl.Tensor, y: pl.Out[pl.Tensor], r0: pl.Scalar[pl.INT32]):
    t = pl.load(x, [r0, 0], [ROW_TILE, COLS])
    s = pl.row_sum(t)
    q = pl.row_expand_div(t, s)
    pl.store(q, [r0, 0], y)
    return y


@pl.jit
def rownorm_{i}(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    for r0 in pl.parallel(0, ROWS, ROW_TILE):
        y = rownorm_kernel_{i}(x, y, r0)
    return y
'''

def gemm(i):
    k = 512 * (1 + i % 3)
    return f'''"""GEMM kernel {i}: C[64, 128] = A[64, {k}] @ B[{k}, 128], K loop pipelined."""
import pypto.language as pl

M = 64
N = 128
K = {k}
K_TILE = 128


@pl.jit
def gemm_{i}(
    a: pl.Tensor[[M, K], pl.BF16],
    b: pl.Tensor[[K, N], pl.BF16],
    c: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm_{i}"):
        for k0 in pl.pipeline(0, K, K_TILE, stage=2):
            ta = pl.load(a, [0, k0], [M, K_TILE], target_memory=pl.MemorySpace.Mat)
            tb = pl.load(b, [k0, 0], [K_TILE, N], target_memory=pl.MemorySpace.Mat)
            la = pl.move(ta, target_memory=pl.MemorySpace.Left)
            rb = pl.move(tb, target_memory=pl.MemorySpace.Right)
            if k0 == 0:
                acc = pl.matmul(la, rb, out_dtype=pl.FP32)
            else:
                acc = pl.matmul_acc(acc, la, rb)
        pl.store(acc, [0, 0], c)
    return c
'''

def program(i):
    op = bins[i % len(bins)]
    return f'''"""Tile {op} in @pl.program form, variant {i}."""
import pypto.language as pl


@pl.program
class Tile{op.capitalize()}{i}:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel_{op}(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        c: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        tile_a = pl.tile.load(a, offsets=[0, 0], shapes=[128, 128])
        tile_b = pl.tile.load(b, offsets=[0, 0], shapes=[128, 128])
        tile_c = pl.tile.{op}(tile_a, tile_b)
        out = pl.tile.store(tile_c, offsets=[0, 0], output_tensor=c)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_{op}(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        c: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        c = self.kernel_{op}(a, b, c)
        return c
'''

makers = [elementwise, rownorm, gemm, program]
for i in range(count):
    with open(f"{out}/kernel_{i:04d}.py", "w") as f:
        f.write(makers[i % len(makers)](i))
PY

cd "$work"
n=$(ls tree | wc -l)
lines=$(cat tree/*.py | wc -l)
echo "tree: $work/tree, $n files, $lines lines; $(nproc) CPUs; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
[ -z "${TREE_ONLY:-}" ] || exit 0
# One edit between runs (a comment appended to one file): the agent-loop case, one unit relinted.
printf '#!/bin/sh\necho "# edit $(date +%%s%%N)" >> "%s/tree/kernel_0000.py"\n' "$work" > "$work/edit.sh"
# --prepare is given once per command, in command order (only the fourth edits).
hyperfine --warmup 2 --runs "$runs" -N --ignore-failure --export-markdown "$work/table.md" \
  --prepare true --prepare true --prepare true --prepare "sh $work/edit.sh" --prepare true \
  -n "port-check lint --no-cache ($n files, cold)" "$port_check lint --color never --no-cache tree" \
  -n "port-check lint -j1 --no-cache ($n files, cold)" "$port_check lint --color never -j1 --no-cache tree" \
  -n "port-check lint ($n files, cache warm)" "$port_check lint --color never tree" \
  -n "port-check lint ($n files, one file edited)" "$port_check lint --color never tree" \
  -n "python3 -m pyflakes ($n files)" "$python -m pyflakes tree" >&2
cat "$work/table.md"
