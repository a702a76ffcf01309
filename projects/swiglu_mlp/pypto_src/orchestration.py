"""Orchestration of the port swiglu_mlp: the @pl.jit entry the golden runs.

Two stages through one GM intermediate, h [128, 2816] BF16: 2816 / 64 = 44 gate_up_swiglu tasks
(mixed: one AIC and two AIVs each), then 16 matmul_bt tasks (AIC). Every task writes
its own slice of h or y, so the runtime derives only the true edges: each matmul_bt task waits
for the 44 gate_up_swiglu tasks (it reads all of h), nothing else.
"""
import pypto.language as pl
from incore import gate_up_swiglu, matmul_bt

TOKENS = 128
INTER = 2816


@pl.jit
def swiglu_mlp(
    x: pl.Tensor[[128, 1024], pl.BF16],
    w_gate: pl.Tensor[[2816, 1024], pl.BF16],
    w_up: pl.Tensor[[2816, 1024], pl.BF16],
    w_down: pl.Tensor[[1024, 2816], pl.BF16],
    y: pl.Out[pl.Tensor[[128, 1024], pl.FP32]],
):
    h = pl.create_tensor([TOKENS, INTER], dtype=pl.BF16)
    h = gate_up_swiglu(x, w_gate, w_up, h)
    y = matmul_bt(h, w_down, y)
    return y
