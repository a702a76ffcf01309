"""Golden for the naive port of row_softmax (the same as projects/row_softmax/pypto_src/golden.py):
inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out/pl.InOut on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  build_tensor_specs()  every argument of the entry in order, with the fields of pypto-lib's
                        TensorSpec: name, shape, dtype (torch dtype name), is_output
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is plain torch, computed in FP32 from the same inputs, and never imports pypto.
The reference is projects/row_softmax/original/row_softmax.py: torch.softmax over the last dimension.
"""
import torch

ENTRY = "row_softmax"
__outputs__ = ["out"]

# FP32 throughout; exp and the division add a few ULP per element over torch's fused softmax.
RTOL = 1e-5
ATOL = 1e-6

ROWS = 1024
COLS = 256
SEED = 20260301

# The correctness contract (docs/contract.md): every case under every seed. "scale" multiplies the
# logits, "offset" shifts them all (softmax is shift-invariant: only the max subtraction keeps exp finite).
CONTRACT = {
    "kind": "softmax",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 100.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "offset": {"category": "asymmetric", "params": {"offset": 60.0}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [ROWS, COLS], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [ROWS, COLS], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    # Scaled so some rows have large logits: the max subtraction must matter.
    x = torch.randn(ROWS, COLS, generator=gen, dtype=torch.float32) * 8.0 * scale + params.get("offset", 0.0)
    out = torch.zeros(ROWS, COLS, dtype=torch.float32)
    return [("x", x), ("out", out)]


def compute_golden(tensors, params=None):
    tensors["out"][:] = torch.softmax(tensors["x"].float(), dim=-1)
