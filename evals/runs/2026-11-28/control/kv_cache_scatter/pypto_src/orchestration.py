"""kv_cache_scatter: vLLM reshape_and_cache (flash layout) on PyPTO.

Token i's key / value row is copied to row slot_mapping[i] of the flattened
caches ([NUM_BLOCKS * BLOCK_SIZE, NUM_KV_HEADS * HEAD_SIZE]); slot -1 is a
padding token and writes nothing.

One SPMD kernel of 16 blocks. Each block owns 4 consecutive tokens: it loads
their 8 key / value rows up front into separate buffers (so the DMAs overlap),
then stores each valid row to its cache slot. Slots are read two at a time
as one INT64 word (ptoas cannot emit an INT32 scalar load from GM).
"""
import pypto.language as pl

NUM_TOKENS = 64
NUM_KV_HEADS = 4
HEAD_SIZE = 128
HIDDEN = NUM_KV_HEADS * HEAD_SIZE
NUM_BLOCKS = 32
BLOCK_SIZE = 16
NUM_SLOTS = NUM_BLOCKS * BLOCK_SIZE

NUM_PAIRS = NUM_TOKENS // 2
SPMD_BLOCKS = 16
TOK_PER_BLOCK = NUM_TOKENS // SPMD_BLOCKS  # the body below is written for 4
PAIRS_PER_BLOCK = TOK_PER_BLOCK // 2
TWO_POW_32 = 4294967296


@pl.jit
def kv_cache_scatter(
    key: pl.Tensor[[NUM_TOKENS, HIDDEN], pl.BF16],
    value: pl.Tensor[[NUM_TOKENS, HIDDEN], pl.BF16],
    key_cache: pl.InOut[pl.Tensor[[NUM_SLOTS, HIDDEN], pl.BF16]],
    value_cache: pl.InOut[pl.Tensor[[NUM_SLOTS, HIDDEN], pl.BF16]],
    slot_mapping: pl.Tensor[[NUM_TOKENS], pl.INT32],
):
    for blk in pl.spmd(SPMD_BLOCKS, name_hint="kv_scatter"):
        tb = blk * TOK_PER_BLOCK
        # Issue all eight row loads first, each into its own buffer, so the
        # DMAs overlap each other and the slot read below.
        k0 = key[tb : tb + 1, :]
        v0 = value[tb : tb + 1, :]
        k1 = key[tb + 1 : tb + 2, :]
        v1 = value[tb + 1 : tb + 2, :]
        k2 = key[tb + 2 : tb + 3, :]
        v2 = value[tb + 2 : tb + 3, :]
        k3 = key[tb + 3 : tb + 4, :]
        v3 = value[tb + 3 : tb + 4, :]
        # Little-endian: the low half of word p is token 2p, the high half token 2p+1.
        slot_pairs = pl.tensor.reinterpret_view(slot_mapping, pl.INT64, shape=[NUM_PAIRS])
        pb = blk * PAIRS_PER_BLOCK
        w01 = pl.read(slot_pairs, [pb])
        w23 = pl.read(slot_pairs, [pb + 1])
        # word = hi * 2^32 + lo_u with hi >= -1, so word + 2^32 >= 0 and the
        # division is an exact floor. Each compare below only sees values in
        # [-1, NUM_SLOTS) or the pad pattern 0xFFFFFFFF and is right whether
        # codegen compares in INT64 or truncates to INT32 (it does the latter
        # for some scalar compares).
        b01 = w01 + TWO_POW_32
        h01 = b01 // TWO_POW_32
        s0 = b01 - h01 * TWO_POW_32
        s1 = h01 - 1
        b23 = w23 + TWO_POW_32
        h23 = b23 // TWO_POW_32
        s2 = b23 - h23 * TWO_POW_32
        s3 = h23 - 1
        if s0 >= 0:
            if s0 < NUM_SLOTS:
                r0 = pl.cast(s0, pl.INDEX)
                key_cache[r0 : r0 + 1, :] = k0
                value_cache[r0 : r0 + 1, :] = v0
        if s1 >= 0:
            r1 = pl.cast(s1, pl.INDEX)
            key_cache[r1 : r1 + 1, :] = k1
            value_cache[r1 : r1 + 1, :] = v1
        if s2 >= 0:
            if s2 < NUM_SLOTS:
                r2 = pl.cast(s2, pl.INDEX)
                key_cache[r2 : r2 + 1, :] = k2
                value_cache[r2 : r2 + 1, :] = v2
        if s3 >= 0:
            r3 = pl.cast(s3, pl.INDEX)
            key_cache[r3 : r3 + 1, :] = k3
            value_cache[r3 : r3 + 1, :] = v3
    return key_cache, value_cache
