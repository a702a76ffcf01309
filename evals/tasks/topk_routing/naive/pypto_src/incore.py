"""Incore functions of the naive form of topk_routing: one kernel per operation of the original,
every intermediate through GM, each on one block of 16 tokens:

  gate_k     AIC  logits = x @ gate_weight^T (K loop of 256), FP32 out of Acc
  row_max_k  AIV  m = max over the experts
  sub_k      AIV  shifted = logits - m
  exp_k      AIV  e = exp(shifted)
  row_sum_k  AIV  s = sum of e
  div_k      AIV  probs = e / s
  select_k   AIV  one step of the top-k, run TOP_K times: the largest probability and its expert id
                  go to column j of the outputs, and that probability is replaced by -1 for the
                  next step (the inputs have no ties, so exactly one element of each row equals its
                  max; exp((p - max) * 1e30) is 1 there and 0 elsewhere)
  wsum_k     AIV  sum of the k weights
  renorm_k   AIV  weights / their sum
The speed baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 128
HIDDEN = 512
NUM_EXPERTS = 64
TOP_K = 8
ROW_TILE = 16
K_TILE = 256
PICK_SHARPNESS = 1.0e30


@pl.jit.incore
def gate_k(x: pl.Tensor[[128, 512], pl.BF16], gate_weight: pl.Tensor[[64, 512], pl.BF16],
           logits: pl.Out[pl.Tensor[[128, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    acc = pl.create_tile([ROW_TILE, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
    for kb in pl.range(HIDDEN // K_TILE):
        k0 = kb * K_TILE
        a_l1 = pl.load(x, [r0, k0], [ROW_TILE, K_TILE], target_memory=pl.MemorySpace.Mat)
        w_l1 = pl.load(gate_weight, [0, k0], [NUM_EXPERTS, K_TILE], target_memory=pl.MemorySpace.Mat)
        a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
        w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
        if kb == 0:
            acc = pl.matmul(a_l0, w_l0)
        else:
            acc = pl.matmul_acc(acc, a_l0, w_l0)
    pl.store(acc, [r0, 0], logits)
    return logits


@pl.jit.incore
def row_max_k(logits: pl.Tensor[[128, 64], pl.FP32], m: pl.Out[pl.Tensor[[128, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(logits, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    scratch = pl.create_tile([ROW_TILE, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, scratch), [r0, 0], m)
    return m


@pl.jit.incore
def sub_k(logits: pl.Tensor[[128, 64], pl.FP32], m: pl.Tensor[[128, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[128, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(logits, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    mt = pl.load(m, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_sub(t, mt), [r0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[128, 64], pl.FP32], e: pl.Out[pl.Tensor[[128, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(shifted, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    pl.store(pl.exp(t), [r0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[128, 64], pl.FP32], s: pl.Out[pl.Tensor[[128, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    scratch = pl.create_tile([ROW_TILE, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [r0, 0], s)
    return s


@pl.jit.incore
def div_k(e: pl.Tensor[[128, 64], pl.FP32], s: pl.Tensor[[128, 1], pl.FP32],
          probs: pl.Out[pl.Tensor[[128, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(e, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    st = pl.load(s, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, st), [r0, 0], probs)
    return probs


@pl.jit.incore
def select_k(probs: pl.Tensor[[128, 64], pl.FP32], raw_weights: pl.Out[pl.Tensor[[128, 8], pl.FP32]],
             topk_ids: pl.Out[pl.Tensor[[128, 8], pl.INT32]], rest: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
             r0: pl.Scalar[pl.INDEX], j: pl.Scalar[pl.INDEX]):
    p = pl.load(probs, [r0, 0], [ROW_TILE, NUM_EXPERTS])
    max_scratch = pl.create_tile([ROW_TILE, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    best = pl.row_max(p, max_scratch)
    arg_scratch = pl.create_tile([ROW_TILE, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    best_id = pl.row_argmax(p, arg_scratch)
    pl.store(best, [r0, j], raw_weights)
    pl.store(best_id, [r0, j], topk_ids)
    picked = pl.exp(pl.mul(pl.row_expand_sub(p, best), PICK_SHARPNESS))
    pl.store(pl.sub(p, pl.mul(picked, 2.0)), [r0, 0], rest)
    return raw_weights, topk_ids, rest


@pl.jit.incore
def wsum_k(raw_weights: pl.Tensor[[128, 8], pl.FP32], wsum: pl.Out[pl.Tensor[[128, 1], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(raw_weights, [r0, 0], [ROW_TILE, TOP_K])
    scratch = pl.create_tile([ROW_TILE, TOP_K], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [r0, 0], wsum)
    return wsum


@pl.jit.incore
def renorm_k(raw_weights: pl.Tensor[[128, 8], pl.FP32], wsum: pl.Tensor[[128, 1], pl.FP32],
             topk_weights: pl.Out[pl.Tensor[[128, 8], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(raw_weights, [r0, 0], [ROW_TILE, TOP_K])
    st = pl.load(wsum, [r0, 0], [ROW_TILE, 1])
    pl.store(pl.row_expand_div(t, st), [r0, 0], topk_weights)
    return topk_weights
