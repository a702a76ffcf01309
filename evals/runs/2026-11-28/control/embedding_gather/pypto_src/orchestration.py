# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Token embedding lookup scaled by sqrt(hidden): out[t, :] = table[ids[t], :] * sqrt(HIDDEN).

One fused SPMD vector kernel: each block owns T_TILE consecutive tokens, loads their ids into UB,
reads them as scalars, DMA-loads the table rows (all in flight at once), scales them on the vector
unit and stores them to out.
"""
import math

import pypto.language as pl

TOKENS = 256
VOCAB = 4096
HIDDEN = 512
EMBED_SCALE = math.sqrt(HIDDEN)
ID_PAIR_RADIX = 1 << 32
T_TILE = 16
ROWS_IN_FLIGHT = 16


@pl.jit
def embed(
    ids: pl.Tensor[[TOKENS], pl.INT32],
    table: pl.Tensor[[VOCAB, HIDDEN], pl.FP32],
    out: pl.Out[pl.Tensor[[TOKENS, HIDDEN], pl.FP32]],
):
    ids_row = pl.reshape(ids, [1, TOKENS])
    for blk in pl.spmd(TOKENS // T_TILE, name_hint="embed_gather"):
        t0 = blk * T_TILE
        # ptoas emits no C++ for an i32 scalar read: view the ids as i64 pairs (low word = even token)
        id_pairs = pl.tile.reinterpret_view(pl.load(ids_row, [0, t0], [1, T_TILE]), pl.INT64)
        for dp in pl.pipeline(T_TILE // 2, stage=ROWS_IN_FLIGHT // 2):
            pair = pl.tile.read(id_pairs, [0, dp])
            id_hi = pair // ID_PAIR_RADIX
            id_lo = pair - id_hi * ID_PAIR_RADIX
            r0 = pl.cast(id_lo, pl.INDEX)
            r1 = pl.cast(id_hi, pl.INDEX)
            t = t0 + dp * 2
            out[t : t + 1, 0:HIDDEN] = pl.mul(table[r0 : r0 + 1, 0:HIDDEN], EMBED_SCALE)
            out[t + 1 : t + 2, 0:HIDDEN] = pl.mul(table[r1 : r1 + 1, 0:HIDDEN], EMBED_SCALE)
    return out
