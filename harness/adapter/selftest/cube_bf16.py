"""port-check doctor self-test: BF16 through the cube unit (BF16 x BF16 -> FP32 matmul on an AIC core)."""
import pypto.language as pl
import torch

N = 64
# Products of BF16 values are exact in FP32; only the accumulation order differs from torch's.
RTOL = 1e-4
ATOL = 1e-4


@pl.jit
def cube_bf16(
    a: pl.Tensor[[64, 64], pl.BF16],
    b: pl.Tensor[[64, 64], pl.BF16],
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
        {"name": "a", "shape": [N, N], "dtype": torch.bfloat16},
        {"name": "b", "shape": [N, N], "dtype": torch.bfloat16},
        {"name": "c", "shape": [N, N], "dtype": torch.float32, "is_output": True},
    ]


def golden_cube_bf16(tensors):
    tensors["c"][:] = tensors["a"].float() @ tensors["b"].float()
