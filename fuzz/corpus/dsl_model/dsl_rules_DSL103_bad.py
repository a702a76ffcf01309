import pypto.language as pl

M = 64
N = 256
K = 1024
K_TILE = 256


@pl.jit
def gemm(
    a: pl.Tensor[[M, K], pl.BF16],
    b: pl.Tensor[[K, N], pl.BF16],
    c: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    for k0 in pl.pipeline(0, K, K_TILE, stage=2):  # expect: DSL103
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm_k"):
            ta = pl.load(a, [0, k0], [M, K_TILE], target_memory=pl.MemorySpace.Mat)
            tb = pl.load(b, [k0, 0], [K_TILE, N], target_memory=pl.MemorySpace.Mat)
            acc = pl.matmul(ta, tb, out_dtype=pl.FP32)
            pl.store(acc, [0, 0], c)
    return c
