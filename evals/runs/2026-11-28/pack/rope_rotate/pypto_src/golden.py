"""Golden for the port rope_rotate: rotary position embedding (rotate_half), FP32.

The reference is original/rope.py: out = q * cos + rotate_half(q) * sin per head, q viewed as
[256, 8, 128], cos and sin [256, 128] shared by the 8 heads. Plain torch, never imports pypto.
"""
import torch

ENTRY = "rope"
__outputs__ = ["out"]

# FP32 in and out; per element two products and one add (q1*c - q2*s, q2*c + q1*s). The kernel
# computes the same products in the same order (negating a product is exact), so it should be
# bit-exact; RTOL 1e-6 leaves room for an FMA contraction only. ATOL is tied to the case's scale
# (q_scale * cs_scale) so the small case is not passed by a near-zero output.
RTOL = 1e-6
ATOL = 1e-30

TOKENS, HEADS, HEAD_DIM = 256, 8, 128
SEED = 20260301

CONTRACT = {
    "kind": "elementwise",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"q_scale": 1.0e4, "cs_scale": 1.0e3}},
        "small": {"category": "small", "params": {"q_scale": 1.0e-4, "cs_scale": 1.0e-3}},
        "random_cs": {"category": "asymmetric", "params": {"random_cs": True, "offset": 3.0}},
        "q_inf": {"category": "inf", "params": {"random_cs": True, "q_inf": True}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "q", "shape": [TOKENS, HEADS * HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "cos", "shape": [TOKENS, HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "sin", "shape": [TOKENS, HEAD_DIM], "dtype": "float32", "is_output": False},
        {"name": "out", "shape": [TOKENS, HEADS * HEAD_DIM], "dtype": "float32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    q_scale = params.get("q_scale", 1.0)
    cs_scale = params.get("cs_scale", 1.0)
    q = torch.randn(TOKENS, HEADS * HEAD_DIM, generator=gen, dtype=torch.float32) * q_scale
    q = q + params.get("offset", 0.0) * q_scale
    if params.get("q_inf", False):
        # sparse +-inf in q (never both halves of one pair: columns 101 apart), cos/sin nonzero:
        # every output that reads an inf is an inf of the reference's sign, none is NaN.
        sign = torch.where(torch.arange(TOKENS)[1::37, None] % 2 == 0, 1.0, -1.0)
        q[1::37, ::101] = sign * float("inf")
    if params.get("random_cs", False):
        # cos and sin not a rotation: independent halves, so a swapped half or a wrong sign shows.
        cos = torch.randn(TOKENS, HEAD_DIM, generator=gen) * cs_scale
        sin = torch.randn(TOKENS, HEAD_DIM, generator=gen) * cs_scale
    else:
        pos = torch.arange(TOKENS, dtype=torch.float32)[:, None]
        inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
        # the two halves differ by a per-column perturbation, so cos[:, :64] != cos[:, 64:]
        freqs = torch.cat((pos * inv_freq, pos * inv_freq + 0.37), dim=-1)
        cos = freqs.cos() * cs_scale
        sin = freqs.sin() * cs_scale
    out = torch.zeros(TOKENS, HEADS * HEAD_DIM, dtype=torch.float32)
    return [("q", q), ("cos", cos.contiguous()), ("sin", sin.contiguous()), ("out", out)]


def _rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def compute_golden(tensors, params=None):
    q = tensors["q"].view(TOKENS, HEADS, HEAD_DIM)
    cos = tensors["cos"].unsqueeze(1)
    sin = tensors["sin"].unsqueeze(1)
    tensors["out"][:] = (q * cos + _rotate_half(q) * sin).reshape(TOKENS, HEADS * HEAD_DIM)
