"""port-check doctor self-test: a [64, 1] column carried across loop iterations (the running max of an
online softmax): c = x[0:64] - rowmax over four 64-row blocks of x. ptoas 0.27 on a5 copies a carried
column through a [1, 64] view whose valid shape is not transposed, so only its first element survives:
43 of 64 rows wrong on a5sim, all right on a2a3sim (flash_attention_prefill PORTING.md, attempt 8)."""
import pypto.language as pl
import torch

ROWS, COLS, BLOCKS = 64, 64, 4
RTOL = 1e-6
ATOL = 1e-6


@pl.jit
def vector_carried_column(
    x: pl.Tensor[[256, 64], pl.FP32],
    c: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pl.row_max(x[0:ROWS, 0:COLS])
        for i in pl.range(1, BLOCKS):
            r0 = i * ROWS
            m = pl.maximum(m, pl.row_max(x[r0 : r0 + ROWS, 0:COLS]))
        c = pl.assemble(c, pl.row_expand_sub(x[0:ROWS, 0:COLS], m), [0, 0])
    return c


def build_tensor_specs():
    return [
        {"name": "x", "shape": [BLOCKS * ROWS, COLS], "dtype": torch.float32},
        {"name": "c", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_carried_column(tensors):
    x = tensors["x"]
    m = x.reshape(BLOCKS, ROWS, COLS).amax(dim=2).amax(dim=0)
    tensors["c"][:] = x[0:ROWS] - m[:, None]
