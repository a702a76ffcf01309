"""Orchestration of the port decoder_attention_block: the @pl.jit entry.

Dispatches (incore.py): the causal mask and the RMSNorm (independent), K/V projections + RoPE per
KV head, the fused per-query-head projection + RoPE + causal attention, o_proj with the residual.
The runtime orders them by the GM tensors they share.
"""
import pypto.language as pl
from incore import HIDDEN, KV_DIM, SEQ, causal_mask, head_attn, input_norm, kv_proj_rope, o_proj_res


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
    bias = causal_mask(bias)
    xn = pl.create_tensor([SEQ, HIDDEN], dtype=pl.BF16)
    xn = input_norm(x, norm_w, xn)
    k_rot = pl.create_tensor([SEQ, KV_DIM], dtype=pl.BF16)
    v_st = pl.create_tensor([SEQ, KV_DIM], dtype=pl.BF16)
    k_rot, v_st = kv_proj_rope(xn, wk, wv, cos, sin, k_rot, v_st)
    attn = pl.create_tensor([SEQ, HIDDEN], dtype=pl.BF16)
    attn = head_attn(xn, wq, cos, sin, k_rot, v_st, bias, attn)
    h = o_proj_res(attn, wo, x, h)
    return h
