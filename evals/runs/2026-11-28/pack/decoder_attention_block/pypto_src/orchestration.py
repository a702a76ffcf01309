"""Orchestration of the port decoder_attention_block: the @pl.jit entry.

Four dispatches, each one SPMD grid or scope (incore.py): make_causal_bias (independent),
norm_qkv_rope (4 blocks), attention_head (16 blocks), o_proj_residual (8 blocks); the runtime
orders them by the GM tensors they share.
"""
import pypto.language as pl
from incore import HIDDEN, KV_DIM, Q_DIM, SEQ, attention_head, make_causal_bias, norm_qkv_rope, o_proj_residual


@pl.jit
def decoder_attention_block(
    x: pl.Tensor[[64, 256], pl.BF16],
    norm_w: pl.Tensor[[1, 256], pl.BF16],
    wq: pl.Tensor[[256, 256], pl.BF16],
    wk: pl.Tensor[[128, 256], pl.BF16],
    wv: pl.Tensor[[128, 256], pl.BF16],
    wo: pl.Tensor[[256, 256], pl.BF16],
    cos: pl.Tensor[[64, 64], pl.BF16],
    sin: pl.Tensor[[64, 64], pl.BF16],
    h: pl.Out[pl.Tensor[[64, 256], pl.BF16]],
):
    bias = pl.create_tensor([SEQ, SEQ], dtype=pl.FP32)
    bias = make_causal_bias(bias)
    q_rot = pl.create_tensor([SEQ, Q_DIM], dtype=pl.BF16)
    k_rot = pl.create_tensor([SEQ, KV_DIM], dtype=pl.BF16)
    v_out = pl.create_tensor([SEQ, KV_DIM], dtype=pl.BF16)
    q_rot, k_rot, v_out = norm_qkv_rope(x, norm_w, wq, wk, wv, cos, sin, q_rot, k_rot, v_out)
    attn = pl.create_tensor([SEQ, Q_DIM], dtype=pl.BF16)
    attn = attention_head(q_rot, k_rot, v_out, bias, attn)
    h = o_proj_residual(attn, wo, x, h)
    return h
