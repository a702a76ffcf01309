"""port-check doctor self-test: the cube unit in FP32 (one 64x64x64 matmul on an AIC core)."""
import pypto.language as pl
import torch

N = 64
# 64 products per element accumulated in another order than torch's: FP32 rounding, well below 1e-4.
RTOL = 1e-4
ATOL = 1e-4


@pl.jit
def cube_fp32(
    a: pl.Tensor[[64, 64], pl.FP32],
    b: pl.Tensor[[64, 64], pl.FP32],
    c: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
        tb = pl.load(b, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(pl.move(ta, target_memory=pl.MemorySpace.Left),
                        pl.move(tb, target_memory=pl.MemorySpace.Right))
        pl.store(acc, [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [N, N], "dtype": torch.float32},
        {"name": "b", "shape": [N, N], "dtype": torch.float32},
        {"name": "c", "shape": [N, N], "dtype": torch.float32, "is_output": True},
    ]


def golden_cube_fp32(tensors):
    tensors["c"][:] = tensors["a"] @ tensors["b"]
