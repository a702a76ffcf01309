"""Incore code of the port flash_attention_prefill: one mixed cube + vector scope per query tile.

attention_tile runs the whole causal flash attention of one (head, 64-row query tile) in one task:
its key-block loop is inside the scope, so S = q k^T, the online softmax and P v never leave the
chip. The compiler splits the scope into an AIC kernel (both matmuls) and an AIV kernel (the
softmax and the merge); S and o_blk cross cube -> vector and P crosses vector -> cube through the
TPUSH/TPOP ring. pl.split(UP_DOWN) gives each of the cluster's two AIVs 32 of the 64 query rows.

Per key block kb = 0 .. qb (the diagonal block last, the blocks above it never computed):

  AIC  S     = q_tile @ k_blk^T                        [64, 64] FP32 -> AIV
  AIV  S     = S * scale + bias                        bias: zero block, or the causal cut (kb == qb)
       m_new = rowmax(max(S, M))                       M: the running row max, broadcast [64, 64]
       P     = BF16(exp(S - m_new))                    -> AIC
       A     = exp(M - m_new)                          the rescale factor, broadcast [64, 64]
       L     = L * A + P                               l = rowsum(L) at the end
  AIC  o_blk = P @ v_blk                               [64, 128] FP32 -> AIV
  AIV  o     = o * rowmax(A) + o_blk;  M = m_new broadcast
  out tile   = BF16(o / rowsum(L))

The running max and sum are kept broadcast over the 64 key columns (M, L) instead of as [64, 1]
columns: on a5 with ptoas 0.27 a [N, 1] column carried from one loop iteration to the next keeps
only its first element (PORTING.md attempt 8; doctor's vector_carried_column self-test); every
[64, 1] value here is made and used within one iteration, as an operand of a row_expand op. The bias block is chosen by arithmetic, not a branch:
(kb + 1) // (qb + 1) is 1 on the diagonal and 0 below it, selecting rows 64..127 (the causal cut)
or 0..63 (zeros) of causal_bias.
"""
import pypto.language as pl

NUM_HEADS = 2
SEQ = 512
HEAD_DIM = 128
Q_TILE = 64
KV_BLOCK = 64
ATTN_SCALE = 0.08838834764831845
NEG = -1.0e30  # the running max before the first block: exp(NEG - m) is 0, and NEG * 0 is not NaN


@pl.jit.inline
def attention_tile(
    q: pl.Tensor[[1024, 128], pl.BF16],
    k: pl.Tensor[[1024, 128], pl.BF16],
    v: pl.Tensor[[1024, 128], pl.BF16],
    causal_bias: pl.Tensor[[128, 64], pl.FP32],
    out: pl.Tensor[[1024, 128], pl.BF16],
    h: pl.Scalar[pl.INDEX],
    qb: pl.Scalar[pl.INDEX],
):
    row0 = h * SEQ + qb * Q_TILE
    with pl.at(
        level=pl.Level.CORE_GROUP,
        optimizations=[pl.split(pl.SplitMode.UP_DOWN)],
        name_hint="attention_tile",
    ):
        q_tile = q[row0 : row0 + Q_TILE, 0:HEAD_DIM]
        o_run = pl.full([Q_TILE, HEAD_DIM], dtype=pl.FP32, value=0.0)
        m_mat = pl.full([Q_TILE, KV_BLOCK], dtype=pl.FP32, value=NEG)
        l_mat = pl.full([Q_TILE, KV_BLOCK], dtype=pl.FP32, value=0.0)
        for kb in pl.range(qb + 1):
            kv0 = h * SEQ + kb * KV_BLOCK
            b0 = (kb + 1) // (qb + 1) * Q_TILE
            s_blk = pl.matmul(q_tile, k[kv0 : kv0 + KV_BLOCK, 0:HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
            s_blk = pl.add(pl.mul(s_blk, ATTN_SCALE), causal_bias[b0 : b0 + Q_TILE, 0:KV_BLOCK])
            m_new = pl.row_max(pl.maximum(s_blk, m_mat))
            p_blk = pl.cast(pl.exp(pl.row_expand_sub(s_blk, m_new)), target_type=pl.BF16)
            alpha_mat = pl.exp(pl.row_expand_sub(m_mat, m_new))
            # l is summed from the BF16-rounded P: it normalises exactly the weights P v multiplies.
            l_mat = pl.add(pl.mul(l_mat, alpha_mat), pl.cast(p_blk, target_type=pl.FP32))
            o_blk = pl.matmul(p_blk, v[kv0 : kv0 + KV_BLOCK, 0:HEAD_DIM], out_dtype=pl.FP32)
            o_run = pl.add(pl.row_expand_mul(o_run, pl.row_max(alpha_mat)), o_blk)
            m_mat = pl.row_expand_add(pl.mul(m_mat, 0.0), m_new)
        # Into out itself at its offset: a pl.slice of out made outside the scope would reach the
        # kernel with the dense strides of its own shape (DSL119).
        out = pl.assemble(out, pl.cast(pl.row_expand_div(o_run, pl.row_sum(l_mat)), target_type=pl.BF16), [row0, 0])
    return out
