"""port-check doctor self-test: the vector unit's elementwise math, row and column ops in FP32, the ops
the bundled ports compute with (exp, neg, abs, sqrt, rsqrt, recip, div, sub, maximum, row_max,
row_sum, row_expand_*, col_expand_*, tile.full) on one AIV core."""
import pypto.language as pl
import torch

ROWS, COLS = 16, 128
RTOL = 1e-4
ATOL = 1e-5


@pl.jit
def vector_math_fp32(
    a: pl.Tensor[[16, 128], pl.FP32],
    b: pl.Tensor[[16, 128], pl.FP32],
    g: pl.Tensor[[1, 128], pl.FP32],
    unary: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    binary: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    rows: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        tg = pl.load(g, [0, 0], [1, COLS])
        mag = pl.add(pl.abs(tb), 1.0)
        pl.store(pl.add(pl.sqrt(pl.abs(ta)), pl.rsqrt(mag)), [0, 0], unary)
        pl.store(pl.sub(pl.div(pl.exp(pl.neg(ta)), pl.maximum(pl.abs(tb), 0.5)), pl.recip(mag)), [0, 0], binary)
        scratch = pl.create_tile([ROWS, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        m = pl.row_max(ta, scratch)
        e = pl.exp(pl.row_expand_sub(ta, m))
        s = pl.row_sum(e, scratch)
        ones = pl.tile.full([ROWS, COLS], dtype=pl.FP32, value=1.0)
        soft = pl.row_expand_add(pl.row_expand_mul(pl.row_expand_div(e, s), s), m)
        pl.store(pl.col_expand_add(pl.col_expand_mul(pl.mul(soft, ones), tg), tg), [0, 0], rows)
    return unary, binary, rows


def build_tensor_specs():
    return [
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "b", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "g", "shape": [1, COLS], "dtype": torch.float32},
        {"name": "unary", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
        {"name": "binary", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
        {"name": "rows", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_math_fp32(tensors):
    a, b, g = tensors["a"], tensors["b"], tensors["g"]
    mag = b.abs() + 1.0
    tensors["unary"][:] = a.abs().sqrt() + mag.rsqrt()
    tensors["binary"][:] = (-a).exp() / b.abs().clamp(min=0.5) - 1.0 / mag
    e = (a - a.amax(dim=-1, keepdim=True)).exp()
    s = e.sum(dim=-1, keepdim=True)
    tensors["rows"][:] = ((e / s) * s + a.amax(dim=-1, keepdim=True)) * g + g
