"""Orchestration of the port attention_prefill: the @pl.jit entry.

One make_bias task (the causal mask pattern, on chip), then one SPMD launch of 16 blocks (one per
query head and 64-row query tile), each a fused cube + vector kernel: one submit for all 16.

Block b: query head h = b // 4 (kv head h // 2, repeat_kv as a column offset), query rows
row0 .. row0 + 63 with row0 = (b % 4) * 64. K and V of the kv head are loaded once; the 64 rows
are walked in 4 chunks of 16 (the pipes of one chunk overlap the next). Per chunk, whole 256-key
rows, two-pass softmax (no online rescale):
  AIC  S = q_chunk @ K_kv^T                    [16, 256] FP32 -> AIV
  AIV  S = S * scale + mask window             0 where key <= query, -1e30 above
       E = exp(S - rowmax(S)) (row_expand_expdif);  l = rowsum(E)      BF16(E) -> AIC
  AIC  o = BF16(E) @ V_kv                      [16, 64] FP32 -> AIV
  AIV  out chunk = BF16(o / l), assembled at [row, h * 64]
pl.split(UP_DOWN): each AIV of the cluster takes 8 of the 16 rows.
"""
import pypto.language as pl
from incore import ROWS, ATTN_SCALE, HEAD_DIM, NUM_HEADS, PATTERN, Q_TILE, SEQ, make_bias


@pl.jit
def attention_prefill(
    q: pl.Tensor[[256, 256], pl.BF16],
    k: pl.Tensor[[256, 128], pl.BF16],
    v: pl.Tensor[[256, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[256, 256], pl.BF16]],
):
    bias = pl.create_tensor([ROWS, PATTERN], dtype=pl.FP32)
    bias = make_bias(bias)
    for b in pl.spmd(
        NUM_HEADS * (SEQ // Q_TILE),
        name_hint="attention_tile",
        optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)],
    ):
        h = b // (SEQ // Q_TILE)
        qb = b % (SEQ // Q_TILE)
        row0 = qb * Q_TILE
        c0 = PATTERN - SEQ - qb * Q_TILE  # minus r * ROWS per chunk
        qc0 = h * HEAD_DIM
        kc0 = (h // 2) * HEAD_DIM
        k_kv = k[0:SEQ, kc0 : kc0 + HEAD_DIM]
        v_kv = v[0:SEQ, kc0 : kc0 + HEAD_DIM]
        for r in pl.range(Q_TILE // ROWS):
            r0 = row0 + r * ROWS
            q_tile = q[r0 : r0 + ROWS, qc0 : qc0 + HEAD_DIM]
            s = pl.matmul(q_tile, k_kv, b_trans=True, out_dtype=pl.FP32)
            s = pl.add(pl.mul(s, ATTN_SCALE), bias[0:ROWS, c0 - r * ROWS : c0 - r * ROWS + SEQ])
            e = pl.row_expand_expdif(s, pl.row_max(s))
            l = pl.row_sum(e)
            o = pl.matmul(pl.cast(e, target_type=pl.BF16), v_kv, out_dtype=pl.FP32)
            out = pl.assemble(out, pl.cast(pl.row_expand_div(o, l), target_type=pl.BF16), [r0, qc0])
    return out
