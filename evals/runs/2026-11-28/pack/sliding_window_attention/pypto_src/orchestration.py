"""Orchestration of the port sliding_window_attention: the @pl.jit entry.

Two dispatches: window_bias_k (one AIV task: the three [64, 64] additive window masks), then one
pl.spmd launch of 16 blocks (one submit), block b = (query head b // 4, 64-token query tile b % 4),
each the fused cube + vector scope below with its (at most 3) key blocks inside. The 4 query heads
share the one K/V head (GQA).

Per block, key blocks kb = qb, qb-1, qb-2 (diagonal first; the window of 100 tokens spans at most 3
blocks of 64), j = qb - kb selects the mask block of window_bias:
  AIC  S     = q_tile @ k_blk^T                          [64, 64] FP32 -> AIV
  AIV  S     = S * scale + window_bias[64 j : 64 j + 64]
       m_new = rowmax(max(S, M)); P = BF16(exp(S - m_new)); A = exp(M - m_new); L = L * A + P
  AIC  o_blk = P @ v_blk                                 [64, 128] FP32 -> AIV
  AIV  o     = o * rowmax(A) + o_blk;  M = m_new broadcast
  out tile   = BF16(o / rowsum(L))
The diagonal block comes first, so every row has a finite running max before a row that is fully
masked in an older block arrives (its exp(-1e30 - m) is 0). M and L are kept broadcast [64, 64]
(a loop-carried [N, 1] column is wrong on a5 with ptoas 0.27; projects/flash_attention_prefill).
"""
import pypto.language as pl
from incore import ATTN_SCALE, HEAD_DIM, KV_BLOCK, NEG, NUM_HEADS, Q_TILE, SEQ, window_bias_k

Q_TILES = SEQ // Q_TILE


@pl.jit
def sliding_window_attention(
    q: pl.Tensor[[256, 512], pl.BF16],
    k: pl.Tensor[[256, 128], pl.BF16],
    v: pl.Tensor[[256, 128], pl.BF16],
    out: pl.Out[pl.Tensor[[256, 512], pl.BF16]],
):
    window_bias = pl.create_tensor([192, 64], dtype=pl.FP32)
    window_bias = window_bias_k(window_bias)
    with pl.spmd(NUM_HEADS * Q_TILES, name_hint="swa"):
        with pl.at(
            level=pl.Level.CORE_GROUP,
            optimizations=[pl.split(pl.SplitMode.UP_DOWN)],
            name_hint="swa_tile",
        ):
            b = pl.tile.get_block_idx()
            qb = b % Q_TILES
            row0 = qb * Q_TILE
            col0 = b // Q_TILES * HEAD_DIM
            nblk = qb + 1 - qb // 3
            q_tile = q[row0 : row0 + Q_TILE, col0 : col0 + HEAD_DIM]
            o_run = pl.full([Q_TILE, HEAD_DIM], dtype=pl.FP32, value=0.0)
            m_mat = pl.full([Q_TILE, KV_BLOCK], dtype=pl.FP32, value=NEG)
            l_mat = pl.full([Q_TILE, KV_BLOCK], dtype=pl.FP32, value=0.0)
            for j in pl.range(nblk):
                kv0 = (qb - j) * KV_BLOCK
                b0 = j * KV_BLOCK
                s_blk = pl.matmul(q_tile, k[kv0 : kv0 + KV_BLOCK, 0:HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
                s_blk = pl.add(pl.mul(s_blk, ATTN_SCALE), window_bias[b0 : b0 + Q_TILE, 0:KV_BLOCK])
                m_new = pl.row_max(pl.maximum(s_blk, m_mat))
                p_f32 = pl.row_expand_expdif(s_blk, m_new)
                p_blk = pl.cast(p_f32, target_type=pl.BF16)
                alpha_mat = pl.row_expand_expdif(m_mat, m_new)
                # L sums the FP32 weights (as the reference does); P v uses their BF16 rounding.
                l_mat = pl.add(pl.mul(l_mat, alpha_mat), p_f32)
                o_blk = pl.matmul(p_blk, v[kv0 : kv0 + KV_BLOCK, 0:HEAD_DIM], out_dtype=pl.FP32)
                o_run = pl.add(pl.row_expand_mul(o_run, pl.row_max(alpha_mat)), o_blk)
                m_mat = pl.row_expand(m_mat, m_new)
            out = pl.assemble(out, pl.cast(pl.row_expand_div(o_run, pl.row_sum(l_mat)), target_type=pl.BF16), [row0, col0])
    return out
