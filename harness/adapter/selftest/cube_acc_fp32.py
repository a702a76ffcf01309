"""port-check doctor self-test: the cube unit's accumulation and transposed operands in FP32, as attention
(Q K^T) and K-split matmuls use them: tile.transpose_view of an L1 tile into the right operand, and
matmul_acc over two K blocks, on an AIC core."""
import pypto.language as pl
import torch

N, K = 32, 64
RTOL = 1e-4
ATOL = 1e-4


@pl.jit
def cube_acc_fp32(
    a: pl.Tensor[[32, 128], pl.FP32],
    b: pl.Tensor[[32, 128], pl.FP32],
    c: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        a0 = pl.load(a, [0, 0], [N, K], target_memory=pl.MemorySpace.Mat)
        b0 = pl.load(b, [0, 0], [N, K], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul(pl.move(a0, target_memory=pl.MemorySpace.Left),
                        pl.move(pl.tile.transpose_view(b0), target_memory=pl.MemorySpace.Right))
        a1 = pl.load(a, [0, K], [N, K], target_memory=pl.MemorySpace.Mat)
        b1 = pl.load(b, [0, K], [N, K], target_memory=pl.MemorySpace.Mat)
        acc = pl.matmul_acc(acc, pl.move(a1, target_memory=pl.MemorySpace.Left),
                            pl.move(pl.tile.transpose_view(b1), target_memory=pl.MemorySpace.Right))
        pl.store(acc, [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [N, 2 * K], "dtype": torch.float32},
        {"name": "b", "shape": [N, 2 * K], "dtype": torch.float32},
        {"name": "c", "shape": [N, N], "dtype": torch.float32, "is_output": True},
    ]


def golden_cube_acc_fp32(tensors):
    tensors["c"][:] = tensors["a"] @ tensors["b"].T
