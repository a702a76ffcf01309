"""Incore code of the port paged_attention_decode: one mixed cube + vector scope per sequence.

decode_sequence runs the whole decode attention of one sequence (its 64 query heads, MQA: they
share the sequence's KV head, so they form the cube's M = 64) in one task: the loop over the
sequence's KV blocks is inside the scope, so S = q K^T, the masked online softmax and P V never
leave the chip. The compiler splits the scope into an AIC kernel (both matmuls) and an AIV kernel
(the softmax and the merge); S and o_blk cross cube -> vector and P crosses vector -> cube through
the TPUSH/TPOP ring. pl.split(UP_DOWN) gives each of the cluster's two AIVs 32 of the 64 heads.

Per logical KV block j = 0 .. ceil(ctx_len / 64) - 1, physical block phys = block_table[b * 8 + j]
(read in the kernel; K and V are subscripted at phys * 64 of the pools, no gather copy):

  AIC  S     = q_heads @ k_blk^T                       [64, 64] FP32 -> AIV
  AIV  S     = S * scale
       S     = max(NEG, fillpad(S valid [64, valid_len], -inf))   valid_len = min(64, ctx_len - 64 j)
       m_new = rowmax(max(S, M))                       M: the running row max, broadcast [64, 64]
       P     = BF16(exp(S - m_new))                    -> AIC
       A     = exp(M - m_new)                          the rescale factor, broadcast [64, 64]
       L     = L * A + P                               l = rowsum(L) at the end
  AIC  o_blk = P @ v_blk                               [64, 128] FP32 -> AIV
  AIV  o     = o * rowmax(A) + o_blk;  M = m_new broadcast
  out rows   = BF16(o / rowsum(L))

The partial last block: the valid-shape narrowing (pl.set_validshape) is applied to the AIV's copy
of S after the crossing (applied to the matmul result, the compiler refuses a runtime-narrowed
column extent at the cube -> vector boundary), and fillpad writes -inf into the key columns past
the context. fillpad's result carries a PadValue::Min tile type, which the pto-isa TADD of the
simulators will not combine with the PadValue::Null tiles of the accumulators; max(NEG_MAT, .)
(TMAX accepts mixed tile types, the result takes the first operand's) turns it back into a plain
tile and replaces -inf by -1e30, whose exp is still exactly 0. Every block, the first and the
partial last included, runs the same code path (a peeled block before the loop hits the
split-reshape internal error of flash_attention_prefill attempt 5).

Running max and sum are kept broadcast over the 64 key columns (M, L) instead of as [64, 1]
columns: on a5 with ptoas 0.27 a [N, 1] column carried from one loop iteration to the next keeps
only its first element (flash_attention_prefill PORTING.md attempt 8; doctor's
vector_carried_column self-test); every [64, 1] value here is used within its iteration.
"""
import pypto.language as pl

BATCH = 4
NUM_HEADS = 64
HEAD_DIM = 128
BLOCK_SIZE = 64
MAX_BLOCKS = 8
ATTN_SCALE = 0.08838834764831845
NEG = -1.0e30  # the running max before the first block, and the masked score: exp(NEG - m) is 0


@pl.jit.inline
def decode_sequence(
    query: pl.Tensor[[256, 128], pl.BF16],
    key_cache: pl.Tensor[[2048, 128], pl.BF16],
    value_cache: pl.Tensor[[2048, 128], pl.BF16],
    block_table: pl.Tensor[[32], pl.INT32],
    out: pl.Tensor[[256, 128], pl.BF16],
    b: pl.Scalar[pl.INDEX],
    ctx_len: pl.Scalar[pl.INDEX],
    n_blocks: pl.Scalar[pl.INDEX],
):
    row0 = b * NUM_HEADS
    with pl.at(
        level=pl.Level.CORE_GROUP,
        optimizations=[pl.split(pl.SplitMode.UP_DOWN)],
        name_hint="decode_sequence",
    ):
        q_heads = query[row0 : row0 + NUM_HEADS, 0:HEAD_DIM]
        o_run = pl.full([NUM_HEADS, HEAD_DIM], dtype=pl.FP32, value=0.0)
        m_mat = pl.full([NUM_HEADS, BLOCK_SIZE], dtype=pl.FP32, value=NEG)
        l_mat = pl.full([NUM_HEADS, BLOCK_SIZE], dtype=pl.FP32, value=0.0)
        neg_mat = pl.full([NUM_HEADS, BLOCK_SIZE], dtype=pl.FP32, value=NEG)
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_table, [b * MAX_BLOCKS + j]), pl.INDEX)
            kv0 = phys * BLOCK_SIZE
            valid_len = pl.min(BLOCK_SIZE, ctx_len - j * BLOCK_SIZE)
            s_blk = pl.matmul(q_heads, key_cache[kv0 : kv0 + BLOCK_SIZE, 0:HEAD_DIM], b_trans=True, out_dtype=pl.FP32)
            s_blk = pl.mul(s_blk, ATTN_SCALE)
            s_pad = pl.fillpad(pl.set_validshape(s_blk, NUM_HEADS, valid_len), pad_value=pl.PadValue.min)
            s_blk = pl.maximum(neg_mat, s_pad)
            m_new = pl.row_max(pl.maximum(s_blk, m_mat))
            p_blk = pl.cast(pl.exp(pl.row_expand_sub(s_blk, m_new)), target_type=pl.BF16)
            alpha_mat = pl.exp(pl.row_expand_sub(m_mat, m_new))
            # l is summed from the BF16-rounded P: it normalises exactly the weights P v multiplies.
            l_mat = pl.add(pl.mul(l_mat, alpha_mat), pl.cast(p_blk, target_type=pl.FP32))
            o_blk = pl.matmul(p_blk, value_cache[kv0 : kv0 + BLOCK_SIZE, 0:HEAD_DIM], out_dtype=pl.FP32)
            o_run = pl.add(pl.row_expand_mul(o_run, pl.row_max(alpha_mat)), o_blk)
            m_mat = pl.row_expand_add(pl.mul(m_mat, 0.0), m_new)
        # Into out itself at its offset: a pl.slice of out made outside the scope would reach the
        # kernel with the dense strides of its own shape (DSL119).
        out = pl.assemble(out, pl.cast(pl.row_expand_div(o_run, pl.row_sum(l_mat)), target_type=pl.BF16), [row0, 0])
    return out
