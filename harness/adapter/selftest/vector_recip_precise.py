"""port-check doctor self-test: pl.recip(high_precision=True), the precise reciprocal a sigmoid uses (swiglu);
ptoas releases without the recip_precision attribute reject it (COMP007)."""
import pypto.language as pl
import torch

ROWS, COLS = 16, 128
RTOL = 1e-5
ATOL = 1e-6


@pl.jit
def vector_recip_precise(
    a: pl.Tensor[[16, 128], pl.FP32],
    c: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        pl.store(pl.recip(pl.add(pl.exp(pl.neg(ta)), 1.0), high_precision=True), [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "c", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_recip_precise(tensors):
    tensors["c"][:] = torch.sigmoid(tensors["a"])
