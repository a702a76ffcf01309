# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Linear + bias + GELU (tanh approximation), fused in one mixed cube + vector kernel.

    h   = x @ weight^T + bias
    out = 0.5 * h * (1 + tanh(c * (h + 0.044715 * h^3)))   c = sqrt(2 / pi)
        = h / (1 + exp(-2c * h * (1 + 0.044715 * h^2)))

Each N tile reduces K on the cube with FP32 accumulation, then the vector unit adds
the bias and applies GELU while the accumulator is still on chip.
"""
import math

import pypto.language as pl

TOKENS = 128
IN_FEATURES = 512
OUT_FEATURES = 1024
K_TILE = 128
N_TILE = 64

GELU_C = math.sqrt(2.0 / math.pi)
NEG_2C = -2.0 * GELU_C
NEG_2C_A = -2.0 * GELU_C * 0.044715


@pl.jit
def linear_gelu(
    x: pl.Tensor[[TOKENS, IN_FEATURES], pl.BF16],
    weight: pl.Tensor[[OUT_FEATURES, IN_FEATURES], pl.BF16],
    bias: pl.Tensor[[1, OUT_FEATURES], pl.FP32],
    out: pl.Out[pl.Tensor[[TOKENS, OUT_FEATURES], pl.FP32]],
):
    for nb in pl.spmd(OUT_FEATURES // N_TILE, name_hint="linear_gelu_tile",
                      optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        n0 = nb * N_TILE
        acc = pl.create_tensor([TOKENS, N_TILE], dtype=pl.FP32)
        for kb in pl.pipeline(IN_FEATURES // K_TILE, stage=4):
            k0 = kb * K_TILE
            tile_x = x[:, k0 : k0 + K_TILE]
            tile_w = weight[n0 : n0 + N_TILE, k0 : k0 + K_TILE]
            if kb == 0:
                acc = pl.matmul(tile_x, tile_w, out_dtype=pl.FP32, b_trans=True)
            else:
                acc = pl.matmul_acc(acc, tile_x, tile_w, b_trans=True)
        h = pl.col_expand_add(acc, bias[:, n0 : n0 + N_TILE])
        poly = pl.add(pl.mul(pl.mul(h, h), NEG_2C_A), NEG_2C)
        den = pl.add(pl.exp(pl.mul(h, poly)), 1.0)
        out[:, n0 : n0 + N_TILE] = pl.div(h, den)
    return out
