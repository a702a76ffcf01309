"""Golden for the naive port of rmsnorm_residual (the same as
projects/rmsnorm_residual/pypto_src/golden.py): inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  build_tensor_specs()  every argument of the entry in order (pypto-lib TensorSpec fields)
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is original/rmsnorm_residual.py: h = x + residual in FP32, residual_out = bf16(h),
y = bf16(h * rsqrt(mean(h^2) + eps) * weight). Plain torch, never imports pypto.
"""
import torch

ENTRY = "rmsnorm_residual"
__outputs__ = ["y", "residual_out"]

# Both outputs are BF16 (unit roundoff 2^-8 = 3.9e-3). y: the kernel and the reference compute
# in FP32 from the same BF16 inputs; the 4096-long sum of squares in a different order and
# 1 / sqrt() against torch.rsqrt differ by a few FP32 ULP, far below one BF16 ULP, so the only
# visible difference is a final rounding that flips at a tie: at most 1 BF16 ULP = 7.8e-3
# relative. RTOL 1.6e-2 is two BF16 ULP (pypto's own BF16 tolerance). ATOL 1e-3 only matters for
# |y| < 0.06, where two BF16 ULP are smaller than the FP32 noise of the normalisation.
# residual_out is x + residual rounded once (exact in FP32): bit-exact unless the rounding modes
# differ at a tie, which 1 BF16 ULP covers.
RTOL = 1.6e-2
ATOL = 1e-3

TOKENS = 512
HIDDEN = 4096
EPS = 1e-6
SEED = 20260302

# The correctness contract (docs/contract.md): every case under every seed; "scale" multiplies x and
# the residual.
CONTRACT = {
    "kind": "norm",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 100.0}},
        "small": {"category": "small", "params": {"scale": 0.01}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "residual", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "weight", "shape": [1, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "y", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": True},
        {"name": "residual_out", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, HIDDEN, generator=gen)
    # The residual stream grows through a model: rows of very different scale (0.01 .. 100), so a
    # missing or wrongly-placed normalisation shows up as a scale error, not as noise.
    row_scale = torch.pow(10.0, torch.rand(TOKENS, 1, generator=gen) * 4.0 - 2.0)
    residual = torch.randn(TOKENS, HIDDEN, generator=gen) * row_scale
    # One outlier channel, as real activations have.
    residual[:, 7] *= 30.0
    # A constant row: its RMS is |c|, its normalised value is sign(c) * weight.
    x[5, :] = 0.25
    residual[5, :] = 0.5
    x, residual = x * scale, residual * scale
    weight = torch.rand(1, HIDDEN, generator=gen) + 0.5
    return [
        ("x", x.to(torch.bfloat16)),
        ("residual", residual.to(torch.bfloat16)),
        ("weight", weight.to(torch.bfloat16)),
        ("y", torch.zeros(TOKENS, HIDDEN, dtype=torch.bfloat16)),
        ("residual_out", torch.zeros(TOKENS, HIDDEN, dtype=torch.bfloat16)),
    ]


def compute_golden(tensors, params=None):
    h = tensors["x"].float() + tensors["residual"].float()
    inv_rms = torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + EPS)
    tensors["y"][:] = (h * inv_rms * tensors["weight"].float()).to(torch.bfloat16)
    tensors["residual_out"][:] = h.to(torch.bfloat16)
