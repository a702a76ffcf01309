# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test for projects/attention_prefill: python golden.py -p a2a3sim [--scale S]."""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE / "pypto_src"))
sys.path.insert(0, str(HERE / "original"))
if "golden" in sys.modules:
    del sys.modules["golden"]

import torch  # noqa: E402
from golden import TensorSpec, run_jit  # noqa: E402
from orchestration import attention_prefill, SEQ, NUM_HEADS, NUM_KV_HEADS, HEAD_DIM  # noqa: E402
import attention_prefill as ref  # noqa: E402


def build_specs(scale: float, seed: int):
    g = torch.Generator().manual_seed(seed)

    def rnd(shape):
        return (torch.randn(shape, generator=g) * scale).bfloat16()

    return [
        TensorSpec("q", [SEQ, NUM_HEADS * HEAD_DIM], torch.bfloat16, init_value=rnd([SEQ, NUM_HEADS * HEAD_DIM])),
        TensorSpec("k", [SEQ, NUM_KV_HEADS * HEAD_DIM], torch.bfloat16, init_value=rnd([SEQ, NUM_KV_HEADS * HEAD_DIM])),
        TensorSpec("v", [SEQ, NUM_KV_HEADS * HEAD_DIM], torch.bfloat16, init_value=rnd([SEQ, NUM_KV_HEADS * HEAD_DIM])),
        TensorSpec("out", [SEQ, NUM_HEADS * HEAD_DIM], torch.bfloat16, is_output=True),
    ]


def compare_out(actual, expected, **_kw):
    a = actual.float()
    e = expected.float()
    diff = (a - e).abs()
    exact = (actual == expected).float().mean().item()
    rel = (diff / e.abs().clamp_min(1e-6)).max().item()
    ok = bool(torch.isfinite(a).all()) and torch.allclose(a, e, rtol=8e-3, atol=8e-3)
    msg = f"max_abs={diff.max().item():.3e} max_rel={rel:.3e} exact_bf16={exact:.4f}"
    print("[CMP]", msg)
    return ok, msg


def golden_fn(t):
    t["out"][:] = ref.attention_prefill(t["q"], t["k"], t["v"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("-p", "--platform", default="a2a3sim")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--swimlane", action="store_true")
    a = ap.parse_args()
    res = run_jit(
        fn=attention_prefill,
        specs=build_specs(a.scale, a.seed),
        golden_fn=golden_fn,
        runtime_cfg=dict(platform=a.platform, device_id=0, enable_chip_swimlane=a.swimlane),
        compare_fn={"out": compare_out},
        rtol=8e-3,
        atol=8e-3,
    )
    print(res, res.work_dir)
    if not res.passed:
        raise SystemExit(1)
