"""Golden for the port topk_routing: the MoE router of original/moe_router.py.

logits = x @ gate_weight^T in FP32, softmax over the 64 experts, the top 8 probabilities of each
token in decreasing order divided by their sum (topk_weights, FP32), and their experts (topk_ids,
INT32, compared exactly). The reference is MoeRouter's arithmetic in plain torch (FP32).
"""
import torch

ENTRY = "topk_routing"
__outputs__ = ["topk_weights", "topk_ids"]

TOKENS, HIDDEN, NUM_EXPERTS, TOP_K = 128, 512, 64, 8
SEED = 20260301

# Weights: w_i / w_j = exp(l_i - l_j), so a logit difference off by e moves the weights by e
# relative. The logits are FP32 sums of 512 exact BF16 products in another order than torch's:
# a few ULP of the largest partial sums, ~1e-5 absolute at logits ~100 (the large case), hence
# RTOL 1e-4 (measured worst 3e-5). ids: exact (the inputs have no near-ties among the top 9).
RTOL = 1e-4
ATOL = 1e-6

CONTRACT = {
    "kind": "routing",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 30.0}},
        "uniform": {"category": "small", "params": {"scale": 1.0e-3}},
        "edges": {"category": "asymmetric", "params": {"edges": 1}},
        "edge": {"category": "edge", "params": {"edges": 1, "scale": 4.0}},
    },
    "compare": {
        "topk_weights": {"rtol": 1e-4, "atol": 1e-6},
        "topk_ids": {"rtol": 0.0, "atol": 0.0},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "gate_weight", "shape": [NUM_EXPERTS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "topk_weights", "shape": [TOKENS, TOP_K], "dtype": "float32", "is_output": True},
        {"name": "topk_ids", "shape": [TOKENS, TOP_K], "dtype": "int32", "is_output": True},
    ]


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    x = torch.randn(TOKENS, HIDDEN, generator=gen) * scale
    w = torch.randn(NUM_EXPERTS, HIDDEN, generator=gen) * (1.0 / HIDDEN**0.5)
    if params.get("edges"):
        # Experts 0 and 63 get a strong shared direction, so they are picked for most tokens.
        x[:, 0] = x[:, 0].abs() + 2.0 * scale
        w[0, 0] = 1.5
        w[63, 0] = 1.2
    x = x.to(torch.bfloat16)
    w = w.to(torch.bfloat16)
    return [
        ("x", x),
        ("gate_weight", w),
        ("topk_weights", torch.zeros(TOKENS, TOP_K, dtype=torch.float32)),
        ("topk_ids", torch.zeros(TOKENS, TOP_K, dtype=torch.int32)),
    ]


def compute_golden(tensors, params=None):
    logits = torch.nn.functional.linear(tensors["x"].float(), tensors["gate_weight"].float())
    probs = torch.softmax(logits, dim=-1, dtype=torch.float)
    w, e = torch.topk(probs, TOP_K, dim=-1)
    w = w / w.sum(dim=-1, keepdim=True)
    tensors["topk_weights"][:] = w
    tensors["topk_ids"][:] = e.to(torch.int32)
