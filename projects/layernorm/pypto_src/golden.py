"""Golden for the port layernorm: inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (pl.Out on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  build_tensor_specs()  every argument of the entry in order (pypto-lib TensorSpec fields)
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is original/layernorm.py (two-pass mean / biased variance), evaluated in FP64 from
the FP32 inputs and rounded to FP32 once, so the tolerance measures the kernel's error alone.
"""
import torch

ENTRY = "layernorm"
__outputs__ = ["y"]

# FP32 out, two reductions of length 768 per row. An FP32 evaluation of the kernel's formula that
# sums each row strictly left to right (the worst order: error ~ K * 6e-8) against this FP64
# reference, on these inputs, peaks at 1.7e-5 absolute and uses 24 % of the allowance
# ATOL + RTOL * |y| below (torch's FP32 sums: 5.7e-6, 4 %); the kernel's tree reductions sit in
# between. ATOL 1e-5 covers outputs near zero (|y| < 0.1), where the error is the absolute error
# of the centring, not a relative one. A kernel that drops beta
# (0.1 scale), the eps, or the centring fails by orders of magnitude more.
RTOL = 1e-4
ATOL = 1e-5

ROWS = 1024
HIDDEN = 768
EPS = 1e-5
SEED = 20260303

# The correctness contract (docs/contract.md): every case under every seed; "scale" multiplies x.
CONTRACT = {
    "kind": "norm",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 1000.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [ROWS, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "gamma", "shape": [1, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "beta", "shape": [1, HIDDEN], "dtype": "float32", "is_output": False},
        {"name": "y", "shape": [ROWS, HIDDEN], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(ROWS, HIDDEN, generator=gen)
    # Rows with their own scale (0.1 .. 10) and a mean offset (-8 .. 8): an offset large against
    # the spread is what breaks a one-pass E[x^2] - E[x]^2 variance.
    row_scale = torch.pow(10.0, torch.rand(ROWS, 1, generator=gen) * 2.0 - 1.0)
    row_offset = torch.rand(ROWS, 1, generator=gen) * 16.0 - 8.0
    x = (x * row_scale + row_offset) * scale
    x[:, 3] *= 20.0          # an outlier channel
    x[9, :] = 0.0            # a constant row: variance 0, the output is beta alone
    gamma = torch.rand(1, HIDDEN, generator=gen) + 0.5
    beta = torch.randn(1, HIDDEN, generator=gen) * 0.1
    return [
        ("x", x),
        ("gamma", gamma),
        ("beta", beta),
        ("y", torch.zeros(ROWS, HIDDEN, dtype=torch.float32)),
    ]


def compute_golden(tensors, params=None):
    x = tensors["x"].double()
    mean = x.mean(dim=-1, keepdim=True)
    centered = x - mean
    var = centered.pow(2).mean(dim=-1, keepdim=True)
    y = centered / torch.sqrt(var + EPS) * tensors["gamma"].double() + tensors["beta"].double()
    tensors["y"][:] = y.float()
