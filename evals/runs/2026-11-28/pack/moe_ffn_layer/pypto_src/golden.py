"""Golden for the port moe_ffn_layer: inputs, reference computation and tolerances.

The reference is original/moe_ffn.py's SparseMoeBlock (router logits, softmax and experts in FP32
on the BF16 inputs, top-2 renormalised weights), computed here in plain torch from the stacked
weights. The port may round silu(gate) * up (times the routing weight) to BF16 before the down
projection: about 2^-9 relative per element, well inside RTOL/ATOL of 1e-2 at output scale ~0.1-1.
"""
import torch

ENTRY = "moe_ffn_layer"
__outputs__ = ["out"]

RTOL = 1e-2
ATOL = 1e-2

TOKENS, HIDDEN, NUM_EXPERTS, INTER, TOP_K = 64, 128, 8, 128, 2
SEED = 20260301

CONTRACT = {
    "kind": "mlp",
    "seeds": [20260301, 7, 1234],
    "cases": {
        "base": {"category": "base"},
        "large": {"category": "large", "params": {"router_scale": 50.0}},
        "near100": {"category": "asymmetric", "params": {"logit_offset": 100.0}},
        "idle_expert": {"category": "asymmetric", "params": {"idle": 3}},
        "dominant": {"category": "asymmetric", "params": {"dominant": 5}},
    },
}


def build_tensor_specs(params=None):
    return [
        {"name": "x", "shape": [TOKENS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "gate_weight", "shape": [NUM_EXPERTS, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "gate_proj", "shape": [NUM_EXPERTS * INTER, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "up_proj", "shape": [NUM_EXPERTS * INTER, HIDDEN], "dtype": "bfloat16", "is_output": False},
        {"name": "down_proj", "shape": [NUM_EXPERTS * HIDDEN, INTER], "dtype": "bfloat16", "is_output": False},
        {"name": "out", "shape": [TOKENS, HIDDEN], "dtype": "float32", "is_output": True},
    ]


def _logits(x, gw):
    return x.float() @ gw.float().t()


def _router_inputs(gen, params):
    x = torch.randn(TOKENS, HIDDEN, generator=gen)
    gw = torch.randn(NUM_EXPERTS, HIDDEN, generator=gen) * (params.get("router_scale", 1.0) / HIDDEN ** 0.5)
    if "logit_offset" in params:
        # column 0 of x constant 1, so gw[:, 0] shifts every logit by about the offset
        x[:, 0] = 1.0
        gw = gw * 3.0
        gw[:, 0] = params["logit_offset"]
    if "idle" in params:
        # make the idle expert's logit far below every token's second largest
        gw[params["idle"]] = 0.0
        x[:, 1] = x[:, 1].abs() + 1.0
        gw[params["idle"], 1] = -20.0
    if "dominant" in params:
        x[:, 1] = x[:, 1].abs() + 1.0
        gw[params["dominant"], 1] = 20.0
    return x.to(torch.bfloat16), gw.to(torch.bfloat16)


def generate_inputs(params=None):
    params = params or {}
    gen = torch.Generator().manual_seed(params.get("seed", SEED))
    for _ in range(100):   # redraw the router inputs until no token has a near-tie in its top 3
        x, gw = _router_inputs(gen, params)
        top3 = _logits(x, gw).topk(3, dim=-1).values
        gaps = (top3[:, :2] - top3[:, 1:]).min()
        if gaps > 1e-3 * max(1.0, float(top3.abs().max()) / 100.0):
            break
    wg = torch.randn(NUM_EXPERTS * INTER, HIDDEN, generator=gen) * (2.0 / HIDDEN ** 0.5)
    wu = torch.randn(NUM_EXPERTS * INTER, HIDDEN, generator=gen) * (1.0 / HIDDEN ** 0.5)
    wd = torch.randn(NUM_EXPERTS * HIDDEN, INTER, generator=gen) * (1.0 / INTER ** 0.5)
    return [
        ("x", x),
        ("gate_weight", gw),
        ("gate_proj", wg.to(torch.bfloat16)),
        ("up_proj", wu.to(torch.bfloat16)),
        ("down_proj", wd.to(torch.bfloat16)),
        ("out", torch.zeros(TOKENS, HIDDEN, dtype=torch.float32)),
    ]


def compute_golden(tensors, params=None):
    """SparseMoeBlock.forward of the original on the stacked weights."""
    import torch.nn.functional as F

    h = tensors["x"].float()
    logits = _logits(tensors["x"], tensors["gate_weight"])
    rw = F.softmax(logits, dim=-1, dtype=torch.float)
    rw, sel = torch.topk(rw, TOP_K, dim=-1)
    rw = rw / rw.sum(dim=-1, keepdim=True)
    final = torch.zeros_like(h)
    mask = F.one_hot(sel, num_classes=NUM_EXPERTS).permute(2, 1, 0)
    for e in range(NUM_EXPERTS):
        idx, top_x = torch.where(mask[e])
        if top_x.numel() == 0:
            continue
        wg = tensors["gate_proj"][INTER * e : INTER * (e + 1)].float()
        wu = tensors["up_proj"][INTER * e : INTER * (e + 1)].float()
        wd = tensors["down_proj"][HIDDEN * e : HIDDEN * (e + 1)].float()
        cur = h[top_x]
        y = F.linear(F.silu(F.linear(cur, wg)) * F.linear(cur, wu), wd) * rw[top_x, idx, None]
        final.index_add_(0, top_x, y)
    tensors["out"][:] = final


if __name__ == "__main__":
    for cid, case in CONTRACT["cases"].items():
        for seed in CONTRACT["seeds"]:
            p = {**case.get("params", {}), "seed": seed}
            t = dict(generate_inputs(p))
            compute_golden(t, p)
            lg = _logits(t["x"], t["gate_weight"])
            cnt = torch.bincount(lg.topk(2, dim=-1).indices.flatten(), minlength=8)
            print(cid, seed, float(t["out"].abs().mean()), float(t["out"].abs().max()), cnt.tolist(), float(lg.abs().max()))
