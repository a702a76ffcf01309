"""port-check doctor self-test: INT8 on the vector unit, both ways.

q = int8(rint(x)) through FP32 -> INT32 (rint) -> FP16 -> INT8 (the vector unit has no direct
FP32 -> INT8 cast), and y = float(w) * 0.5 from an INT8 input. x is drawn so |x| < 127.
"""
import pypto.language as pl
import torch

ROWS, COLS = 64, 128
# Integer results are exact; 0.5 * an INT8 value is exact in FP32.
RTOL = 0.0
ATOL = 0.0


@pl.jit
def vector_int8(
    x: pl.Tensor[[64, 128], pl.FP32],
    w: pl.Tensor[[64, 128], pl.INT8],
    q: pl.Out[pl.Tensor[[64, 128], pl.INT8]],
    y: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [ROWS, COLS])
        q_i32 = pl.cast(tx, target_type=pl.INT32, mode="rint")
        q_f16 = pl.cast(q_i32, target_type=pl.FP16, mode="round")
        pl.store(pl.cast(q_f16, target_type=pl.INT8, mode="trunc"), [0, 0], q)
        tw = pl.cast(pl.cast(pl.load(w, [0, 0], [ROWS, COLS]), target_type=pl.FP16), target_type=pl.FP32)
        pl.store(pl.mul(tw, 0.5), [0, 0], y)
    return q, y


def _x():
    gen = torch.Generator().manual_seed(1)
    return (torch.rand(ROWS, COLS, generator=gen) * 250.0 - 125.0).float()


def _w():
    gen = torch.Generator().manual_seed(2)
    return torch.randint(-128, 128, (ROWS, COLS), generator=gen, dtype=torch.int8)


def build_tensor_specs():
    return [
        {"name": "x", "shape": [ROWS, COLS], "dtype": torch.float32, "init_value": _x},
        {"name": "w", "shape": [ROWS, COLS], "dtype": torch.int8, "init_value": _w},
        {"name": "q", "shape": [ROWS, COLS], "dtype": torch.int8, "is_output": True},
        {"name": "y", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_int8(tensors):
    tensors["q"][:] = torch.round(tensors["x"]).to(torch.int8)
    tensors["y"][:] = tensors["w"].float() * 0.5
