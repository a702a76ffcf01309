"""port-check doctor self-test: masks and padding on the vector unit in FP32, as attention and quantisers
use them: tile.set_validshape, tile.fillpad with the min and zero pads under row reductions, and a
tile.tri causal mask, on one AIV core."""
import pypto.language as pl
import torch

ROWS, COLS, VALID = 16, 128, 100
RTOL = 1e-5
ATOL = 1e-5


@pl.jit
def vector_pad_fp32(
    a: pl.Tensor[[16, 128], pl.FP32],
    mx: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    sm: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
    causal: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [ROWS, COLS])
        scratch = pl.create_tile([ROWS, COLS], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        low = pl.tile.fillpad(pl.tile.set_validshape(t, ROWS, VALID), pad_value=pl.PadValue.min)
        pl.store(pl.row_max(low, scratch), [0, 0], mx)
        zero = pl.tile.fillpad(pl.tile.set_validshape(t, ROWS, VALID), pad_value=pl.PadValue.zero)
        pl.store(pl.row_sum(zero, scratch), [0, 0], sm)
        keep = pl.tile.tri(0, [ROWS, COLS], dtype=pl.FP32)
        pl.store(pl.mul(t, keep), [0, 0], causal)
    return mx, sm, causal


def build_tensor_specs():
    return [
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.float32},
        {"name": "mx", "shape": [ROWS, 1], "dtype": torch.float32, "is_output": True},
        {"name": "sm", "shape": [ROWS, 1], "dtype": torch.float32, "is_output": True},
        {"name": "causal", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_pad_fp32(tensors):
    a = tensors["a"]
    tensors["mx"][:] = a[:, :VALID].amax(dim=-1, keepdim=True)
    tensors["sm"][:] = a[:, :VALID].sum(dim=-1, keepdim=True)
    tensors["causal"][:] = a * torch.ones(ROWS, COLS).tril()
