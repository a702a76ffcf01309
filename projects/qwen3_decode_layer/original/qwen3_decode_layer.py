"""The program being ported: one Qwen3 dense decoder layer, one decode step, paged KV cache.

Written the way Hugging Face's `modeling_qwen3.py` computes a BF16 layer (eager attention):
every nn.Linear is a BF16 matmul (FP32 accumulation, BF16 result), Qwen3RMSNorm computes in FP32
and casts back before the BF16 weight multiplies, RoPE is `q * cos + rotate_half(q) * sin` on
BF16 tensors with the BF16 cos / sin the model's rotary embedding hands every layer, GQA repeats
each KV head over its query heads (repeat_kv), the scores are a BF16 matmul times the scale and
the softmax runs in FP32 before the cast back, the residual adds are BF16 and the MLP is
down(silu(gate(x)) * up(x)).

The KV cache is paged as vLLM lays it out: key_cache / value_cache [num_blocks, block_size,
num_kv_heads, head_dim]; logical block i of sequence b is physical block block_table[b, i].
Sequence b has context_lens[b] tokens including the new one, whose position is
context_lens[b] - 1: the layer writes the new token's K and V into that slot, then attends over
the first context_lens[b] slots. Weights are nn.Linear's [out_features, in_features].
Plain torch; no transformers import, no hub download.
"""
import math

import torch

HIDDEN = 1024
NUM_HEADS = 16
NUM_KV_HEADS = 8
HEAD_DIM = 128
INTERMEDIATE = 3072
RMS_EPS = 1e-6
ROPE_THETA = 1000000.0


def rms_norm(x, weight, eps=RMS_EPS):
    """Qwen3RMSNorm: FP32 statistics, cast back to the input dtype, then times the weight."""
    dtype = x.dtype
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    return weight * h.to(dtype)


def rotary_cos_sin(positions, dtype=torch.bfloat16, head_dim=HEAD_DIM, theta=ROPE_THETA):
    """Qwen3RotaryEmbedding for the given positions [B]: cos, sin [B, head_dim] in `dtype`."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    freqs = positions.float()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def linear(x, w):
    return torch.nn.functional.linear(x, w)


def paged_attention(q, key_cache, value_cache, block_table, context_lens):
    """q [B, H, D] (after norm and RoPE); caches [num_blocks, bs, KV, D] -> [B, H, D]."""
    batch, heads, head_dim = q.shape
    block_size = key_cache.shape[1]
    kv_heads = key_cache.shape[2]
    groups = heads // kv_heads
    out = torch.empty_like(q)
    for b in range(batch):
        n = int(context_lens[b])
        blocks = block_table[b, : (n + block_size - 1) // block_size].long()
        k = key_cache[blocks].reshape(-1, kv_heads, head_dim)[:n].transpose(0, 1)  # [KV, n, D]
        v = value_cache[blocks].reshape(-1, kv_heads, head_dim)[:n].transpose(0, 1)
        k = k.repeat_interleave(groups, dim=0)  # repeat_kv: [H, n, D]
        v = v.repeat_interleave(groups, dim=0)
        scores = torch.matmul(q[b].unsqueeze(1), k.transpose(1, 2)) * (1.0 / math.sqrt(head_dim))
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        out[b] = torch.matmul(probs, v).squeeze(1)
    return out


def qwen3_decode_layer(weights, hidden_states, cos, sin, key_cache, value_cache, block_table, context_lens):
    """One decoder layer for one new token per sequence.

    weights: dict of BF16 tensors input_layernorm [H], q_proj [NH*D, H], k_proj / v_proj [KV*D, H],
    q_norm / k_norm [D], o_proj [H, NH*D], post_attention_layernorm [H], gate_proj / up_proj [I, H],
    down_proj [H, I]. hidden_states [B, H] BF16; cos / sin [B, D] (rotary_cos_sin of the positions
    context_lens - 1). The caches are updated in place (the new token's slot) and returned.
    Returns (out [B, H], key_cache, value_cache, stages) where stages holds the intermediate
    results a port can be compared with stage by stage.
    """
    batch = hidden_states.shape[0]
    block_size = key_cache.shape[1]
    residual = hidden_states
    x = rms_norm(hidden_states, weights["input_layernorm"])
    q = linear(x, weights["q_proj"]).view(batch, NUM_HEADS, HEAD_DIM)
    k = linear(x, weights["k_proj"]).view(batch, NUM_KV_HEADS, HEAD_DIM)
    v = linear(x, weights["v_proj"]).view(batch, NUM_KV_HEADS, HEAD_DIM)
    q = rms_norm(q, weights["q_norm"])
    k = rms_norm(k, weights["k_norm"])
    cos_b, sin_b = cos[:, None, :], sin[:, None, :]
    q = q * cos_b + rotate_half(q) * sin_b
    k = k * cos_b + rotate_half(k) * sin_b
    # The KV-cache write of the new token (position context_lens[b] - 1).
    for b in range(batch):
        pos = int(context_lens[b]) - 1
        phys = int(block_table[b, pos // block_size])
        key_cache[phys, pos % block_size] = k[b]
        value_cache[phys, pos % block_size] = v[b]
    attn = paged_attention(q, key_cache, value_cache, block_table, context_lens)
    o = linear(attn.reshape(batch, NUM_HEADS * HEAD_DIM), weights["o_proj"])
    h = residual + o
    residual = h
    x = rms_norm(h, weights["post_attention_layernorm"])
    gate = linear(x, weights["gate_proj"])
    up = linear(x, weights["up_proj"])
    mlp = linear(torch.nn.functional.silu(gate) * up, weights["down_proj"])
    out = residual + mlp
    stages = {"q": q, "k": k, "v": v, "attn": attn, "resid1": h}
    return out, key_cache, value_cache, stages


def qwen3_decode_stack(layers, hidden_states, cos, sin, key_caches, value_caches, block_table, context_lens):
    """N layers in sequence: layers[i] are layer i's weights, key_caches[i] / value_caches[i] its
    caches (updated in place). Returns the last layer's output and every layer's output."""
    outs = []
    h = hidden_states
    for weights, kc, vc in zip(layers, key_caches, value_caches):
        h, _, _, _ = qwen3_decode_layer(weights, h, cos, sin, kc, vc, block_table, context_lens)
        outs.append(h)
    return h, outs


def random_layer_weights(gen, scale_qk_norm=1.0):
    """BF16 weights drawn from `gen`, scaled like a trained layer (std 1 / sqrt(fan_in)); the norm
    weights near 1 but not 1, so a missing weight multiply shows."""
    def lin(out_f, in_f):
        return (torch.randn(out_f, in_f, generator=gen) / math.sqrt(in_f)).to(torch.bfloat16)

    def norm(n, s=1.0):
        return ((1.0 + 0.1 * torch.randn(n, generator=gen)) * s).to(torch.bfloat16)

    return {
        "input_layernorm": norm(HIDDEN),
        "q_proj": lin(NUM_HEADS * HEAD_DIM, HIDDEN),
        "k_proj": lin(NUM_KV_HEADS * HEAD_DIM, HIDDEN),
        "v_proj": lin(NUM_KV_HEADS * HEAD_DIM, HIDDEN),
        "q_norm": norm(HEAD_DIM, scale_qk_norm),
        "k_norm": norm(HEAD_DIM, scale_qk_norm),
        "o_proj": lin(HIDDEN, NUM_HEADS * HEAD_DIM),
        "post_attention_layernorm": norm(HIDDEN),
        "gate_proj": lin(INTERMEDIATE, HIDDEN),
        "up_proj": lin(INTERMEDIATE, HIDDEN),
        "down_proj": lin(HIDDEN, INTERMEDIATE),
    }


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    B, BS, MAXB = 4, 32, 4
    w = random_layer_weights(gen)
    x = torch.randn(B, HIDDEN, generator=gen).to(torch.bfloat16)
    lens = torch.tensor([100, 1, 33, 128], dtype=torch.int32)
    table = torch.randperm(B * MAXB, generator=gen).to(torch.int32).reshape(B, MAXB)
    kc = torch.randn(B * MAXB, BS, NUM_KV_HEADS, HEAD_DIM, generator=gen).to(torch.bfloat16)
    vc = torch.randn(B * MAXB, BS, NUM_KV_HEADS, HEAD_DIM, generator=gen).to(torch.bfloat16)
    cos, sin = rotary_cos_sin(lens.long() - 1)
    out, kc, vc, st = qwen3_decode_layer(w, x, cos, sin, kc, vc, table, lens)
    # The attention of sequence 1 (context 1) is its own new value row, repeated per group.
    assert torch.allclose(st["attn"][1].float(), st["v"][1].repeat_interleave(2, 0).float())
    print("OK", out.shape, out.float().abs().mean().item())
