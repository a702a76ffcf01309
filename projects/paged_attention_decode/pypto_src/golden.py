"""Golden for the port paged_attention_decode: inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out/pl.InOut on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  build_tensor_specs()  every argument of the entry in order, with the fields of pypto-lib's
                        TensorSpec: name, shape, dtype (torch dtype name), is_output
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is original/paged_attention_decode.py: K/V gathered through the block table into
contiguous rows, cut at context_lens[b], then the plain two-pass softmax in FP32. It never
imports pypto.
"""
import math

import torch

ENTRY = "paged_attention_decode"
__outputs__ = ["out"]

# BF16 output: two BF16 ULP relative (pypto's 1.6e-2 for BF16). P is rounded to BF16 before the
# PV matmul: <= 2^-9 relative per weight, so |err| <= 2^-9 * max|v| (~4.5 here) = 8.8e-3 where
# out is near 0 and RTOL gives no slack; ATOL 1e-2 covers it. Measured by emulating the port's
# arithmetic in torch (PORTING.md section 3): max |err| 7.8e-3, largest excess over RTOL * |ref|
# 1.3e-3.
RTOL = 1.6e-2
ATOL = 1e-2

BATCH = 4
NUM_HEADS = 64
HEAD_DIM = 128
BLOCK_SIZE = 64
MAX_BLOCKS = 8
POOL_BLOCKS = BATCH * MAX_BLOCKS
# A full context, one that ends mid-block, one just past a block boundary, and a single token.
CONTEXT_LENS = [512, 300, 65, 1]
SEED = 20260316

# The correctness contract (docs/contract.md): every case under every seed; "scale" multiplies the
# query and the keys. Keys past each context length hold huge values in every case: the masked
# positions are the "neg_inf" category.
CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 4.0}},
        "past_context": {"category": "neg_inf"},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "query", "shape": [BATCH * NUM_HEADS, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "key_cache", "shape": [POOL_BLOCKS * BLOCK_SIZE, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "value_cache", "shape": [POOL_BLOCKS * BLOCK_SIZE, HEAD_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "block_table", "shape": [BATCH * MAX_BLOCKS], "dtype": "int32", "is_output": False},
        {"name": "context_lens", "shape": [BATCH], "dtype": "int32", "is_output": False},
        {"name": "out", "shape": [BATCH * NUM_HEADS, HEAD_DIM], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    query = (torch.randn(BATCH * NUM_HEADS, HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    key_cache = (torch.randn(POOL_BLOCKS * BLOCK_SIZE, HEAD_DIM, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    value_cache = torch.randn(POOL_BLOCKS * BLOCK_SIZE, HEAD_DIM, generator=gen).to(torch.bfloat16)
    # Physical blocks shuffled over the pool: logical order != physical order.
    block_table = torch.randperm(POOL_BLOCKS, generator=gen).to(torch.int32)
    # Keys past each context length hold huge values: reading them (a missing mask) is visible.
    table = block_table.reshape(BATCH, MAX_BLOCKS)
    for b, n in enumerate(CONTEXT_LENS):
        for i in range(MAX_BLOCKS):
            start = max(0, n - i * BLOCK_SIZE)
            if start < BLOCK_SIZE:
                rows = slice(int(table[b, i]) * BLOCK_SIZE + start, (int(table[b, i]) + 1) * BLOCK_SIZE)
                key_cache[rows] = 30.0
                value_cache[rows] = 100.0
    context_lens = torch.tensor(CONTEXT_LENS, dtype=torch.int32)
    out = torch.zeros(BATCH * NUM_HEADS, HEAD_DIM, dtype=torch.bfloat16)
    return [
        ("query", query),
        ("key_cache", key_cache),
        ("value_cache", value_cache),
        ("block_table", block_table),
        ("context_lens", context_lens),
        ("out", out),
    ]


def reference(query, key_cache, value_cache, block_table, context_lens):
    table = block_table.reshape(BATCH, MAX_BLOCKS).long()
    k_pool = key_cache.float().reshape(POOL_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    v_pool = value_cache.float().reshape(POOL_BLOCKS, BLOCK_SIZE, HEAD_DIM)
    out = torch.empty(BATCH * NUM_HEADS, HEAD_DIM)
    for b in range(BATCH):
        n = int(context_lens[b])
        k = k_pool[table[b]].reshape(-1, HEAD_DIM)[:n]
        v = v_pool[table[b]].reshape(-1, HEAD_DIM)[:n]
        q = query[b * NUM_HEADS:(b + 1) * NUM_HEADS].float()
        probs = torch.softmax(q @ k.T / math.sqrt(HEAD_DIM), dim=-1)
        out[b * NUM_HEADS:(b + 1) * NUM_HEADS] = probs @ v
    return out.to(torch.bfloat16)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(
        tensors["query"], tensors["key_cache"], tensors["value_cache"], tensors["block_table"], tensors["context_lens"]
    )
