"""Orchestration of the port causal_conv1d: the @pl.jit entry the golden runs.

out[t] = bias + w3 * x[t] + w2 * x[t-1] + w1 * x[t-2] + w0 * x[t-3]   (wk = weight_t[k], a row;
x before token 0 is zero).

One dispatch: the kernel conv_block as the BLOCKS = 32 blocks of one pl.spmd launch (one runtime
submit for all of them; 32 <= the AIV cores of a2a3 (48) and a5 (36)); the loop body is the kernel.
Block b computes output rows r0 = 8b .. 8b + 7 over all 512 channels and stores only them (whole
2 KiB rows, so no two blocks share a cache line).

The kernel streams its rows, one [1, 512] tile per row, each x row loaded once. It carries three
partial sums instead of x rows: before step t, a1 / a2 / a3 hold bias plus every term of out[t],
out[t+1], out[t+2] from rows before t. Step t loads x[t] and
    out[t] = a1 + w3 x[t]    (stored)
    a1'    = a2 + w2 x[t],   a2' = a3 + w1 x[t],   a3' = bias + w0 x[t]
so each step is 4 products and 4 sums on whole rows: no column broadcasts, no tile views (ptoas
0.27 has no pto.subview), and every carried tile is a fresh result (a carry that rotates loaded
rows through the loop was miscompiled: the next load overwrote a carried row). The partial sums
at the block's start come from the three rows before it; block 0 starts from bias alone.
"""
import pypto.language as pl

TOKENS = 256
CHANNELS = 512
ROW_TILE = 8
BLOCKS = TOKENS // ROW_TILE


@pl.jit
def causal_conv1d(
    x: pl.Tensor[[256, 512], pl.FP32],
    weight_t: pl.Tensor[[4, 512], pl.FP32],
    bias: pl.Tensor[[1, 512], pl.FP32],
    out: pl.Out[pl.Tensor[[256, 512], pl.FP32]],
):
    for b in pl.spmd(BLOCKS, name_hint="conv_block"):
        r0 = b * ROW_TILE
        bt = pl.load(bias, [0, 0], [1, CHANNELS])
        w0 = pl.load(weight_t, [0, 0], [1, CHANNELS])
        w1 = pl.load(weight_t, [1, 0], [1, CHANNELS])
        w2 = pl.load(weight_t, [2, 0], [1, CHANNELS])
        w3 = pl.load(weight_t, [3, 0], [1, CHANNELS])
        # the three rows before the block (block 0 reads row 0 here and does not use it)
        g3 = pl.load(x, [pl.max(r0 - 3, 0), 0], [1, CHANNELS])
        g2 = pl.load(x, [pl.max(r0 - 2, 0), 0], [1, CHANNELS])
        g1 = pl.load(x, [pl.max(r0 - 1, 0), 0], [1, CHANNELS])
        if b == 0:
            # nothing before token 0: the partial sums are bias (three fresh copies: the loop
            # updates its carried tiles in place)
            c1, c2, c3 = pl.yield_(pl.add(bt, 0.0), pl.add(bt, 0.0), pl.add(bt, 0.0))
        else:
            e1 = pl.add(pl.add(pl.add(pl.mul(g1, w2), bt), pl.mul(g2, w1)), pl.mul(g3, w0))
            e2 = pl.add(pl.add(pl.mul(g1, w1), bt), pl.mul(g2, w0))
            e3 = pl.add(pl.mul(g1, w0), bt)
            c1, c2, c3 = pl.yield_(e1, e2, e3)
        for i, (a1, a2, a3) in pl.range(ROW_TILE, init_values=(c1, c2, c3)):
            t = r0 + i
            xt = pl.load(x, [t, 0], [1, CHANNELS])
            y = pl.add(a1, pl.mul(xt, w3))
            out = pl.store(y, [t, 0], out)
            n1 = pl.add(a2, pl.mul(xt, w2))
            n2 = pl.add(a3, pl.mul(xt, w1))
            n3 = pl.add(bt, pl.mul(xt, w0))
            n1, n2, n3 = pl.yield_(n1, n2, n3)
    return out
