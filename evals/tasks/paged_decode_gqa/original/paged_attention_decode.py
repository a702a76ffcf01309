"""The program to port: one decode step of paged attention, as vLLM's reference for its
paged-attention kernels computes it. Each sequence has one new query token (32 query heads); its
past keys and values live in a shared pool of cache blocks of 32 tokens ([num_blocks, block_size,
num_kv_heads, head_size], vLLM's flash layout), found through the sequence's row of the block table:
token j of sequence i is slot j % 32 of block block_tables[i][j // 32]. The sequence sees its first
seq_lens[i] tokens; grouped-query attention: 16 query heads share each of the 2 key/value heads
(Qwen3-235B-A22B's attention on one of two tensor-parallel ranks). Scores and softmax in FP32 from
the BF16 cache, the output rounded to BF16."""
import math

import torch

NUM_SEQS, NUM_HEADS, NUM_KV_HEADS, HEAD_SIZE = 4, 32, 2, 128
BLOCK_SIZE, MAX_BLOCKS_PER_SEQ, NUM_BLOCKS = 32, 8, 40


def masked_attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, scale: float) -> torch.Tensor:
    """query: [1, heads, d]; key, value: [seq_len, heads, d] -> [1, heads, d]."""
    attn_weights = scale * torch.einsum("qhd,khd->hqk", query, key).float()
    attn_weights = torch.softmax(attn_weights, dim=-1)
    return torch.einsum("hqk,khd->qhd", attn_weights, value.float())


def paged_attention_decode(
    query: torch.Tensor,
    key_cache: torch.Tensor,
    value_cache: torch.Tensor,
    block_tables: torch.Tensor,
    seq_lens: torch.Tensor,
) -> torch.Tensor:
    """query: [NUM_SEQS, NUM_HEADS, HEAD_SIZE] BF16;
    key_cache, value_cache: [NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE] BF16;
    block_tables: [NUM_SEQS, MAX_BLOCKS_PER_SEQ] INT32; seq_lens: [NUM_SEQS] INT32 (1 .. 256)
    -> [NUM_SEQS, NUM_HEADS, HEAD_SIZE] BF16."""
    num_queries_per_kv = NUM_HEADS // NUM_KV_HEADS
    scale = 1.0 / math.sqrt(HEAD_SIZE)
    output = torch.empty(query.shape, dtype=torch.float32)
    for i in range(query.shape[0]):
        seq_len = int(seq_lens[i])
        keys, values = [], []
        for j in range(seq_len):
            block_number = int(block_tables[i, j // BLOCK_SIZE])
            block_offset = j % BLOCK_SIZE
            keys.append(key_cache[block_number, block_offset])
            values.append(value_cache[block_number, block_offset])
        keys = torch.stack(keys, dim=0).float()
        values = torch.stack(values, dim=0).float()
        keys = torch.repeat_interleave(keys, num_queries_per_kv, dim=1)
        values = torch.repeat_interleave(values, num_queries_per_kv, dim=1)
        output[i] = masked_attention(query[i].unsqueeze(0).float(), keys, values, scale)[0]
    return output.to(torch.bfloat16)


if __name__ == "__main__":
    q = torch.randn(NUM_SEQS, NUM_HEADS, HEAD_SIZE).bfloat16()
    kc = torch.randn(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE).bfloat16()
    vc = torch.randn(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE).bfloat16()
    tables = torch.randperm(NUM_BLOCKS)[: NUM_SEQS * MAX_BLOCKS_PER_SEQ].reshape(NUM_SEQS, -1).int()
    lens = torch.tensor([256, 77, 64, 1], dtype=torch.int32)
    print(paged_attention_decode(q, kc, vc, tables, lens).shape)
