"""The program being ported: causal self-attention of a prefill step, one sequence, several heads.

    out[h] = softmax(q[h] @ k[h]^T * scale + causal) @ v[h]        causal: -inf above the diagonal

BF16 q, k, v and output (as an inference engine keeps them), FP32 arithmetic inside. This is the
textbook formula: it materialises the [seq, seq] score matrix of every head.
"""
import math

import torch


def causal_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """q, k, v: [heads, seq, head_dim] BF16 -> [heads, seq, head_dim] BF16."""
    seq, head_dim = q.shape[-2], q.shape[-1]
    scores = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(head_dim)
    future = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(future, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v.float()).to(torch.bfloat16)


if __name__ == "__main__":
    torch.manual_seed(0)
    q, k, v = (torch.randn(2, 512, 128).to(torch.bfloat16) for _ in range(3))
    out = causal_attention(q, k, v).float()
    # Row by row, each query attends to keys 0..i only: an independent statement of causality.
    for h in range(q.shape[0]):
        for i in range(0, q.shape[1], 37):
            w = torch.softmax(q[h, i].float() @ k[h, : i + 1].float().T / 128 ** 0.5, dim=-1)
            assert torch.allclose(out[h, i], w @ v[h, : i + 1].float(), rtol=1.6e-2, atol=1e-2)
    print("OK")
