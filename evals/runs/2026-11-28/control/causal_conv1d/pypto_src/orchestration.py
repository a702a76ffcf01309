# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Depthwise causal conv1d over time (Mamba pre-scan convolution), width 4.

    out[t, c] = bias[c] + sum_k weight_t[k, c] * x[t - 3 + k, c],  x[t < 0] = 0

One fused vector kernel: each SPMD block owns a [T_TILE, C_TILE] output tile
and accumulates the four taps from four row-shifted loads of x. The first token
block starts its tile at row WIDTH - 1 (a shorter valid region) and computes
the three head rows, which see fewer taps, by a plain store of the last tap
followed by atomic-add stores of the earlier taps at row offsets 1 and 2.
"""
import pypto.language as pl

TOKENS = 256
CHANNELS = 512
WIDTH = 4
T_TILE = 8              # tokens per block
C_TILE = 512            # channels per block (full rows: contiguous loads)


@pl.jit
def causal_conv1d(
    x: pl.Tensor[[TOKENS, CHANNELS], pl.FP32],
    weight_t: pl.Tensor[[WIDTH, CHANNELS], pl.FP32],
    bias: pl.Tensor[[1, CHANNELS], pl.FP32],
    out: pl.Out[pl.Tensor[[TOKENS, CHANNELS], pl.FP32]],
):
    for blk in pl.spmd((TOKENS // T_TILE) * (CHANNELS // C_TILE), name_hint="causal_conv1d"):
        c0 = (blk % (CHANNELS // C_TILE)) * C_TILE
        t0 = (blk // (CHANNELS // C_TILE)) * T_TILE
        r0 = pl.max(t0, WIDTH - 1)
        rows = T_TILE + t0 - r0
        xs0 = pl.slice(x, [T_TILE, C_TILE], [r0 - 3, c0], valid_shape=[rows, C_TILE])
        w0 = weight_t[0:1, c0 : c0 + C_TILE]
        xs1 = pl.slice(x, [T_TILE, C_TILE], [r0 - 2, c0], valid_shape=[rows, C_TILE])
        w1 = weight_t[1:2, c0 : c0 + C_TILE]
        xs2 = pl.slice(x, [T_TILE, C_TILE], [r0 - 1, c0], valid_shape=[rows, C_TILE])
        w2 = weight_t[2:3, c0 : c0 + C_TILE]
        xs3 = pl.slice(x, [T_TILE, C_TILE], [r0, c0], valid_shape=[rows, C_TILE])
        w3 = weight_t[3:4, c0 : c0 + C_TILE]
        b = bias[:, c0 : c0 + C_TILE]
        acc = pl.col_expand_mul(xs0, w0)
        acc = pl.add(acc, pl.col_expand_mul(xs1, w1))
        acc = pl.add(acc, pl.col_expand_mul(xs2, w2))
        acc = pl.add(acc, pl.col_expand_mul(xs3, w3))
        acc = pl.col_expand_add(acc, b)
        out[r0 : r0 + T_TILE, c0 : c0 + C_TILE] = acc
        if t0 == 0:
            x2 = x[0 : WIDTH - 1, c0 : c0 + C_TILE]
            x1 = x[0 : WIDTH - 2, c0 : c0 + C_TILE]
            x0 = x[0:1, c0 : c0 + C_TILE]
            h = pl.col_expand_add(pl.col_expand_mul(x2, w3), b)
            out[0 : WIDTH - 1, c0 : c0 + C_TILE] = h
            out = pl.assemble(out, pl.col_expand_mul(x1, w2), [1, c0], atomic=pl.AtomicType.Add)
            out = pl.assemble(out, pl.mul(x0, w1), [2, c0], atomic=pl.AtomicType.Add)
    return out
