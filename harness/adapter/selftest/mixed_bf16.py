"""port-check doctor self-test: one mixed cube+vector scope (matmul on AIC, add on AIV, TPUSH/TPOP between).

pl.split(UP_DOWN) makes the compiler halve the scope by rows and pass the FP32 accumulator from the
cube core to the vector cores through the cross-core pipe.
"""
import pypto.language as pl
import torch

M, K, N = 64, 64, 64
RTOL = 1e-4
ATOL = 1e-4


@pl.jit
def mixed_bf16(
    a: pl.Tensor[[64, 64], pl.BF16],
    b: pl.Tensor[[64, 64], pl.BF16],
    bias: pl.Tensor[[64, 64], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mixed"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.add(acc, bias)
    return out


def build_tensor_specs():
    return [
        {"name": "a", "shape": [M, K], "dtype": torch.bfloat16},
        {"name": "b", "shape": [K, N], "dtype": torch.bfloat16},
        {"name": "bias", "shape": [M, N], "dtype": torch.float32},
        {"name": "out", "shape": [M, N], "dtype": torch.float32, "is_output": True},
    ]


def golden_mixed_bf16(tensors):
    tensors["out"][:] = tensors["a"].float() @ tensors["b"].float() + tensors["bias"]
