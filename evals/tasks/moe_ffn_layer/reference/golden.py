"""The task's reference for moe_ffn_layer (never the agent's): FP32 router logits of the BF16 inputs,
softmax over the 8 experts, torch.topk (k = 2), weights renormalised over the two, each token's two
experts' SwiGLU FFN in FP32 on the BF16 weights, the outputs summed with the weights."""
import torch

ENTRY = "moe_ffn_layer"
__outputs__ = ["out"]

TOKENS, HIDDEN, NUM_EXPERTS, INTERMEDIATE, TOP_K = 64, 128, 8, 128, 2
SEED = 20261128

# Routing is exact: torch.topk does not define the order of equal values, and a token whose second
# and third largest logits are close could go to either expert, so every token whose 3 largest
# logits (float64 from the BF16 inputs) are closer than MIN_GAP times the case's logit scale is drawn
# again. A port's FP32 logits differ from these by the FP32 accumulation of 128 products (a relative
# 1e-6 or so), far below the gap, so each token gets the same two experts (and the same first one).
# MAX_SPAN keeps the third largest softmax probability a normal FP32 number (no tie at 0).
MIN_GAP = 1.0e-2
MAX_SPAN = 60.0
# Tolerance: the experts' matmuls take BF16 operands on the cube, so a port casts the SwiGLU product
# silu(gate) * up to BF16 before the down projection (a relative 2^-9 on each of its 128 terms);
# the reference keeps it in FP32. Measured with this script (python golden.py runs _bf16_error),
# that rounding alone moves an output element by at most 1.9% of the case's output scale (the mean
# |out|: 0.34 to 1.09 over the cases), and by at most 0.0077 beyond rtol 2e-2, all cases and seeds.
# The naive form (which rounds it so) measured a max abs error of 0.0099 ("hot"), 0.0083 ("large"),
# below 0.006 elsewhere, on a2a3sim and a5sim. atol 2e-2 is twice the largest of these; a token
# sent to its third expert instead of its second moves its row by at least 0.099 in "base" and
# "idle" (every seed), and leaving out the renormalisation by at least 0.12: 5x atol or more.
RTOL = 2e-2
ATOL = 2e-2

CONTRACT = {
    "kind": "moe",
    "seeds": [20261128, 11, 4242],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"scale": 12.0}},
        "idle": {"category": "edge", "params": {"idle": 6.0}},
        "hot": {"category": "asymmetric", "params": {"offset": 100.0, "hot": 6.0}},
    },
    "compare": {
        "out": {"rtol": 2e-2, "atol": 2e-2},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "gate_weight", "shape": [NUM_EXPERTS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "gate_proj", "shape": [NUM_EXPERTS * INTERMEDIATE, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "up_proj", "shape": [NUM_EXPERTS * INTERMEDIATE, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "down_proj", "shape": [NUM_EXPERTS * HIDDEN, INTERMEDIATE], "dtype": "bfloat16", "is_output": False},
        {"name": "out", "shape": [TOKENS, HIDDEN], "dtype": "float32", "is_output": True},
    ]


def _draw_x(gen, rows, scale, shift):
    return (torch.randn(rows, HIDDEN, generator=gen) * scale + shift).bfloat16()


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    scale = params.get("scale", 1.0)
    offset = params.get("offset", 0.0)
    idle = params.get("idle", 0.0)
    hot = params.get("hot", 0.0)
    # "hot": every element of x gets +1 and of the router weight +offset/HIDDEN, so every logit is
    # near +offset (exp overflows unless the max is subtracted), and expert 0's row is shifted so its
    # logit gains about `hot`: expert 0 is among the two of (nearly) every token. "idle": x gets
    # +0.25 and the last expert's row is shifted so its logit loses about `idle`, and a token that
    # still picks it is drawn again: the last expert receives no token.
    x_shift = 1.0 if (offset or hot) else (0.25 if idle else 0.0)
    router = torch.randn(NUM_EXPERTS, HIDDEN, generator=gen) * scale / HIDDEN ** 0.5 + offset / HIDDEN
    if hot:
        router[0] += hot / (x_shift * HIDDEN)
    if idle:
        router[NUM_EXPERTS - 1] -= idle / (x_shift * HIDDEN)
    router = router.bfloat16()
    gate_proj = (torch.randn(NUM_EXPERTS * INTERMEDIATE, HIDDEN, generator=gen) / HIDDEN ** 0.5).bfloat16()
    up_proj = (torch.randn(NUM_EXPERTS * INTERMEDIATE, HIDDEN, generator=gen) / HIDDEN ** 0.5).bfloat16()
    down_proj = (torch.randn(NUM_EXPERTS * HIDDEN, INTERMEDIATE, generator=gen) / INTERMEDIATE ** 0.5).bfloat16()
    x = _draw_x(gen, TOKENS, 1.0, x_shift)
    for _ in range(200):
        logits = x.double() @ router.double().t()
        top = logits.topk(TOP_K + 1, dim=-1)
        vals = top.values
        bad = ((vals[:, :-1] - vals[:, 1:]).min(dim=-1).values < MIN_GAP * scale) | (vals[:, 0] - vals[:, -1] > MAX_SPAN)
        if idle:
            bad |= (top.indices[:, :TOP_K] == NUM_EXPERTS - 1).any(dim=-1)
        if not bad.any():
            break
        x[bad] = _draw_x(gen, int(bad.sum()), 1.0, x_shift)
    else:
        raise RuntimeError("could not draw tokens without near-ties")
    picked = top.indices[:, :TOP_K]
    if hot and int((picked == 0).any(dim=-1).sum()) < TOKENS * 7 // 8:
        raise RuntimeError("the hot expert is not among the two of most tokens")
    return [
        ("x", x),
        ("gate_weight", router),
        ("gate_proj", gate_proj),
        ("up_proj", up_proj),
        ("down_proj", down_proj),
        ("out", torch.zeros(TOKENS, HIDDEN, dtype=torch.float32)),
    ]


def _moe(tensors, act_dtype=torch.float32):
    x = tensors["x"].float()
    logits = x @ tensors["gate_weight"].float().t()
    probs = torch.softmax(logits, dim=-1, dtype=torch.float32)
    weights, ids = torch.topk(probs, TOP_K, dim=-1)
    weights = weights / weights.sum(dim=-1, keepdim=True)
    gp = tensors["gate_proj"].float().view(NUM_EXPERTS, INTERMEDIATE, HIDDEN)
    up = tensors["up_proj"].float().view(NUM_EXPERTS, INTERMEDIATE, HIDDEN)
    dp = tensors["down_proj"].float().view(NUM_EXPERTS, HIDDEN, INTERMEDIATE)
    out = torch.zeros(TOKENS, HIDDEN, dtype=torch.float32)
    for e in range(NUM_EXPERTS):
        tok, slot = torch.where(ids == e)
        if tok.numel() == 0:
            continue
        xe = x[tok]
        h = torch.nn.functional.silu(xe @ gp[e].t()) * (xe @ up[e].t())
        y = h.to(act_dtype).float() @ dp[e].t()
        out.index_add_(0, tok, y * weights[tok, slot, None])
    return out


def compute_golden(tensors, params=None):
    tensors["out"][:] = _moe(tensors)


def _bf16_error():
    """Max |golden - golden with the SwiGLU product in BF16| over the contract, per case, as a share of
    the case's output scale (mean |out|)."""
    for case_id, case in CONTRACT["cases"].items():
        worst, used, scales = 0.0, -1.0, []
        for seed in CONTRACT["seeds"]:
            t = dict(generate_inputs({**case.get("params", {}), "seed": seed}))
            ref = _moe(t)
            scale = float(ref.abs().mean())
            scales.append(scale)
            diff = (_moe(t, torch.bfloat16) - ref).abs()
            worst = max(worst, float(diff.max()) / scale)
            used = max(used, float((diff - RTOL * ref.abs()).max()))
            ids = torch.softmax(t["x"].float() @ t["gate_weight"].float().t(), -1).topk(TOP_K, -1).indices
            counts = torch.bincount(ids.flatten(), minlength=NUM_EXPERTS).tolist()
            print(f"  {case_id} seed {seed}: tokens per expert {counts}")
        print(f"{case_id}: output scale {min(scales):.3g}..{max(scales):.3g}, bf16 error {worst:.3%} of it, {used:.3g} of atol beyond rtol")


if __name__ == "__main__":
    _bf16_error()
