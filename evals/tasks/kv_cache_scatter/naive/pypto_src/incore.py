"""Incore functions of the naive form of kv_cache_scatter: one kernel per operation of the original,
the key row and the value row of one token each copied by its own dispatch. The speed baseline the
scorer compares attempts with."""
import pypto.language as pl

NUM_TOKENS = 64
ROW = 512
SLOTS = 512


@pl.jit.incore
def copy_key_k(key: pl.Tensor[[64, 512], pl.BF16], key_cache: pl.InOut[pl.Tensor[[512, 512], pl.BF16]],
               tok: pl.Scalar[pl.INDEX], slot: pl.Scalar[pl.INDEX]):
    row = pl.load(key, [tok, 0], [1, ROW])
    pl.store(row, [slot, 0], key_cache)
    return key_cache


@pl.jit.incore
def copy_value_k(value: pl.Tensor[[64, 512], pl.BF16], value_cache: pl.InOut[pl.Tensor[[512, 512], pl.BF16]],
                 tok: pl.Scalar[pl.INDEX], slot: pl.Scalar[pl.INDEX]):
    row = pl.load(value, [tok, 0], [1, ROW])
    pl.store(row, [slot, 0], value_cache)
    return value_cache
