"""Incore functions of the naive form of moe_ffn_layer: one kernel per operation of the original,
every intermediate through GM, each on all 64 tokens at once. The experts run densely, every token
through every expert, and the dense routing weights (0 for an expert a token did not pick) mask
their outputs:

  router_k   AIV  logits = x @ gate_weight^T in FP32, one column per expert (a cube matmul with
                  8 rows of gate_weight does not compile: an L1 tile needs 16)
  row_max_k  AIV  m = max over the experts
  sub_k      AIV  shifted = logits - m
  exp_k      AIV  e = exp(shifted)
  row_sum_k  AIV  s = sum of e
  div_k      AIV  probs = e / s
  select_k   AIV  one step of the top-k, run TOP_K times: the largest probability goes to column j of
                  raw_weights, its one-hot mask to sel_j, and the probability is replaced by
                  -1 for the next step (the inputs have no ties among a token's 3 largest, so one
                  element of each row equals its max; exp((p - max) * 1e30) is 1 there, 0 elsewhere)
  wsum_k     AIV  sum of the k weights (column 0 + column 1)
  renorm_k   AIV  each weight / their sum
  dense_k    AIV  dense routing weights [tokens, experts]: sel_0 * weight_0 + sel_1 * weight_1
  expert_mm_k AIC per expert: x @ W^T for its gate_proj and up_proj rows (two tasks)
  silu_k     AIV  per expert: g / (1 + exp(-g))
  mul_k      AIV  per expert: silu(g) * u
  cast_k     AIV  per expert: the product to BF16 (the cube's operand type)
  down_k     AIC  per expert: h @ down_proj^T
  scale_k    AIV  per expert: its output times its column of the dense routing weights
  sum_k      AIV  out = the sum of the experts' scaled outputs
The speed baseline the scorer compares attempts with."""
import pypto.language as pl

TOKENS = 64
HIDDEN = 128
NUM_EXPERTS = 8
INTERMEDIATE = 128
TOP_K = 2
PICK_SHARPNESS = 1.0e30


@pl.jit.incore
def router_k(x: pl.Tensor[[64, 128], pl.BF16], gate_weight: pl.Tensor[[8, 128], pl.BF16],
             logits: pl.Out[pl.Tensor[[64, 8], pl.FP32]]):
    xf = pl.cast(pl.load(x, [0, 0], [TOKENS, HIDDEN]), target_type=pl.FP32)
    scratch = pl.create_tile([TOKENS, HIDDEN], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    for ex in pl.range(NUM_EXPERTS):
        wf = pl.cast(pl.load(gate_weight, [ex, 0], [1, HIDDEN]), target_type=pl.FP32)
        pl.store(pl.row_sum(pl.col_expand_mul(xf, wf), scratch), [0, ex], logits)
    return logits


@pl.jit.incore
def row_max_k(logits: pl.Tensor[[64, 8], pl.FP32], m: pl.Out[pl.Tensor[[64, 1], pl.FP32]]):
    t = pl.load(logits, [0, 0], [TOKENS, NUM_EXPERTS])
    scratch = pl.create_tile([TOKENS, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_max(t, scratch), [0, 0], m)
    return m


@pl.jit.incore
def sub_k(logits: pl.Tensor[[64, 8], pl.FP32], m: pl.Tensor[[64, 1], pl.FP32],
          shifted: pl.Out[pl.Tensor[[64, 8], pl.FP32]]):
    t = pl.load(logits, [0, 0], [TOKENS, NUM_EXPERTS])
    mt = pl.load(m, [0, 0], [TOKENS, 1])
    pl.store(pl.row_expand_sub(t, mt), [0, 0], shifted)
    return shifted


@pl.jit.incore
def exp_k(shifted: pl.Tensor[[64, 8], pl.FP32], e: pl.Out[pl.Tensor[[64, 8], pl.FP32]]):
    t = pl.load(shifted, [0, 0], [TOKENS, NUM_EXPERTS])
    pl.store(pl.exp(t), [0, 0], e)
    return e


@pl.jit.incore
def row_sum_k(e: pl.Tensor[[64, 8], pl.FP32], s: pl.Out[pl.Tensor[[64, 1], pl.FP32]]):
    t = pl.load(e, [0, 0], [TOKENS, NUM_EXPERTS])
    scratch = pl.create_tile([TOKENS, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    pl.store(pl.row_sum(t, scratch), [0, 0], s)
    return s


@pl.jit.incore
def div_k(e: pl.Tensor[[64, 8], pl.FP32], s: pl.Tensor[[64, 1], pl.FP32],
          probs: pl.Out[pl.Tensor[[64, 8], pl.FP32]]):
    t = pl.load(e, [0, 0], [TOKENS, NUM_EXPERTS])
    st = pl.load(s, [0, 0], [TOKENS, 1])
    pl.store(pl.row_expand_div(t, st), [0, 0], probs)
    return probs


@pl.jit.incore
def select_k(probs: pl.Tensor[[64, 8], pl.FP32], raw_weights: pl.Out[pl.Tensor[[64, 2], pl.FP32]],
             sel: pl.Out[pl.Tensor[[128, 8], pl.FP32]], rest: pl.Out[pl.Tensor[[64, 8], pl.FP32]],
             j: pl.Scalar[pl.INDEX]):
    p = pl.load(probs, [0, 0], [TOKENS, NUM_EXPERTS])
    max_scratch = pl.create_tile([TOKENS, NUM_EXPERTS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
    best = pl.row_max(p, max_scratch)
    pl.store(best, [0, j], raw_weights)
    picked = pl.exp(pl.mul(pl.row_expand_sub(p, best), PICK_SHARPNESS))
    pl.store(picked, [j * TOKENS, 0], sel)
    pl.store(pl.sub(p, pl.mul(picked, 2.0)), [0, 0], rest)
    return raw_weights, sel, rest


@pl.jit.incore
def wsum_k(raw_weights: pl.Tensor[[64, 2], pl.FP32], wsum: pl.Out[pl.Tensor[[64, 1], pl.FP32]]):
    w0 = pl.load(raw_weights, [0, 0], [TOKENS, 1])
    w1 = pl.load(raw_weights, [0, 1], [TOKENS, 1])
    pl.store(pl.add(w0, w1), [0, 0], wsum)
    return wsum


@pl.jit.incore
def renorm_k(raw_weights: pl.Tensor[[64, 2], pl.FP32], wsum: pl.Tensor[[64, 1], pl.FP32],
             weights: pl.Out[pl.Tensor[[64, 2], pl.FP32]]):
    st = pl.load(wsum, [0, 0], [TOKENS, 1])
    w0 = pl.load(raw_weights, [0, 0], [TOKENS, 1])
    w1 = pl.load(raw_weights, [0, 1], [TOKENS, 1])
    pl.store(pl.div(w0, st), [0, 0], weights)
    pl.store(pl.div(w1, st), [0, 1], weights)
    return weights


@pl.jit.incore
def dense_k(sel: pl.Tensor[[128, 8], pl.FP32], weights: pl.Tensor[[64, 2], pl.FP32],
            dense: pl.Out[pl.Tensor[[64, 8], pl.FP32]]):
    s0 = pl.load(sel, [0, 0], [TOKENS, NUM_EXPERTS])
    s1 = pl.load(sel, [TOKENS, 0], [TOKENS, NUM_EXPERTS])
    w0 = pl.load(weights, [0, 0], [TOKENS, 1])
    w1 = pl.load(weights, [0, 1], [TOKENS, 1])
    pl.store(pl.add(pl.row_expand_mul(s0, w0), pl.row_expand_mul(s1, w1)), [0, 0], dense)
    return dense


@pl.jit.incore
def expert_mm_k(x: pl.Tensor[[64, 128], pl.BF16], w: pl.Tensor[[1024, 128], pl.BF16],
                y: pl.Out[pl.Tensor[[512, 128], pl.FP32]], ex: pl.Scalar[pl.INDEX]):
    a_l1 = pl.load(x, [0, 0], [TOKENS, HIDDEN], target_memory=pl.MemorySpace.Mat)
    w_l1 = pl.load(w, [ex * INTERMEDIATE, 0], [INTERMEDIATE, HIDDEN], target_memory=pl.MemorySpace.Mat)
    a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
    w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(a_l0, w_l0), [ex * TOKENS, 0], y)
    return y


@pl.jit.incore
def silu_k(g: pl.Tensor[[512, 128], pl.FP32], sg: pl.Out[pl.Tensor[[512, 128], pl.FP32]],
           ex: pl.Scalar[pl.INDEX]):
    t = pl.load(g, [ex * TOKENS, 0], [TOKENS, INTERMEDIATE])
    pl.store(pl.div(t, pl.add(pl.exp(pl.neg(t)), 1.0)), [ex * TOKENS, 0], sg)
    return sg


@pl.jit.incore
def mul_k(sg: pl.Tensor[[512, 128], pl.FP32], u: pl.Tensor[[512, 128], pl.FP32],
          h: pl.Out[pl.Tensor[[512, 128], pl.FP32]], ex: pl.Scalar[pl.INDEX]):
    a = pl.load(sg, [ex * TOKENS, 0], [TOKENS, INTERMEDIATE])
    b = pl.load(u, [ex * TOKENS, 0], [TOKENS, INTERMEDIATE])
    pl.store(pl.mul(a, b), [ex * TOKENS, 0], h)
    return h


@pl.jit.incore
def cast_k(h: pl.Tensor[[512, 128], pl.FP32], hb: pl.Out[pl.Tensor[[512, 128], pl.BF16]],
           ex: pl.Scalar[pl.INDEX]):
    t = pl.load(h, [ex * TOKENS, 0], [TOKENS, INTERMEDIATE])
    pl.store(pl.cast(t, target_type=pl.BF16), [ex * TOKENS, 0], hb)
    return hb


@pl.jit.incore
def down_k(hb: pl.Tensor[[512, 128], pl.BF16], down_proj: pl.Tensor[[1024, 128], pl.BF16],
           y: pl.Out[pl.Tensor[[512, 128], pl.FP32]], ex: pl.Scalar[pl.INDEX]):
    a_l1 = pl.load(hb, [ex * TOKENS, 0], [TOKENS, INTERMEDIATE], target_memory=pl.MemorySpace.Mat)
    w_l1 = pl.load(down_proj, [ex * HIDDEN, 0], [HIDDEN, INTERMEDIATE], target_memory=pl.MemorySpace.Mat)
    a_l0 = pl.move(a_l1, target_memory=pl.MemorySpace.Left)
    w_l0 = pl.move(pl.tile.transpose_view(w_l1), target_memory=pl.MemorySpace.Right)
    pl.store(pl.matmul(a_l0, w_l0), [ex * TOKENS, 0], y)
    return y


@pl.jit.incore
def scale_k(y: pl.Tensor[[512, 128], pl.FP32], dense: pl.Tensor[[64, 8], pl.FP32],
            yw: pl.Out[pl.Tensor[[512, 128], pl.FP32]], ex: pl.Scalar[pl.INDEX]):
    t = pl.load(y, [ex * TOKENS, 0], [TOKENS, HIDDEN])
    w = pl.load(dense, [0, ex], [TOKENS, 1])
    pl.store(pl.row_expand_mul(t, w), [ex * TOKENS, 0], yw)
    return yw


@pl.jit.incore
def sum_k(yw: pl.Tensor[[512, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    acc = pl.load(yw, [0, 0], [TOKENS, HIDDEN])
    for ex in pl.range(1, NUM_EXPERTS):
        acc = pl.add(acc, pl.load(yw, [ex * TOKENS, 0], [TOKENS, HIDDEN]))
    pl.store(acc, [0, 0], out)
    return out
