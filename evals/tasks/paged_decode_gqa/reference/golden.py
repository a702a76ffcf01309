"""The task's reference for paged_attention_decode (never the agent's): each sequence's keys and values
gathered token by token through its block table, cut at its length, GQA softmax attention in FP32
from the BF16 cache, out in BF16."""
import math

import torch

ENTRY = "paged_attention_decode"
__outputs__ = ["out"]

# BF16 output: two BF16 ULP relative (2 x 2^-7 = 1.6e-2). A port multiplies P (or exp(s - m)) by V
# on the cube in BF16: each weight carries <= 2^-9 relative error, so |err(out)| <= 2^-9 *
# sum_j p_j |v_j| <= 2^-9 * max|v| (~4.5 for randn values) = 8.8e-3 where out itself is near 0 and
# RTOL gives no slack: ATOL 1e-2. Checked by emulating two such ports in torch on every case and
# seed (BF16 exp(s - m) or BF16 P, FP32 accumulation, BF16 out): max |err| 3.1e-2 (one BF16 ULP at
# |out| in [4, 8)), largest excess over RTOL * |ref| 3.3e-3, inside ATOL; the same port reading its
# last block whole (no cut at the length) misses by ~100 in every case.
RTOL = 1.6e-2
ATOL = 1e-2

NUM_SEQS, NUM_HEADS, NUM_KV_HEADS, HEAD_SIZE = 4, 32, 2, 128
BLOCK_SIZE, MAX_BLOCKS_PER_SEQ, NUM_BLOCKS = 32, 8, 40
GROUP = NUM_HEADS // NUM_KV_HEADS
MAX_LEN = BLOCK_SIZE * MAX_BLOCKS_PER_SEQ
SEED = 20261128

# Every case: the pool's blocks shuffled (each seed its own block table, never the identity), and every
# cache slot no sequence owns (past a sequence's length in its last block, the blocks past its length
# in its table row, the pool's spare blocks) poisoned with keys of 30 and values of 100, so a port
# that reads past a length shows it. "lens" are the four sequences' lengths: the maximum (256), one
# token, a block boundary (64, 32) and lengths that are not multiples of the 32-token block, moved
# between the sequences from case to case. "scale" multiplies the query and the cache's keys (4.0:
# scores of std ~36; 1e-3: a uniform average). "aligned" poisons the keys past each length with the
# group's mean query x 4 instead: a leaked key then wins the softmax (scores ~13 above the rest).
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base", "params": {"lens": [256, 77, 64, 1]}},
        "large": {"category": "large", "params": {"lens": [1, 256, 77, 64], "scale": 4.0}},
        "small": {"category": "small", "params": {"lens": [64, 1, 256, 77], "scale": 1.0e-3}},
        "past_length": {"category": "neg_inf", "params": {"lens": [33, 160, 255, 2], "aligned": True}},
        "boundaries": {"category": "tail", "params": {"lens": [31, 32, 225, 97]}},
    },
}


def build_tensor_specs(params=None):
    rows = NUM_BLOCKS * BLOCK_SIZE
    return [
        {"name": "query", "shape": [NUM_SEQS * NUM_HEADS, HEAD_SIZE], "dtype": "bfloat16", "is_output": False},
        {"name": "key_cache", "shape": [rows, NUM_KV_HEADS * HEAD_SIZE], "dtype": "bfloat16", "is_output": False},
        {"name": "value_cache", "shape": [rows, NUM_KV_HEADS * HEAD_SIZE], "dtype": "bfloat16", "is_output": False},
        {"name": "block_tables", "shape": [NUM_SEQS, MAX_BLOCKS_PER_SEQ], "dtype": "int32", "is_output": False},
        {"name": "seq_lens", "shape": [NUM_SEQS], "dtype": "int32", "is_output": False},
        {"name": "out", "shape": [NUM_SEQS * NUM_HEADS, HEAD_SIZE], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    lens = params.get("lens", [256, 77, 64, 1])
    query = torch.randn(NUM_SEQS, NUM_HEADS, HEAD_SIZE, generator=gen) * 1.5 * scale
    key_cache = torch.randn(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE, generator=gen) * 1.5 * scale
    value_cache = torch.randn(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE, generator=gen)
    perm = torch.randperm(NUM_BLOCKS, generator=gen)
    block_tables = perm[: NUM_SEQS * MAX_BLOCKS_PER_SEQ].reshape(NUM_SEQS, MAX_BLOCKS_PER_SEQ)
    owned = torch.zeros(NUM_BLOCKS, BLOCK_SIZE, dtype=torch.bool)
    for i, n in enumerate(lens):
        for j in range(n):
            owned[block_tables[i, j // BLOCK_SIZE], j % BLOCK_SIZE] = True
    key_cache[~owned] = 30.0
    value_cache[~owned] = 100.0
    if params.get("aligned", False):
        for i in range(NUM_SEQS):
            for g in range(NUM_KV_HEADS):
                lure = 4.0 * query[i, g * GROUP:(g + 1) * GROUP].mean(dim=0)
                for b in block_tables[i].tolist():
                    key_cache[b, ~owned[b], g] = lure
    return [
        ("query", query.reshape(NUM_SEQS * NUM_HEADS, HEAD_SIZE).to(torch.bfloat16)),
        ("key_cache", key_cache.reshape(NUM_BLOCKS * BLOCK_SIZE, NUM_KV_HEADS * HEAD_SIZE).to(torch.bfloat16)),
        ("value_cache", value_cache.reshape(NUM_BLOCKS * BLOCK_SIZE, NUM_KV_HEADS * HEAD_SIZE).to(torch.bfloat16)),
        ("block_tables", block_tables.to(torch.int32)),
        ("seq_lens", torch.tensor(lens, dtype=torch.int32)),
        ("out", torch.zeros(NUM_SEQS * NUM_HEADS, HEAD_SIZE, dtype=torch.bfloat16)),
    ]


def reference(query, key_cache, value_cache, block_tables, seq_lens):
    k_pool = key_cache.float().reshape(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE)
    v_pool = value_cache.float().reshape(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE)
    q = query.float().reshape(NUM_SEQS, NUM_HEADS, HEAD_SIZE)
    out = torch.empty(NUM_SEQS, NUM_HEADS, HEAD_SIZE)
    for i in range(NUM_SEQS):
        n = int(seq_lens[i])
        blocks = block_tables[i].long()
        k = k_pool[blocks].reshape(MAX_LEN, NUM_KV_HEADS, HEAD_SIZE)[:n]
        v = v_pool[blocks].reshape(MAX_LEN, NUM_KV_HEADS, HEAD_SIZE)[:n]
        for h in range(NUM_HEADS):
            g = h // GROUP
            probs = torch.softmax((k[:, g] @ q[i, h]) / math.sqrt(HEAD_SIZE), dim=0)
            out[i, h] = probs @ v[:, g]
    return out.reshape(NUM_SEQS * NUM_HEADS, HEAD_SIZE).to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(
        tensors["query"], tensors["key_cache"], tensors["value_cache"], tensors["block_tables"], tensors["seq_lens"]
    )
