"""port-check doctor self-test: chained cube matmuls in BF16 as a rotation after a projection uses them: a
K loop under pl.pipeline (stage 2) with matmul then matmul_acc, the FP32 accumulator written into a BF16
L1 tile by tile.assemble (FIXPIPE: Acc -> Mat, rounding to BF16), then a second matmul, on an AIC core."""
import pypto.language as pl
import torch

N, K, KT = 32, 128, 64
RTOL = 1e-3
ATOL = 1e-3


@pl.jit
def cube_chain_bf16(
    a: pl.Tensor[[32, 128], pl.BF16],
    w: pl.Tensor[[128, 32], pl.BF16],
    h: pl.Tensor[[32, 32], pl.BF16],
    c: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.create_tile([N, N], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
        for kb in pl.pipeline(K // KT, stage=2):
            a_l1 = pl.load(a, [0, kb * KT], [N, KT], target_memory=pl.MemorySpace.Mat)
            w_l1 = pl.load(w, [kb * KT, 0], [KT, N], target_memory=pl.MemorySpace.Mat)
            a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
            w_l0 = pl.move(w_l1, target_memory=pl.MemorySpace.Right)
            if kb == 0:
                acc = pl.matmul(a_l0, w_l0)
            else:
                acc = pl.matmul_acc(acc, a_l0, w_l0)
        r_mat = pl.create_tile([N, N], dtype=pl.BF16, target_memory=pl.MemorySpace.Mat)
        r_mat = pl.tile.assemble(r_mat, acc, [0, 0])
        h_l1 = pl.load(h, [0, 0], [N, N], target_memory=pl.MemorySpace.Mat)
        out = pl.matmul(pl.move(r_mat, target_memory=pl.MemorySpace.Left),
                        pl.move(h_l1, target_memory=pl.MemorySpace.Right))
        pl.store(out, [0, 0], c)
    return c


def build_tensor_specs():
    return [
        {"name": "a", "shape": [N, K], "dtype": torch.bfloat16},
        {"name": "w", "shape": [K, N], "dtype": torch.bfloat16},
        {"name": "h", "shape": [N, N], "dtype": torch.bfloat16},
        {"name": "c", "shape": [N, N], "dtype": torch.float32, "is_output": True},
    ]


def golden_cube_chain_bf16(tensors):
    r = (tensors["a"].float() @ tensors["w"].float()).bfloat16().float()
    tensors["c"][:] = r @ tensors["h"].float()
