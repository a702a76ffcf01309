"""Incore functions of the naive form of matmul_softmax_mixed: the cube's matmul and the vector
cores' softmax in two kernels, the scores through GM:

  qk_k       AIC  scores = query @ key^T of one head, per tile of 64 queries (all 256 keys,
                  K = 64 in one step), FP32 out of Acc
  softmax_k  AIV  probs = softmax(scores * 1/8) over the keys, per tile of 16 rows
The speed baseline the scorer compares attempts with."""
import pypto.language as pl

NUM_HEADS = 4
Q_LEN = 128
KV_LEN = 256
HEAD_DIM = 64
SCALING = 0.125
Q_TILE = 64
ROW_TILE = 16


@pl.jit.incore
def qk_k(query: pl.Tensor[[512, 64], pl.BF16], key: pl.Tensor[[1024, 64], pl.BF16],
         scores: pl.Out[pl.Tensor[[512, 256], pl.FP32]], q0: pl.Scalar[pl.INDEX], k0: pl.Scalar[pl.INDEX]):
    q_l1 = pl.load(query, [q0, 0], [Q_TILE, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    k_l1 = pl.load(key, [k0, 0], [KV_LEN, HEAD_DIM], target_memory=pl.MemorySpace.Mat)
    q_l0 = pl.move(q_l1, target_memory=pl.MemorySpace.Left)
    k_l0 = pl.move(pl.tile.transpose_view(k_l1), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(q_l0, k_l0), [q0, 0], scores)
    return scores


@pl.jit.incore
def softmax_k(scores: pl.Tensor[[512, 256], pl.FP32], probs: pl.Out[pl.Tensor[[512, 256], pl.FP32]],
              r0: pl.Scalar[pl.INDEX]):
    s = pl.mul(pl.load(scores, [r0, 0], [ROW_TILE, KV_LEN]), SCALING)
    max_scratch = pl.create_tile([ROW_TILE, KV_LEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    e = pl.exp(pl.row_expand_sub(s, pl.row_max(s, max_scratch)))
    sum_scratch = pl.create_tile([ROW_TILE, KV_LEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_expand_div(e, pl.row_sum(e, sum_scratch)), [r0, 0], probs)
    return probs
