"""Orchestration of the port paged_decode_gqa: the @pl.jit entry.

One SPMD dispatch of 8 fused cube + vector blocks, one per (sequence, KV head), one submit for
all of them. Block t = sequence t // 2, KV head t % 2: its 16 query heads are the cube's M. The loop
over the sequence's 32-token KV blocks runs inside the block, in two passes (the row max, then
P = exp(S - m), the sums and P V): S, P and o never leave the chip (the compiler splits the body
into an AIC and an AIV kernel, each AIV taking 8 of the 16 heads). incore.py lists the steps.
"""
import pypto.language as pl
from incore import ATTN_SCALE, BLOCK_SIZE, GROUP, HEAD_DIM, NEG, NUM_KV_HEADS, NUM_SEQS


@pl.jit
def paged_attention_decode(
    query: pl.Tensor[[128, 128], pl.BF16],
    key_cache: pl.Tensor[[1280, 256], pl.BF16],
    value_cache: pl.Tensor[[1280, 256], pl.BF16],
    block_tables: pl.Tensor[[4, 8], pl.INT32],
    seq_lens: pl.Tensor[[4], pl.INT32],
    out: pl.Out[pl.Tensor[[128, 128], pl.BF16]],
):
    # The lengths are read here (host-written inputs) and reach every block as scalars: the AIV
    # half of the kernel cannot read GM scalars with this ptoas (load_scalar: unsupported
    # operation), so each block picks its own length by index arithmetic.
    s0 = pl.cast(pl.tensor.read(seq_lens, [0]), pl.INDEX)
    s1 = pl.cast(pl.tensor.read(seq_lens, [1]), pl.INDEX)
    s2 = pl.cast(pl.tensor.read(seq_lens, [2]), pl.INDEX)
    s3 = pl.cast(pl.tensor.read(seq_lens, [3]), pl.INDEX)
    # One SPMD dispatch of 8 blocks (one submit): block t is sequence t // 2, KV head t % 2.
    for t in pl.spmd(
        NUM_SEQS * NUM_KV_HEADS, name_hint="decode_group", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]
    ):
        i = t // NUM_KV_HEADS
        g = t % NUM_KV_HEADS
        # seq_len = s_i: sum over k of s_k * [i == k], [i == k] = max(1 - (i - k)^2, 0).
        seq_len = (
            s0 * pl.max(1 - i * i, 0)
            + s1 * pl.max(1 - (i - 1) * (i - 1), 0)
            + s2 * pl.max(1 - (i - 2) * (i - 2), 0)
            + s3 * pl.max(1 - (i - 3) * (i - 3), 0)
        )
        n_blocks = (seq_len + BLOCK_SIZE - 1) // BLOCK_SIZE
        row0 = t * GROUP
        col0 = g * HEAD_DIM
        q_heads = query[row0 : row0 + GROUP, 0:HEAD_DIM]
        neg_mat = pl.full([GROUP, BLOCK_SIZE], dtype=pl.FP32, value=NEG)
        # Pass 1: the running max of the scaled scores, kept elementwise per key column:
        # no row reduction in the loop.
        m_mat = pl.full([GROUP, BLOCK_SIZE], dtype=pl.FP32, value=NEG)
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_tables, [i, j]), pl.INDEX)
            kv0 = phys * BLOCK_SIZE
            valid_len = pl.min(BLOCK_SIZE, seq_len - j * BLOCK_SIZE)
            s_raw = pl.matmul(
                q_heads, key_cache[kv0 : kv0 + BLOCK_SIZE, col0 : col0 + HEAD_DIM], b_trans=True, out_dtype=pl.FP32
            )
            s_pad = pl.fillpad(pl.set_validshape(pl.mul(s_raw, ATTN_SCALE), GROUP, valid_len), pad_value=pl.PadValue.min)
            m_mat = pl.maximum(m_mat, s_pad)
        # The row max of the scaled scores, broadcast over the 32 key columns.
        m_bc = pl.row_expand_add(pl.mul(m_mat, 0.0), pl.row_max(m_mat))
        # Pass 2: S again, P = exp(S * scale - m), the sums kept elementwise, o summed without rescale.
        # The accumulator's first value is overwritten (init_cond at j == 0): any matmul of the
        # right shape gives the cube its Acc tile.
        o_acc = pl.matmul(
            query[row0 : row0 + GROUP, 0:BLOCK_SIZE], value_cache[0:BLOCK_SIZE, col0 : col0 + HEAD_DIM], out_dtype=pl.FP32
        )
        l_mat = pl.full([GROUP, BLOCK_SIZE], dtype=pl.FP32, value=0.0)
        for j in pl.range(n_blocks):
            phys = pl.cast(pl.tensor.read(block_tables, [i, j]), pl.INDEX)
            kv0 = phys * BLOCK_SIZE
            valid_len = pl.min(BLOCK_SIZE, seq_len - j * BLOCK_SIZE)
            s_blk = pl.matmul(
                q_heads, key_cache[kv0 : kv0 + BLOCK_SIZE, col0 : col0 + HEAD_DIM], b_trans=True, out_dtype=pl.FP32
            )
            s_blk = pl.mul(s_blk, ATTN_SCALE)
            s_pad = pl.fillpad(pl.set_validshape(s_blk, GROUP, valid_len), pad_value=pl.PadValue.min)
            s_blk = pl.maximum(neg_mat, s_pad)
            p_f32 = pl.exp(pl.sub(s_blk, m_bc))
            l_mat = pl.add(l_mat, p_f32)
            p_blk = pl.cast(p_f32, target_type=pl.BF16)
            o_acc = pl.matmul_acc(o_acc, p_blk, value_cache[kv0 : kv0 + BLOCK_SIZE, col0 : col0 + HEAD_DIM], init_cond=j == 0)
        out = pl.assemble(out, pl.cast(pl.row_expand_div(o_acc, pl.row_sum(l_mat)), target_type=pl.BF16), [row0, 0])
    return out
