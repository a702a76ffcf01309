"""Orchestration of the naive form of kv_cache_scatter: per token, its slot is read here and, unless
it is -1 (padding), one dispatch copies its key row and one its value row into the caches."""
import pypto.language as pl
from incore import NUM_TOKENS, copy_key_k, copy_value_k


@pl.jit
def kv_cache_scatter(
    key: pl.Tensor[[64, 512], pl.BF16],
    value: pl.Tensor[[64, 512], pl.BF16],
    key_cache: pl.InOut[pl.Tensor[[512, 512], pl.BF16]],
    value_cache: pl.InOut[pl.Tensor[[512, 512], pl.BF16]],
    slot_mapping: pl.Tensor[[64], pl.INT32],
):
    for tok in pl.range(NUM_TOKENS):
        slot_id = pl.tensor.read(slot_mapping, [tok])
        if slot_id >= 0:
            slot = pl.cast(slot_id, pl.INDEX)
            key_cache = copy_key_k(key, key_cache, tok, slot)
            value_cache = copy_value_k(value, value_cache, tok, slot)
    return key_cache, value_cache
