"""Incore function of the port rmsnorm_residual: pypto-lib's rms_norm_residual block.

rms_norm_residual_rows (pypto-lib/rms_norm_residual/rms_norm_residual.py) runs on one AIV core
and handles ROW_TILE = 8 tokens of the full hidden width 4096, in HIDDEN_TILE = 1024 chunks:
  pass 1  h = x + residual (FP32); store bf16(h) as residual_out; accumulate sum(h^2) per row
  pass 2  recompute h from x and residual; y = h * 1 / sqrt(mean(h^2) + eps) * weight; store bf16(y)
Only the [1, 8] row statistic stays on chip between the passes. The block's docstring has the
reasoning; PORTING.md has the SRAM figures (estimate and compiler) and the rejected variants.
"""
import sys
from pathlib import Path

_BLOCK = Path(__file__).resolve().parents[3] / "pypto-lib" / "rms_norm_residual"
if str(_BLOCK) not in sys.path:
    sys.path.insert(0, str(_BLOCK))

from rms_norm_residual import rms_norm_residual_rows  # noqa: E402,F401
