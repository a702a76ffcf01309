"""port-check doctor self-test: BF16 through the vector unit (load BF16, compute in FP32, store BF16).

A simulator whose kernel compiler lacks a real BF16 type (clang over libstdc++ 12 without <stdfloat>:
pto-isa then declares bfloat16_t as IEEE half) reads every BF16 element wrongly and fails here.
"""
import pypto.language as pl
import torch

ROWS, COLS = 64, 128
# The result is rounded once to BF16 (8 significant bits): one rounding step is 2^-8 relative; allow two.
RTOL = 8e-3
ATOL = 1e-3


@pl.jit
def vector_bf16(
    a: pl.Tensor[[64, 128], pl.BF16],
    b: pl.Tensor[[64, 128], pl.BF16],
    c: pl.Out[pl.Tensor[[64, 128], pl.BF16]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.cast(pl.load(a, [0, 0], [ROWS, COLS]), target_type=pl.FP32)
        tb = pl.cast(pl.load(b, [0, 0], [ROWS, COLS]), target_type=pl.FP32)
        tc = pl.add(pl.mul(ta, tb), ta)
        pl.store(pl.cast(tc, target_type=pl.BF16, mode="rint"), [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.bfloat16},
        {"name": "b", "shape": [ROWS, COLS], "dtype": torch.bfloat16},
        {"name": "c", "shape": [ROWS, COLS], "dtype": torch.bfloat16, "is_output": True},
    ]


def golden_vector_bf16(tensors):
    a, b = tensors["a"].float(), tensors["b"].float()
    tensors["c"][:] = (a * b + a).to(torch.bfloat16)
