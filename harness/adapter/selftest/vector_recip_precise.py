"""port-check doctor self-test: the vector unit's precise reciprocal, c = pl.recip(a, high_precision=True)
(the sigmoid of a SiLU: swiglu_mlp, its naive twin and pypto-lib's swiglu_gate_up). PyPTO lowers it with the
`recip_precision` attribute; ptoas 0.27 does not know it (`unknown attribute 'recip_precision' in dialect
'pto'`) unless backported, so the kernel never compiles there."""
import pypto.language as pl
import torch

ROWS, COLS = 64, 128
RTOL = 1e-6
ATOL = 1e-6


@pl.jit
def vector_recip_precise(
    a: pl.Tensor[[64, 128], pl.FP32],
    c: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    with pl.at(level=pl.Level.CORE_GROUP):
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        pl.store(pl.recip(ta, high_precision=True), [0, 0], c)
    return c


def build_tensor_specs():
    return [
        # 1 + exp(-g) as the sigmoid sees it: 1 .. 1e4, never near zero.
        {"name": "a", "shape": [ROWS, COLS], "dtype": torch.float32,
         "init_value": lambda: 1.0 + torch.rand(ROWS, COLS) * torch.pow(10.0, torch.rand(ROWS, COLS) * 4.0)},
        {"name": "c", "shape": [ROWS, COLS], "dtype": torch.float32, "is_output": True},
    ]


def golden_vector_recip_precise(tensors):
    tensors["c"][:] = 1.0 / tensors["a"]
