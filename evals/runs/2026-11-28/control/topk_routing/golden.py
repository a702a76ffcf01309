"""Golden test for the topk_routing port: several input regimes against MoeRouter."""

import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "original"))
sys.path.insert(0, os.path.join(HERE, "pypto_src"))

from golden import TensorSpec, run_jit  # noqa: E402
from moe_router import MoeRouter  # noqa: E402
from orchestration import HIDDEN, NUM_EXPERTS, TOKENS, TOP_K, topk_routing  # noqa: E402


def _logits(x, w):
    return x.float() @ w.float().t()


def _no_ties(x, w):
    top = torch.topk(_logits(x, w), TOP_K + 1, dim=-1).values
    gaps = (top[:, :-1] - top[:, 1:]) / top.abs().amax(dim=-1, keepdim=True).clamp_min(1e-30)
    probs = torch.softmax(_logits(x, w), dim=-1)
    ptop = torch.topk(probs, TOP_K + 1, dim=-1).values
    return bool((gaps > 1e-5).all()) and bool((ptop[:, :-1] > ptop[:, 1:]).all())


def make_case(name, seed):
    g = torch.Generator().manual_seed(seed)
    while True:
        x = torch.randn(TOKENS, HIDDEN, generator=g)
        w = torch.randn(NUM_EXPERTS, HIDDEN, generator=g) * 0.05
        if name == "large":
            x = x * 20.0
            w = w * 0.2 + torch.randn(1, HIDDEN, generator=g)
        elif name == "tiny":
            w = w * 1e-4
        elif name == "uniform":
            w = w * 0.01
        elif name == "edge":
            # push experts 0 and 63 up for every token
            w[0] = w[0] * 0.0 + x.mean(0) * 0.2
            w[63] = w[63] * 0.0 + x.mean(0) * 0.19
            x = x + x.mean(0, keepdim=True) * 0.0
        xb, wb = x.bfloat16(), w.bfloat16()
        if _no_ties(xb, wb):
            return xb, wb
        seed += 1000
        g = torch.Generator().manual_seed(seed)


def golden_fn(t):
    router = MoeRouter()
    with torch.no_grad():
        router.gate.weight.copy_(t["gate_weight"].float())
        router = router.to(torch.bfloat16)
        wts, ids = router(t["x"])
    t["topk_weights"][:] = wts
    t["topk_ids"][:] = ids


def ids_exact(actual, expected, **_):
    return bool(torch.equal(actual.cpu(), expected.cpu()))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-p", "--platform", default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    p.add_argument("-d", "--device", type=int, default=0)
    p.add_argument("--cases", default="random,large,uniform,tiny,edge")
    p.add_argument("--enable-chip-swimlane", action="store_true")
    a = p.parse_args()
    ok = True
    for i, name in enumerate(a.cases.split(",")):
        x, w = make_case(name, 1234 + i)
        if name == "edge":
            ids = torch.topk(_logits(x, w), TOP_K, dim=-1).indices
            print(f"[edge] tokens with expert 0 picked: {(ids == 0).any(-1).sum().item()}, "
                  f"63 picked: {(ids == 63).any(-1).sum().item()}")
        specs = [
            TensorSpec("x", [TOKENS, HIDDEN], torch.bfloat16, init_value=x),
            TensorSpec("gate_weight", [NUM_EXPERTS, HIDDEN], torch.bfloat16, init_value=w),
            TensorSpec("topk_weights", [TOKENS, TOP_K], torch.float32, is_output=True),
            TensorSpec("topk_ids", [TOKENS, TOP_K], torch.int32, is_output=True),
        ]
        r = run_jit(
            fn=topk_routing, specs=specs, golden_fn=golden_fn,
            runtime_cfg=dict(platform=a.platform, device_id=a.device,
                             enable_chip_swimlane=a.enable_chip_swimlane),
            rtol=1e-3 if name == "large" else 1e-5, atol=1e-6,
        )
        lg = _logits(x, w)
        print(f"[{name}] logits absmax={lg.abs().max().item():.3g} "
              f"top1-top8 spread={(lg.topk(TOP_K, -1).values[:, 0] - lg.topk(TOP_K, -1).values[:, -1]).mean().item():.3g}")
        print(f"[{name}] passed={r.passed} work_dir={r.work_dir}")
        if not r.passed:
            print(r.error)
            ok = False
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
