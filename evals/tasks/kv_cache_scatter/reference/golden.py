"""The task's reference for kv_cache_scatter (never the agent's): the caches with row slot_mapping[i]
replaced by token i's key / value, slots of -1 skipped, every other row unchanged."""
import torch

ENTRY = "kv_cache_scatter"
__outputs__ = ["key_cache", "value_cache"]

# A copy: every element exact, the rows not written included (the caches start random, not zero).
RTOL = 0.0
ATOL = 0.0

NUM_TOKENS, NUM_KV_HEADS, HEAD_SIZE = 64, 4, 128
NUM_BLOCKS, BLOCK_SIZE = 32, 16
ROW = NUM_KV_HEADS * HEAD_SIZE
SLOTS = NUM_BLOCKS * BLOCK_SIZE
SEED = 20261128

# Slots are distinct (as in vLLM: one step never writes a slot twice) and never in increasing order.
CONTRACT = {
    "kind": "other",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "sequences": {"category": "asymmetric", "params": {"slots": "sequences"}},
        "padded": {"category": "edge", "params": {"slots": "padded"}},
        "ends": {"category": "edge", "params": {"slots": "ends"}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "key", "shape": [NUM_TOKENS, ROW], "dtype": "bfloat16", "is_output": False},
        {"name": "value", "shape": [NUM_TOKENS, ROW], "dtype": "bfloat16", "is_output": False},
        {"name": "key_cache", "shape": [SLOTS, ROW], "dtype": "bfloat16", "is_output": True},
        {"name": "value_cache", "shape": [SLOTS, ROW], "dtype": "bfloat16", "is_output": True},
        {"name": "slot_mapping", "shape": [NUM_TOKENS], "dtype": "int32", "is_output": False},
    ]


def _slots(kind, gen):
    if kind == "sequences":
        # vLLM's pattern: 4 sequences of 16 new tokens each, at positions ctx .. ctx+15 of their own
        # shuffled blocks (consecutive within a block, a jump between blocks), sequences interleaved
        # token by token as a scheduler might order them.
        blocks = torch.randperm(NUM_BLOCKS, generator=gen)
        rows = []
        for s in range(4):
            table = blocks[s * 8:(s + 1) * 8]
            ctx = int(torch.randint(0, 8 * BLOCK_SIZE - 16, (1,), generator=gen))
            pos = torch.arange(ctx, ctx + 16)
            rows.append(table[pos // BLOCK_SIZE] * BLOCK_SIZE + pos % BLOCK_SIZE)
        return torch.stack(rows, dim=1).reshape(-1)
    slots = torch.randperm(SLOTS, generator=gen)[:NUM_TOKENS]
    if kind == "padded":  # a quarter of the tokens are padding (-1), the rest random
        slots[torch.randperm(NUM_TOKENS, generator=gen)[:NUM_TOKENS // 4]] = -1
    elif kind == "ends":  # the first and the last row of the cache, written by the last and the first token
        slots = slots[(slots != 0) & (slots != SLOTS - 1)][:NUM_TOKENS - 2]
        slots = torch.cat([torch.tensor([SLOTS - 1]), slots, torch.tensor([0])])
    return slots


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    key = torch.randn(NUM_TOKENS, ROW, generator=gen).bfloat16()
    value = torch.randn(NUM_TOKENS, ROW, generator=gen).bfloat16()
    key_cache = torch.randn(SLOTS, ROW, generator=gen).bfloat16()
    value_cache = torch.randn(SLOTS, ROW, generator=gen).bfloat16()
    slots = _slots(params.get("slots"), gen).to(torch.int32)
    return [("key", key), ("value", value), ("key_cache", key_cache), ("value_cache", value_cache),
            ("slot_mapping", slots)]


def compute_golden(tensors, params=None):
    slots = tensors["slot_mapping"].long()
    valid = slots >= 0
    tensors["key_cache"][slots[valid]] = tensors["key"][valid]
    tensors["value_cache"][slots[valid]] = tensors["value"][valid]
