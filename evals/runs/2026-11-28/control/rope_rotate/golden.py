"""Golden test for projects/rope_rotate: python golden.py -p a2a3sim"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

import torch  # noqa: E402

from golden import TensorSpec, run_jit  # noqa: E402
from pypto_src.orchestration import HEAD_DIM, HEADS, HIDDEN, TOKENS, rope  # noqa: E402
from original.rope import rope as rope_ref  # noqa: E402


def _init(mode, shape, scale):
    def make():
        x = torch.randn(shape)
        if mode == "randn":
            return x
        x = x * scale * torch.exp(torch.randn(shape) * 8)
        if mode == "special":
            flat = x.view(-1)
            idx = torch.randperm(flat.numel())[:64]
            flat[idx[:16]] = float("inf")
            flat[idx[16:32]] = -float("inf")
            flat[idx[32:40]] = 0.0
            flat[idx[40:48]] = -0.0
            flat[idx[48:]] = 1e-40
        return x

    return make


def build_tensor_specs(mode):
    return [
        TensorSpec("q", [TOKENS, HIDDEN], torch.float32, init_value=_init(mode, [TOKENS, HIDDEN], 1e2)),
        TensorSpec("cos", [TOKENS, HEAD_DIM], torch.float32, init_value=_init(mode, [TOKENS, HEAD_DIM], 1e3)),
        TensorSpec("sin", [TOKENS, HEAD_DIM], torch.float32, init_value=_init(mode, [TOKENS, HEAD_DIM], 1e3)),
        TensorSpec("out", [TOKENS, HIDDEN], torch.float32, is_output=True),
    ]


def golden_rope(t):
    t["out"][:] = rope_ref(t["q"].view(TOKENS, HEADS, HEAD_DIM), t["cos"], t["sin"]).reshape(TOKENS, HIDDEN)


def _exact(actual, expected, **_):
    both_nan = actual.isnan() & expected.isnan()
    same = (actual == expected) | both_nan
    ok = bool(same.all())
    diff = int((~same).sum())
    print(f"[golden] bit-exact={ok} mismatches={diff}")
    return ok, "" if ok else f"mismatches={diff}"


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("-p", "--platform", default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    p.add_argument("-d", "--device", type=int, default=0)
    p.add_argument("--mode", default="randn", choices=["randn", "big", "special"])
    p.add_argument("--enable-chip-swimlane", action="store_true")
    p.add_argument("--compile-only", action="store_true")
    a = p.parse_args()
    r = run_jit(
        fn=rope,
        specs=build_tensor_specs(a.mode),
        golden_fn=golden_rope,
        runtime_cfg=dict(platform=a.platform, device_id=a.device, enable_chip_swimlane=a.enable_chip_swimlane),
        rtol=1e-6,
        atol=1e-6,
        compare_fn={"out": _exact},
        compile_only=a.compile_only,
    )
    if not r.passed:
        print(r.error)
        raise SystemExit(1)
    print("PASS")
