"""Golden for the port kv_cache_scatter: vLLM reshape_and_cache (flash layout) on 2-D views.

key / value [64, 512] BF16 (64 tokens x 4 heads x 128), key_cache / value_cache [512, 512] BF16
(32 blocks x 16 slots, one row per slot), slot_mapping [64] INT32 (distinct slots in any order, -1
= padding). The caches arrive filled with random data; the reference copies them and writes row
slot_mapping[i] = key[i] / value[i] for every slot >= 0. A pure copy: the comparison is exact.
"""
import torch

ENTRY = "kv_cache_scatter"
__outputs__ = ["key_cache", "value_cache"]

# A copy, no arithmetic: bit-exact.
RTOL = 0.0
ATOL = 0.0

NUM_TOKENS = 64
ROW = 512  # NUM_KV_HEADS * HEAD_SIZE
NUM_SLOTS = 512  # NUM_BLOCKS * BLOCK_SIZE
SEED = 20260301

CONTRACT = {
    "kind": "other",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "all_pad": {"category": "edge", "params": {"n_pad": 64}},
        "no_pad": {"category": "edge", "params": {"n_pad": 0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "key", "shape": [NUM_TOKENS, ROW], "dtype": "bfloat16", "is_output": False},
        {"name": "value", "shape": [NUM_TOKENS, ROW], "dtype": "bfloat16", "is_output": False},
        {"name": "key_cache", "shape": [NUM_SLOTS, ROW], "dtype": "bfloat16", "is_output": True},
        {"name": "value_cache", "shape": [NUM_SLOTS, ROW], "dtype": "bfloat16", "is_output": True},
        {"name": "slot_mapping", "shape": [NUM_TOKENS], "dtype": "int32", "is_output": False},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    n_pad = params.get("n_pad", 13)
    key = (torch.randn(NUM_TOKENS, ROW, generator=gen) * scale).to(torch.bfloat16)
    value = (torch.randn(NUM_TOKENS, ROW, generator=gen) * scale).to(torch.bfloat16)
    key_cache = (torch.randn(NUM_SLOTS, ROW, generator=gen) * scale).to(torch.bfloat16)
    value_cache = (torch.randn(NUM_SLOTS, ROW, generator=gen) * scale).to(torch.bfloat16)
    slots = torch.randperm(NUM_SLOTS, generator=gen)[:NUM_TOKENS].to(torch.int32)
    pad = torch.randperm(NUM_TOKENS, generator=gen)[:n_pad]
    slots[pad] = -1
    return [
        ("key", key),
        ("value", value),
        ("key_cache", key_cache),
        ("value_cache", value_cache),
        ("slot_mapping", slots),
    ]


def compute_golden(tensors, params=None):
    slots = tensors["slot_mapping"]
    for i in range(NUM_TOKENS):
        s = int(slots[i])
        if s < 0:
            continue
        tensors["key_cache"][s] = tensors["key"][i]
        tensors["value_cache"][s] = tensors["value"][i]
