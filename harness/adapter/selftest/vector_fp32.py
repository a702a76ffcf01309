"""port-check doctor self-test: the vector unit in FP32 (c = a * b + a on one AIV core)."""
import pypto.language as pl
import torch

ROWS, COLS = 64, 128
RTOL = 1e-6
ATOL = 1e-6


@pl.jit
def vector_fp32(
    a: pl.Tensor[[64, 128], pl.FP32],
    b: pl.Tensor[[64, 128], pl.FP32],
    c: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        pl.store(pl.add(pl.mul(ta, tb), ta), [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "b", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "c", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_fp32(tensors):
    tensors["c"][:] = tensors["a"] * tensors["b"] + tensors["a"]
