"""Orchestration of the naive port of lightning_indexer_prolog: per tile of 64 tokens, for each of
the 8 index heads the 12 kernels of the q path, then the 12 kernels of the k path; every
intermediate (projection, its BF16 copy, rotation, |.|, row max, amax, 127 / amax, scaled values,
INT32 and FP16 copies) through GM. Tasks: 2 token tiles x (8 heads x 12 + 12) = 216."""
import pypto.language as pl
from incore import (
    INDEX_DIM,
    TOKEN_TILE,
    k_abs_k,
    k_cast_bf16_k,
    k_cast_f16_k,
    k_cast_i8_k,
    k_cast_i32_k,
    k_div_k,
    k_hadamard_k,
    k_max_eps_k,
    k_proj_k,
    k_row_max_k,
    k_row_mul_k,
    k_scale_k,
    q_abs_k,
    q_cast_bf16_k,
    q_cast_f16_k,
    q_cast_i8_k,
    q_cast_i32_k,
    q_div_k,
    q_hadamard_k,
    q_max_eps_k,
    q_proj_k,
    q_row_max_k,
    q_row_mul_k,
    q_scale_k,
)

TOKENS = 128
INDEX_HEADS = 8


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
    q_lin = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.FP32)
    q_bf = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.BF16)
    q_rot = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.FP32)
    q_abs = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.FP32)
    q_rmax = pl.create_tensor([INDEX_HEADS, TOKENS], dtype=pl.FP32)
    q_amax = pl.create_tensor([INDEX_HEADS, TOKENS], dtype=pl.FP32)
    q_inv = pl.create_tensor([INDEX_HEADS, TOKENS], dtype=pl.FP32)
    q_scaled = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.FP32)
    q_i32 = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.INT32)
    q_f16 = pl.create_tensor([TOKENS, INDEX_HEADS * INDEX_DIM], dtype=pl.FP16)
    k_lin = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.FP32)
    k_bf = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.BF16)
    k_rot = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.FP32)
    k_abs = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.FP32)
    k_rmax = pl.create_tensor([1, TOKENS], dtype=pl.FP32)
    k_amax = pl.create_tensor([1, TOKENS], dtype=pl.FP32)
    k_inv = pl.create_tensor([1, TOKENS], dtype=pl.FP32)
    k_scaled = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.FP32)
    k_i32 = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.INT32)
    k_f16 = pl.create_tensor([TOKENS, INDEX_DIM], dtype=pl.FP16)
    for tb in pl.range(TOKENS // TOKEN_TILE):
        t0 = tb * TOKEN_TILE
        for hd in pl.range(INDEX_HEADS):
            col0 = hd * INDEX_DIM
            q_lin = q_proj_k(qr, wq_b, q_lin, t0, col0)
            q_bf = q_cast_bf16_k(q_lin, q_bf, t0, col0)
            q_rot = q_hadamard_k(q_bf, hadamard, q_rot, t0, col0)
            q_abs = q_abs_k(q_rot, q_abs, t0, col0)
            q_rmax = q_row_max_k(q_abs, q_rmax, t0, hd, col0)
            q_amax = q_max_eps_k(q_rmax, q_amax, t0, hd)
            q_inv = q_div_k(q_amax, q_inv, t0, hd)
            q_scaled = q_row_mul_k(q_rot, q_inv, q_scaled, t0, hd, col0)
            q_i32 = q_cast_i32_k(q_scaled, q_i32, t0, col0)
            q_f16 = q_cast_f16_k(q_i32, q_f16, t0, col0)
            q_int8 = q_cast_i8_k(q_f16, q_int8, t0, col0)
            q_scale = q_scale_k(q_amax, q_scale, t0, hd)
        k_lin = k_proj_k(x, wk, k_lin, t0)
        k_bf = k_cast_bf16_k(k_lin, k_bf, t0)
        k_rot = k_hadamard_k(k_bf, hadamard, k_rot, t0)
        k_abs = k_abs_k(k_rot, k_abs, t0)
        k_rmax = k_row_max_k(k_abs, k_rmax, t0)
        k_amax = k_max_eps_k(k_rmax, k_amax, t0)
        k_inv = k_div_k(k_amax, k_inv, t0)
        k_scaled = k_row_mul_k(k_rot, k_inv, k_scaled, t0)
        k_i32 = k_cast_i32_k(k_scaled, k_i32, t0)
        k_f16 = k_cast_f16_k(k_i32, k_f16, t0)
        k_int8 = k_cast_i8_k(k_f16, k_int8, t0)
        k_scale = k_scale_k(k_amax, k_scale, t0)
    return q_int8, q_scale, k_int8, k_scale
