"""Incore stages of the port swiglu_mlp: two pypto-lib blocks.

gate_up_swiglu  pypto-lib/swiglu_gate_up: one mixed cube + vector task per 64 columns of
                h = bf16(silu(x @ w_gate^T) * (x @ w_up^T)), all 128 tokens at once; both
                projections share each x chunk, the SiLU x up epilogue runs on the two FP32
                accumulators on the vector cores, split over both AIVs with pl.split(UP_DOWN)
matmul_bt       pypto-lib/matmul_bt: one cube task per 64 columns of y = h @ w_down^T, FP32 out
Both are @pl.jit.inline stages whose pl.at scopes the compiler outlines into InCore kernels. The
blocks' docstrings have the reasoning; PORTING.md has the SRAM figures and the rejected variants.
"""
import sys
from pathlib import Path

_PYPTO_LIB = Path(__file__).resolve().parents[3] / "pypto-lib"
for _block in ("swiglu_gate_up", "matmul_bt"):
    if str(_PYPTO_LIB / _block) not in sys.path:
        sys.path.insert(0, str(_PYPTO_LIB / _block))

from matmul_bt import matmul_bt  # noqa: E402,F401
from swiglu_gate_up import gate_up_swiglu  # noqa: E402,F401
