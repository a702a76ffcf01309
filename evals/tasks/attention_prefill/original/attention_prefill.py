"""The program to port: causal self-attention over a prompt (prefill) with grouped-query attention,
as Hugging Face's Llama / Qwen2 eager attention computes it: 4 query heads share 2 key/value heads
(repeat_kv), scores scaled by 1/sqrt(head_dim), the causal mask added, softmax, then P @ V. Inputs
are the projections' BF16 outputs in their token-major layout ([tokens, heads * head_dim]); the
scores and the softmax are computed in FP32, the output is rounded to BF16."""
import torch
import torch.nn.functional as F

SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 256, 4, 2, 64


def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:
    """[batch, kv_heads, seq, head_dim] -> [batch, kv_heads * n_rep, seq, head_dim] (transformers' repeat_kv)."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def attention_prefill(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """q: [SEQ, NUM_HEADS * HEAD_DIM] BF16; k, v: [SEQ, NUM_KV_HEADS * HEAD_DIM] BF16
    -> [SEQ, NUM_HEADS * HEAD_DIM] BF16. Query head h attends with key/value head h // 2."""
    seq = q.shape[0]
    query = q.float().view(1, seq, NUM_HEADS, HEAD_DIM).transpose(1, 2)
    key = k.float().view(1, seq, NUM_KV_HEADS, HEAD_DIM).transpose(1, 2)
    value = v.float().view(1, seq, NUM_KV_HEADS, HEAD_DIM).transpose(1, 2)
    key_states = repeat_kv(key, NUM_HEADS // NUM_KV_HEADS)
    value_states = repeat_kv(value, NUM_HEADS // NUM_KV_HEADS)

    scaling = HEAD_DIM**-0.5
    attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
    causal_mask = torch.full((seq, seq), float("-inf")).triu(1)
    attn_weights = attn_weights + causal_mask
    attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32)
    attn_output = torch.matmul(attn_weights, value_states)
    return attn_output.transpose(1, 2).reshape(seq, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)


if __name__ == "__main__":
    q = torch.randn(SEQ, NUM_HEADS * HEAD_DIM).bfloat16()
    k = torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM).bfloat16()
    v = torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM).bfloat16()
    print(attention_prefill(q, k, v).shape)
