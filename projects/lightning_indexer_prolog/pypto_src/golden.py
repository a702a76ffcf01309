"""Golden for the port lightning_indexer_prolog: inputs, reference computation and tolerances.

This module is the port's oracle. port-check and the golden runner read:
  ENTRY                 the @pl.jit entry to compile and run (in orchestration.py)
  __outputs__           the tensors compared with the reference (each is pl.Out/pl.InOut on the entry)
  RTOL, ATOL            comparison tolerances, torch.allclose semantics
  TOLERANCES            per-output (RTOL, ATOL) where one pair cannot serve every output
  build_tensor_specs()  every argument of the entry in order, with the fields of pypto-lib's
                        TensorSpec: name, shape, dtype (torch dtype name), is_output
  generate_inputs()     [(name, tensor)] in the entry's argument order; outputs start as zeros
  compute_golden()      writes the expected outputs into `tensors` in place
The reference is original/lightning_indexer_prolog.py (projection rounded to BF16, Hadamard
rotation, per-row INT8 quantisation), in FP32 from the same BF16 inputs. It never imports pypto.
"""
import torch

ENTRY = "lightning_indexer_prolog"
__outputs__ = ["q_int8", "q_scale", "k_int8", "k_scale"]

# INT8 outputs: the rotated value is an FP32 sum of 128 BF16 products (and the projection one of
# 512 / 1024), summed in a different order than torch; a value within a few FP32 ULP of a .5
# quantisation boundary may round either way: one quantisation step (ATOL 1, RTOL 0).
# Scales: max|r| / 127, r = the BF16-rounded projection p rotated by the orthonormal Hadamard H. The
# kernel sums the projection (512 / 1024 products) in another order than torch, so an element of p
# near a BF16 rounding boundary may round the other way: one BF16 step, 2^-8 of |p_i|. That moves
# each r_j by at most 2^-8 |p_i| |H| = 2^-8 |p_i| / sqrt(128), and |p_i| / sqrt(128) <= ||p|| / sqrt(128)
# = ||r|| / sqrt(128) <= max|r|: a relative change of max|r| of at most 2^-8 per flipped element.
# RTOL 2^-8 (one flip; the rotation's own FP32 sums add ~1e-6), ATOL 0. Measured on a2a3sim and
# a5sim: at most 1.3e-4 (q) and 1.5e-4 (k) relative, beyond 1e-5 in 3 of 1024 q scales and 1 of 128 k
# scales (what flips would do); every other scale within 1e-5. RTOL / ATOL below are the INT8 pair (most elements); a runner that reads only
# RTOL / ATOL checks the scales loosely (ATOL 1 >> 0.05), so it must use TOLERANCES.
TOLERANCES = {"q_int8": (0.0, 1.0), "q_scale": (2.0**-8, 0.0), "k_int8": (0.0, 1.0), "k_scale": (2.0**-8, 0.0)}
RTOL = 0.0
ATOL = 1.0

TOKENS = 128
HIDDEN = 1024
Q_LORA = 512
INDEX_HEADS = 8
INDEX_DIM = 128
SEED = 20260317

# The correctness contract (docs/contract.md): every case under every seed; "scale" multiplies x and
# qr, "zero_rows" zeroes whole tokens (amax 0: the scale's clamp). INT8 outputs are bounded by counts:
# an element within a few FP32 ULP of a .5 boundary may round either way (one step), never two.
CONTRACT = {
    "kind": "quantize",
    "seeds": [20260317, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 64.0}},
        "zero": {"category": "zero", "params": {"zero_rows": [0, 77]}},
    },
    "compare": {
        "q_int8": {"max_steps": {"1": 64}},
        "k_int8": {"max_steps": {"1": 16}},
        "q_scale": {"rtol": 0.00390625, "atol": 0.0},
        "k_scale": {"rtol": 0.00390625, "atol": 0.0},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "qr", "shape": [TOKENS, Q_LORA], "dtype": "bfloat16", "is_output": False},
        {"name": "wq_b", "shape": [Q_LORA, INDEX_HEADS * INDEX_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "wk", "shape": [HIDDEN, INDEX_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "hadamard", "shape": [INDEX_DIM, INDEX_DIM], "dtype": "bfloat16", "is_output": False},
        {"name": "q_int8", "shape": [TOKENS, INDEX_HEADS * INDEX_DIM], "dtype": "int8", "is_output": True},
        {"name": "q_scale", "shape": [INDEX_HEADS, TOKENS], "dtype": "float32", "is_output": True},
        {"name": "k_int8", "shape": [TOKENS, INDEX_DIM], "dtype": "int8", "is_output": True},
        {"name": "k_scale", "shape": [1, TOKENS], "dtype": "float32", "is_output": True},
    ]


def hadamard_matrix(order=INDEX_DIM):
    h = torch.ones(1, 1)
    while h.shape[0] < order:
        h = torch.cat([torch.cat([h, h], dim=1), torch.cat([h, -h], dim=1)], dim=0)
    return h / order ** 0.5


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, HIDDEN, generator=gen)
    # Outlier channels in some tokens: without the rotation they alone would set the scale.
    x[::3, 11] *= 30.0
    x[1::5, 600] *= -25.0
    qr = torch.randn(TOKENS, Q_LORA, generator=gen)
    wq_b = torch.randn(Q_LORA, INDEX_HEADS * INDEX_DIM, generator=gen) / Q_LORA ** 0.5
    wk = torch.randn(HIDDEN, INDEX_DIM, generator=gen) / HIDDEN ** 0.5
    x, qr = x * scale, qr * scale
    for row in params.get("zero_rows", []):
        x[row] = 0.0
        qr[row] = 0.0
    bf16 = torch.bfloat16
    return [
        ("x", x.to(bf16)),
        ("qr", qr.to(bf16)),
        ("wq_b", wq_b.to(bf16)),
        ("wk", wk.to(bf16)),
        ("hadamard", hadamard_matrix().to(bf16)),
        ("q_int8", torch.zeros(TOKENS, INDEX_HEADS * INDEX_DIM, dtype=torch.int8)),
        ("q_scale", torch.zeros(INDEX_HEADS, TOKENS)),
        ("k_int8", torch.zeros(TOKENS, INDEX_DIM, dtype=torch.int8)),
        ("k_scale", torch.zeros(1, TOKENS)),
    ]


def _quant_rows(r):
    amax = r.abs().amax(dim=-1).clamp_min(1e-6)
    q = torch.round(r * (torch.full_like(amax, 127.0) / amax)[..., None]).clamp(-127, 127)
    return q.to(torch.int8), amax * (1.0 / 127.0)


def compute_golden(tensors, params=None):
    had = tensors["hadamard"].float()
    q = (tensors["qr"].float() @ tensors["wq_b"].float()).to(torch.bfloat16).float()
    q = q.reshape(TOKENS, INDEX_HEADS, INDEX_DIM) @ had
    k = (tensors["x"].float() @ tensors["wk"].float()).to(torch.bfloat16).float() @ had
    q_int8, q_scale = _quant_rows(q)
    k_int8, k_scale = _quant_rows(k)
    tensors["q_int8"][:] = q_int8.reshape(TOKENS, INDEX_HEADS * INDEX_DIM)
    tensors["q_scale"][:] = q_scale.T
    tensors["k_int8"][:] = k_int8
    tensors["k_scale"][:] = k_scale[None, :]
