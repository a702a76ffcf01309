"""Incore code of the port topk_routing: one SPMD dispatch of a mixed cube + vector kernel.

Block b of pl.spmd(TOKENS / TOKEN_TILE) routes tokens [32 b, 32 b + 32) on one cluster:

  AIC  logits = x_tile @ gate_weight^T   [32, 64] FP32 in Acc, K loop of K_TILE = 128     -> AIV
  AIV  (pl.split UP_DOWN: each of the two AIVs 16 tokens), 8 straight-line steps k = 0..7:
       m_k  = rowmax(l_k)                  the k-th largest logit
       id_k = rowargmax(l_k)               stored (INT32) into column k of topk_ids
       l_k+1 = min(l_k, (l_k - m_k) * -1e38 * 1e38 - BIG)
                                           the max knocked out: the product is 0 exactly where
                                           l == m and >= 1.4e31 (or inf) anywhere else, so the
                                           max becomes -BIG and every other logit stays itself
       e_k = exp(m_k - m_0); w_k = e_k / sum(e_0..e_7)   into column k of topk_weights
The softmax denominator cancels in the renormalisation (p_k / sum p = e_k / sum e), and the
selection runs on the FP32 logits (softmax is monotone): the ids never depend on exp rounding.
The steps are written out, not looped: a [N, 1] column carried through a loop is unsafe on a5 with
ptoas 0.27 (projects/flash_attention_prefill), and the e_k are needed after the sum. Columns are
stored straight into the outputs at [t0, k]: assembling a [N, 1] column into a [N, 8] tile fails
(blayout mismatch), and pl.tensor.ci (an iota for one-hot columns) does not parse in ptoas 0.27.
"""
import pypto.language as pl

TOKENS = 128
HIDDEN = 512
EXPERTS = 64
TOP_K = 8
K_TILE = 128
TOKEN_TILE = 32
BIG = 3.0e38
SCALE_UP = 1.0e38


@pl.jit.inline
def router(
    x: pl.Tensor[[128, 512], pl.BF16],
    gate_weight: pl.Tensor[[64, 512], pl.BF16],
    topk_weights: pl.Tensor[[128, 8], pl.FP32],
    topk_ids: pl.Tensor[[128, 8], pl.INT32],
):
    for tb in pl.spmd(
        TOKENS // TOKEN_TILE,
        name_hint="router",
        optimizations=[pl.split(pl.SplitMode.UP_DOWN)],
    ):
        t0 = tb * TOKEN_TILE
        acc = pl.create_tensor([TOKEN_TILE, EXPERTS], dtype=pl.FP32)
        for kb in pl.pipeline(HIDDEN // K_TILE, stage=1):
            k0 = kb * K_TILE
            x_chunk = x[t0 : t0 + TOKEN_TILE, k0 : k0 + K_TILE]
            w_chunk = gate_weight[0:EXPERTS, k0 : k0 + K_TILE]
            if k0 == 0:
                acc = pl.matmul(x_chunk, w_chunk, b_trans=True, out_dtype=pl.FP32)
            else:
                acc = pl.matmul_acc(acc, x_chunk, w_chunk, b_trans=True)
        l0 = acc  # the logits, FP32 [TOKEN_TILE, 64]
        m0 = pl.row_max(l0)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l0), [t0, 0])
        l1 = pl.minimum(l0, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l0, m0), -SCALE_UP), SCALE_UP), -BIG))
        m1 = pl.row_max(l1)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l1), [t0, 1])
        l2 = pl.minimum(l1, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l1, m1), -SCALE_UP), SCALE_UP), -BIG))
        m2 = pl.row_max(l2)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l2), [t0, 2])
        l3 = pl.minimum(l2, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l2, m2), -SCALE_UP), SCALE_UP), -BIG))
        m3 = pl.row_max(l3)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l3), [t0, 3])
        l4 = pl.minimum(l3, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l3, m3), -SCALE_UP), SCALE_UP), -BIG))
        m4 = pl.row_max(l4)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l4), [t0, 4])
        l5 = pl.minimum(l4, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l4, m4), -SCALE_UP), SCALE_UP), -BIG))
        m5 = pl.row_max(l5)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l5), [t0, 5])
        l6 = pl.minimum(l5, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l5, m5), -SCALE_UP), SCALE_UP), -BIG))
        m6 = pl.row_max(l6)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l6), [t0, 6])
        l7 = pl.minimum(l6, pl.add(pl.mul(pl.mul(pl.row_expand_sub(l6, m6), -SCALE_UP), SCALE_UP), -BIG))
        m7 = pl.row_max(l7)
        topk_ids = pl.assemble(topk_ids, pl.row_argmax(l7), [t0, 7])
        # e_k = exp(m_k - m_0): the softmax numerators of the picked experts (its denominator cancels)
        e0 = pl.exp(pl.sub(m0, m0))
        e1 = pl.exp(pl.sub(m1, m0))
        e2 = pl.exp(pl.sub(m2, m0))
        e3 = pl.exp(pl.sub(m3, m0))
        e4 = pl.exp(pl.sub(m4, m0))
        e5 = pl.exp(pl.sub(m5, m0))
        e6 = pl.exp(pl.sub(m6, m0))
        e7 = pl.exp(pl.sub(m7, m0))
        s = pl.add(pl.add(pl.add(e0, e1), pl.add(e2, e3)), pl.add(pl.add(e4, e5), pl.add(e6, e7)))
        topk_weights = pl.assemble(topk_weights, pl.div(e0, s), [t0, 0])
        topk_weights = pl.assemble(topk_weights, pl.div(e1, s), [t0, 1])
        topk_weights = pl.assemble(topk_weights, pl.div(e2, s), [t0, 2])
        topk_weights = pl.assemble(topk_weights, pl.div(e3, s), [t0, 3])
        topk_weights = pl.assemble(topk_weights, pl.div(e4, s), [t0, 4])
        topk_weights = pl.assemble(topk_weights, pl.div(e5, s), [t0, 5])
        topk_weights = pl.assemble(topk_weights, pl.div(e6, s), [t0, 6])
        topk_weights = pl.assemble(topk_weights, pl.div(e7, s), [t0, 7])
    return topk_weights, topk_ids
