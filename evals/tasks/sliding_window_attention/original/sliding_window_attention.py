"""The program to port: causal self-attention over a prompt (prefill) in which each token sees only the
last SLIDING_WINDOW tokens (itself included), as Hugging Face's Mistral attention masks it (key j is
visible to query i when i - SLIDING_WINDOW < j <= i). Grouped-query attention: 4 query heads share one
key/value head. Inputs are the projections' BF16 outputs in their token-major layout
([tokens, heads * head_dim]); scores and softmax in FP32, the output rounded to BF16."""
import torch
import torch.nn.functional as F

SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM = 256, 4, 1, 128
SLIDING_WINDOW = 100


def sliding_window_causal_mask(seq: int, window: int) -> torch.Tensor:
    """Additive [seq, seq] mask: 0 where i - window < j <= i, -inf elsewhere."""
    q_idx = torch.arange(seq).unsqueeze(1)
    kv_idx = torch.arange(seq).unsqueeze(0)
    visible = (kv_idx <= q_idx) & (kv_idx > q_idx - window)
    return torch.zeros(seq, seq).masked_fill(~visible, float("-inf"))


def sliding_window_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """q: [SEQ, NUM_HEADS * HEAD_DIM] BF16; k, v: [SEQ, NUM_KV_HEADS * HEAD_DIM] BF16
    -> [SEQ, NUM_HEADS * HEAD_DIM] BF16."""
    seq = q.shape[0]
    n_rep = NUM_HEADS // NUM_KV_HEADS
    query = q.float().view(seq, NUM_HEADS, HEAD_DIM).transpose(0, 1)
    key = k.float().view(seq, NUM_KV_HEADS, HEAD_DIM).transpose(0, 1).repeat_interleave(n_rep, dim=0)
    value = v.float().view(seq, NUM_KV_HEADS, HEAD_DIM).transpose(0, 1).repeat_interleave(n_rep, dim=0)
    attn_weights = torch.matmul(query, key.transpose(1, 2)) * HEAD_DIM**-0.5
    attn_weights = attn_weights + sliding_window_causal_mask(seq, SLIDING_WINDOW)
    attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32)
    attn_output = torch.matmul(attn_weights, value)
    return attn_output.transpose(0, 1).reshape(seq, NUM_HEADS * HEAD_DIM).to(torch.bfloat16)


if __name__ == "__main__":
    q = torch.randn(SEQ, NUM_HEADS * HEAD_DIM).bfloat16()
    k = torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM).bfloat16()
    v = torch.randn(SEQ, NUM_KV_HEADS * HEAD_DIM).bfloat16()
    print(sliding_window_attention(q, k, v).shape)
