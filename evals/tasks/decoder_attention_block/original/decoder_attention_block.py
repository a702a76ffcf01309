"""The program to port: the attention sub-layer of a Llama / Qwen2-style decoder layer over a prompt
(prefill), as Hugging Face's LlamaDecoderLayer computes it in BF16:

    h = x + o_proj(attention(rope(q_proj(norm(x))), rope(k_proj(norm(x))), v_proj(norm(x))))

with LlamaRMSNorm (learned weight, eps 1e-6, in FP32), bias-free Q/K/V/O projections, rotary
embedding in the rotate-half form with the cos/sin tables given, causal grouped-query attention (4
query heads share 2 key/value heads, head dim 64, scores scaled by 1/sqrt(64), softmax in FP32) and
the residual add. One sequence of SEQ tokens, no batch, no KV cache."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SEQ, HIDDEN, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 64, 256, 4, 2, 64
ROPE_THETA = 10000.0
EPS = 1e-6


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


def repeat_kv(hidden_states, n_rep):
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class LlamaAttentionSublayer(nn.Module):
    """input_layernorm + self_attn + the first residual add of LlamaDecoderLayer."""

    def __init__(self):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(HIDDEN, eps=EPS)
        self.q_proj = nn.Linear(HIDDEN, NUM_HEADS * HEAD_DIM, bias=False)
        self.k_proj = nn.Linear(HIDDEN, NUM_KV_HEADS * HEAD_DIM, bias=False)
        self.v_proj = nn.Linear(HIDDEN, NUM_KV_HEADS * HEAD_DIM, bias=False)
        self.o_proj = nn.Linear(NUM_HEADS * HEAD_DIM, HIDDEN, bias=False)
        self.scaling = HEAD_DIM**-0.5

    def forward(self, hidden_states, position_embeddings):
        # hidden_states: [1, seq, HIDDEN]; position_embeddings: (cos, sin), each [1, seq, HEAD_DIM]
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)

        bsz, q_len, _ = hidden_states.shape
        query_states = self.q_proj(hidden_states).view(bsz, q_len, -1, HEAD_DIM).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, q_len, -1, HEAD_DIM).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, q_len, -1, HEAD_DIM).transpose(1, 2)

        cos, sin = position_embeddings
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)

        key_states = repeat_kv(key_states, NUM_HEADS // NUM_KV_HEADS)
        value_states = repeat_kv(value_states, NUM_HEADS // NUM_KV_HEADS)
        attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) * self.scaling
        causal_mask = torch.full((q_len, q_len), float("-inf"), device=attn_weights.device).triu(1)
        attn_weights = attn_weights + causal_mask.to(attn_weights.dtype)
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)
        attn_output = torch.matmul(attn_weights, value_states)
        attn_output = attn_output.transpose(1, 2).reshape(bsz, q_len, -1).contiguous()
        attn_output = self.o_proj(attn_output)

        return residual + attn_output


def rope_tables(seq, head_dim=HEAD_DIM, theta=ROPE_THETA):
    """LlamaRotaryEmbedding for positions 0 .. seq - 1: cos, sin [seq, head_dim] (emb = cat(freqs, freqs))."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    freqs = torch.outer(torch.arange(seq, dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def decoder_attention_block(x, norm_w, wq, wk, wv, wo, cos, sin):
    """x: [SEQ, HIDDEN] BF16; norm_w: [HIDDEN]; wq: [NUM_HEADS * HEAD_DIM, HIDDEN]; wk, wv:
    [NUM_KV_HEADS * HEAD_DIM, HIDDEN]; wo: [HIDDEN, NUM_HEADS * HEAD_DIM] (nn.Linear's [out, in]);
    cos, sin: [SEQ, HEAD_DIM]; all BF16 -> h: [SEQ, HIDDEN] BF16."""
    block = LlamaAttentionSublayer().to(torch.bfloat16)
    with torch.no_grad():
        block.input_layernorm.weight.copy_(norm_w.reshape(-1))
        block.q_proj.weight.copy_(wq)
        block.k_proj.weight.copy_(wk)
        block.v_proj.weight.copy_(wv)
        block.o_proj.weight.copy_(wo)
        h = block(x.unsqueeze(0), (cos.unsqueeze(0), sin.unsqueeze(0)))
    return h.squeeze(0)


if __name__ == "__main__":
    x = torch.randn(SEQ, HIDDEN).bfloat16()
    norm_w = (1.0 + 0.1 * torch.randn(HIDDEN)).bfloat16()
    wq = (torch.randn(NUM_HEADS * HEAD_DIM, HIDDEN) / HIDDEN**0.5).bfloat16()
    wk = (torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN) / HIDDEN**0.5).bfloat16()
    wv = (torch.randn(NUM_KV_HEADS * HEAD_DIM, HIDDEN) / HIDDEN**0.5).bfloat16()
    wo = (torch.randn(HIDDEN, NUM_HEADS * HEAD_DIM) / HIDDEN**0.5).bfloat16()
    cos, sin = rope_tables(SEQ)
    print(decoder_attention_block(x, norm_w, wq, wk, wv, wo, cos.bfloat16(), sin.bfloat16()).shape)
