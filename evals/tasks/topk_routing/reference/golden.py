"""The task's reference for topk_routing (never the agent's): FP32 gate logits of the BF16 inputs,
softmax over the experts, torch.topk, weights renormalised over the top k."""
import torch

ENTRY = "topk_routing"
__outputs__ = ["topk_weights", "topk_ids"]

TOKENS, HIDDEN, NUM_EXPERTS, TOP_K = 128, 512, 64, 8
SEED = 20261128

# torch.topk does not define the order of equal values, so the inputs have no ties: every token
# whose 9 largest logits (computed in float64 from the BF16 inputs) are closer than MIN_GAP times
# the case's logit scale is drawn again. The kernel's logits differ from these by the FP32
# accumulation of 512 products (a relative 1e-6 or so), far below the gap, so the experts picked
# and their order are exact; the weights carry that error through exp and one division. Measured
# on the naive form (a2a3sim and a5sim): max relative error 3.5e-5 in "offset" (logits near +100),
# 1.2e-5 in "large", below 3e-6 elsewhere: rtol 1e-4.
MIN_GAP = 1.0e-2
# The (k+1)-th probability stays a normal FP32 number: the 9 largest logits span at most this.
MAX_SPAN = 60.0
RTOL = 1e-4
ATOL = 1e-6

CONTRACT = {
    "kind": "routing",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 12.0}},
        "small": {"category": "small", "params": {"scale": 1.0e-3}},
        "offset": {"category": "asymmetric", "params": {"offset": 100.0}},
        "ends": {"category": "edge", "params": {"ends": 4.0}},
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


def _draw_x(gen, rows, scale, shift):
    return (torch.randn(rows, HIDDEN, generator=gen) * scale + shift).bfloat16()


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    offset = params.get("offset", 0.0)
    ends = params.get("ends", 0.0)
    # "offset": every element of x gets +1 and of the gate weight +offset/HIDDEN, so every logit is
    # near +offset (exp overflows unless the max is subtracted). "ends": x gets +0.25 and experts 0
    # and NUM_EXPERTS-1 a weight row shifted so their logits gain about `ends`: the first and the
    # last expert id are picked in most tokens.
    x_shift = 1.0 if offset else (0.25 if ends else 0.0)
    weight = torch.randn(NUM_EXPERTS, HIDDEN, generator=gen) / HIDDEN ** 0.5 + offset / HIDDEN
    if ends:
        weight[0] += ends / (x_shift * HIDDEN)
        weight[NUM_EXPERTS - 1] += ends / (x_shift * HIDDEN)
    weight = weight.bfloat16()
    x = _draw_x(gen, TOKENS, scale, x_shift)
    for _ in range(100):
        logits = x.double() @ weight.double().t()
        top = logits.topk(TOP_K + 1, dim=-1).values
        bad = ((top[:, :-1] - top[:, 1:]).min(dim=-1).values < MIN_GAP * scale) | (top[:, 0] - top[:, -1] > MAX_SPAN)
        if not bad.any():
            break
        x[bad] = _draw_x(gen, int(bad.sum()), scale, x_shift)
    else:
        raise RuntimeError("could not draw tokens without near-ties")
    return [
        ("x", x),
        ("gate_weight", weight),
        ("topk_weights", torch.zeros(TOKENS, TOP_K, dtype=torch.float32)),
        ("topk_ids", torch.zeros(TOKENS, TOP_K, dtype=torch.int32)),
    ]


def compute_golden(tensors, params=None):
    logits = tensors["x"].float() @ tensors["gate_weight"].float().t()
    probs = torch.softmax(logits, dim=-1, dtype=torch.float32)
    weights, ids = torch.topk(probs, TOP_K, dim=-1)
    tensors["topk_weights"][:] = weights / weights.sum(dim=-1, keepdim=True)
    tensors["topk_ids"][:] = ids.to(torch.int32)
