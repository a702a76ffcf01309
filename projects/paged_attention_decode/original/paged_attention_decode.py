"""The program being ported: one decode step of multi-query attention over a paged KV cache.

Every sequence b has one new token; its NUM_HEADS query heads attend to the context_lens[b]
cached keys/values of the sequence's single KV head (MQA: all query heads share it). The cache
is a pool of fixed-size blocks: logical block i of sequence b lives in physical block
block_table[b, i]. BF16 tensors, FP32 arithmetic, BF16 output.
"""
import math

import torch


def paged_attention_decode(query, key_cache, value_cache, block_table, context_lens, block_size):
    """query [B, H, D]; key_cache / value_cache [num_blocks, block_size, D]; block_table [B, max_blocks];
    context_lens [B] -> out [B, H, D] BF16."""
    batch, _, head_dim = query.shape
    out = torch.empty_like(query)
    for b in range(batch):
        n = int(context_lens[b])
        blocks = block_table[b, : (n + block_size - 1) // block_size].long()
        k = key_cache[blocks].reshape(-1, head_dim)[:n].float()
        v = value_cache[blocks].reshape(-1, head_dim)[:n].float()
        scores = query[b].float() @ k.T / math.sqrt(head_dim)
        out[b] = (torch.softmax(scores, dim=-1) @ v).to(out.dtype)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    B, H, D, BS, MAXB = 2, 4, 128, 64, 4
    pool_k = torch.randn(B * MAXB, BS, D).to(torch.bfloat16)
    pool_v = torch.randn(B * MAXB, BS, D).to(torch.bfloat16)
    table = torch.randperm(B * MAXB, dtype=torch.int32).reshape(B, MAXB)
    lens = torch.tensor([200, 7], dtype=torch.int32)
    q = torch.randn(B, H, D).to(torch.bfloat16)
    out = paged_attention_decode(q, pool_k, pool_v, table, lens, BS)
    # The same attention over a contiguous copy of each sequence's keys and values.
    for b in range(B):
        ks = torch.cat([pool_k[i] for i in table[b].tolist()])[: lens[b]].float()
        vs = torch.cat([pool_v[i] for i in table[b].tolist()])[: lens[b]].float()
        w = torch.softmax(q[b].float() @ ks.T / math.sqrt(D), dim=-1)
        assert torch.allclose(out[b].float(), w @ vs, rtol=1.6e-2, atol=1e-2)
    print("OK")
