"""Orchestration of the port lightning_indexer_prolog: the @pl.jit entry the golden runs.

Token tiles and index heads are independent (pl.parallel). Per (token tile, head): q_proj ->
hadamard_mix -> int8_quant_rows, chained through two small GM intermediates ([64, 128] BF16 and
FP32) that no other task reads; per token tile the same chain for the key with k_proj. The key's
outputs and the scales are written through contiguous views (rows of k_int8, row h of the head-major
q_scale); a head's q_int8 columns are not contiguous, so they are quantised into a dense tensor and
stored at their offset by a small scope (PORTING.md, attempt 7).
Tasks: TOKENS / 64 * (INDEX_HEADS * 4 + 3) = 70.
"""
import pypto.language as pl
from incore import hadamard_mix, int8_quant_rows, k_proj, q_proj

TOKENS = 128
HIDDEN = 1024
Q_LORA = 512
INDEX_HEADS = 8
INDEX_DIM = 128
TOKEN_TILE = 64


@pl.jit
def lightning_indexer_prolog(
    x: pl.Tensor[[128, 1024], pl.BF16],
    qr: pl.Tensor[[128, 512], pl.BF16],
    wq_b: pl.Tensor[[512, 1024], pl.BF16],
    wk: pl.Tensor[[1024, 128], pl.BF16],
    hadamard: pl.Tensor[[128, 128], pl.BF16],
    q_int8: pl.Out[pl.Tensor[[128, 1024], pl.INT8]],
    q_scale: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
    k_int8: pl.Out[pl.Tensor[[128, 128], pl.INT8]],
    k_scale: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
):
    for tb in pl.parallel(TOKENS // TOKEN_TILE):
        t0 = tb * TOKEN_TILE
        qr_tile = pl.slice(qr, [TOKEN_TILE, Q_LORA], [t0, 0])
        for hd in pl.parallel(INDEX_HEADS):
            col0 = hd * INDEX_DIM
            w_head = pl.slice(wq_b, [Q_LORA, INDEX_DIM], [0, col0])
            q_lin = pl.create_tensor([TOKEN_TILE, INDEX_DIM], dtype=pl.BF16)
            q_lin = q_proj(qr_tile, w_head, q_lin)
            q_rot = pl.create_tensor([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32)
            q_rot = hadamard_mix(q_lin, hadamard, q_rot)
            # The head's columns of q_int8 are not contiguous: quantise into a dense tensor, then copy
            # it into place from a scope that stores at the offset itself (PORTING.md, attempt 7).
            q_dense = pl.create_tensor([TOKEN_TILE, INDEX_DIM], dtype=pl.INT8)
            q_sc = pl.slice(q_scale, [1, TOKEN_TILE], [hd, t0])
            q_dense, q_sc = int8_quant_rows(q_rot, q_dense, q_sc)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="place_q_head"):
                q_tile = pl.load(q_dense, [0, 0], [TOKEN_TILE, INDEX_DIM])
                pl.store(q_tile, [t0, col0], q_int8)
        x_tile = pl.slice(x, [TOKEN_TILE, HIDDEN], [t0, 0])
        k_lin = pl.create_tensor([TOKEN_TILE, INDEX_DIM], dtype=pl.BF16)
        k_lin = k_proj(x_tile, wk, k_lin)
        k_rot = pl.create_tensor([TOKEN_TILE, INDEX_DIM], dtype=pl.FP32)
        k_rot = hadamard_mix(k_lin, hadamard, k_rot)
        k_out = pl.slice(k_int8, [TOKEN_TILE, INDEX_DIM], [t0, 0])
        k_sc = pl.slice(k_scale, [1, TOKEN_TILE], [0, t0])
        int8_quant_rows(k_rot, k_out, k_sc)
    return q_int8, q_scale, k_int8, k_scale
