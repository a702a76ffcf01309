"""Golden for the port paged_decode_gqa: inputs, reference and tolerances.

The reference is the original itself (original/paged_attention_decode.py), called on the 2-D
tensors reshaped to its 4-D layout (no data moved), its output reshaped back to [128, 128].
Cache rows a sequence does not own past its length are poisoned with large values, so a missing
or late mask shows at once. Never imports pypto.
"""
import importlib.util
import os

import torch

ENTRY = "paged_attention_decode"
__outputs__ = ["out"]

# BF16 out (2 BF16 ULP relative); P is rounded to BF16 before PV: |err| <= 2^-9 * max|v| near 0.
RTOL = 1.6e-2
ATOL = 1e-2

NUM_SEQS, NUM_HEADS, NUM_KV_HEADS, HEAD_SIZE = 4, 32, 2, 128
BLOCK_SIZE, MAX_BLOCKS_PER_SEQ, NUM_BLOCKS = 32, 8, 40
SEQ_LENS = [256, 77, 64, 1]
SEED = 20260316

CONTRACT = {
    "kind": "attention",
    "masked": True,
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "ragged": {"category": "tail", "params": {"lens": [33, 255, 1, 129]}},
        "short": {"category": "edge", "params": {"lens": [1, 2, 31, 32]}},
        "large": {"category": "large", "params": {"scale": 8.0}},
        "huge": {"category": "large", "params": {"scale": 40.0, "lens": [200, 97, 256, 5]}},
        "past_context": {"category": "neg_inf", "params": {"poison": 1.0e4}},
    },
}

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "paged_decode_gqa_original", os.path.join(_here, "..", "original", "paged_attention_decode.py")
)
_orig = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_orig)


def build_tensor_specs(params=None):
    return [
        {"name": "query", "shape": [128, 128], "dtype": "bfloat16", "is_output": False},
        {"name": "key_cache", "shape": [1280, 256], "dtype": "bfloat16", "is_output": False},
        {"name": "value_cache", "shape": [1280, 256], "dtype": "bfloat16", "is_output": False},
        {"name": "block_tables", "shape": [4, 8], "dtype": "int32", "is_output": False},
        {"name": "seq_lens", "shape": [4], "dtype": "int32", "is_output": False},
        {"name": "out", "shape": [128, 128], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    lens = params.get("lens", SEQ_LENS)
    poison = params.get("poison", 300.0)
    query = (torch.randn(128, 128, generator=gen) * scale).to(torch.bfloat16)
    key_cache = (torch.randn(1280, 256, generator=gen) * 1.5 * scale).to(torch.bfloat16)
    value_cache = torch.randn(1280, 256, generator=gen).to(torch.bfloat16)
    block_tables = torch.randperm(NUM_BLOCKS, generator=gen)[: NUM_SEQS * MAX_BLOCKS_PER_SEQ]
    block_tables = block_tables.reshape(NUM_SEQS, MAX_BLOCKS_PER_SEQ).to(torch.int32)
    # Slots past each sequence's length (in its own blocks) hold large finite values.
    for i, n in enumerate(lens):
        for jb in range(MAX_BLOCKS_PER_SEQ):
            start = max(0, n - jb * BLOCK_SIZE)
            if start < BLOCK_SIZE:
                b = int(block_tables[i, jb])
                rows = slice(b * BLOCK_SIZE + start, (b + 1) * BLOCK_SIZE)
                key_cache[rows] = poison
                value_cache[rows] = -poison
    seq_lens = torch.tensor(lens, dtype=torch.int32)
    out = torch.zeros(128, 128, dtype=torch.bfloat16)
    return [
        ("query", query),
        ("key_cache", key_cache),
        ("value_cache", value_cache),
        ("block_tables", block_tables),
        ("seq_lens", seq_lens),
        ("out", out),
    ]


def reference(query, key_cache, value_cache, block_tables, seq_lens):
    res = _orig.paged_attention_decode(
        query.reshape(NUM_SEQS, NUM_HEADS, HEAD_SIZE),
        key_cache.reshape(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE),
        value_cache.reshape(NUM_BLOCKS, BLOCK_SIZE, NUM_KV_HEADS, HEAD_SIZE),
        block_tables,
        seq_lens,
    )
    return res.reshape(128, 128)


def compute_golden(tensors, params=None):
    tensors["out"][:] = reference(
        tensors["query"], tensors["key_cache"], tensors["value_cache"], tensors["block_tables"], tensors["seq_lens"]
    )
