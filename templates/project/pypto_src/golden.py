"""Golden for the port {{name}}: inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out/pl.InOut on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  CONTRACT              the correctness contract: every case (seeds, value ranges, special values,
                        shapes) `port-check verify` runs (docs/contract.md)
  TOLERANCES            optional: {"output": (rtol, atol)} for outputs one pair cannot serve
  build_tensor_specs()  every argument of the entry in order, with the fields of pypto-lib's
                        TensorSpec: name, shape, dtype (torch dtype name), is_output
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is plain torch, computed in FP32 from the same inputs, and never imports pypto.
Replace the scale-add below with the original program's computation (see original/).
"""
import torch

ENTRY = "scale_add"
__outputs__ = ["out"]

# FP32 in, FP32 out, one multiply-add per element: a few ULP of FP32 is the honest bound.
RTOL = 1e-5
ATOL = 1e-5

ROWS = 512
COLS = 256
SCALE = 2.0
SEED = 20260301

# Every case runs under every seed; generate_inputs(params) draws its data from params["seed"] and
# scales it by params["scale"]. Change the kind to what the port computes (docs/contract.md §3).
CONTRACT = {
    "kind": "elementwise",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1.0e4}},
        "small": {"category": "small", "params": {"scale": 1.0e-4}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [ROWS, COLS], "dtype": "float32", "is_output": False},
        {"name": "y", "shape": [ROWS, COLS], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [ROWS, COLS], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(ROWS, COLS, generator=gen, dtype=torch.float32) * scale
    y = torch.randn(ROWS, COLS, generator=gen, dtype=torch.float32) * scale
    out = torch.zeros(ROWS, COLS, dtype=torch.float32)
    return [("x", x), ("y", y), ("out", out)]


def compute_golden(tensors, params=None):
    x = tensors["x"].float()
    y = tensors["y"].float()
    tensors["out"][:] = x * SCALE + y
