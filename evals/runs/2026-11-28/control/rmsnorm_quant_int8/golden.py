# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test for projects/rmsnorm_quant_int8: compile, run on a simulator, compare to the original."""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "original"))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

from golden import TensorSpec, run_jit  # noqa: E402
from rmsnorm_quant import rmsnorm_quant as torch_rmsnorm_quant  # noqa: E402
from pypto_src.orchestration import HIDDEN, TOKENS, rmsnorm_quant  # noqa: E402


def make_inputs(case: str, seed: int):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(TOKENS, HIDDEN, generator=g)
    w = torch.rand(HIDDEN, generator=g) + 0.5
    if case == "scaled":
        x = x * torch.logspace(-4, 4, TOKENS).unsqueeze(1)
    elif case == "zero_rows":
        x[::7] = 0.0
    elif case == "outlier":
        x[torch.arange(TOKENS), torch.randint(0, HIDDEN, (TOKENS,), generator=g)] *= 100.0
    elif case == "signed_w":
        w = torch.randn(HIDDEN, generator=g)
    elif case == "ties":
        x = torch.randint(-127, 128, (TOKENS, HIDDEN), generator=g).float() * 0.5
        x[:, 0] = 127.0
        w = torch.ones(HIDDEN)
    return x, w.reshape(1, HIDDEN)


def golden_fn(tensors):
    q, s = torch_rmsnorm_quant(tensors["x"], tensors["weight"].reshape(HIDDEN))
    tensors["q"][:] = q
    tensors["scale"][:] = s


def cmp_q(actual, expected, *, inputs, **_):
    diff = (actual.to(torch.int32) - expected.to(torch.int32)).abs()
    if int(diff.max()) == 0:
        print("[cmp_q] exact match")
        return True, "exact"
    x, w = inputs["x"], inputs["weight"].reshape(HIDDEN)
    variance = x.pow(2).mean(-1, keepdim=True)
    y = x * torch.rsqrt(variance + 1e-6) * w
    scale = y.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6) / 127.0
    v = (y.double() / scale.double())
    frac = (v - v.floor() - 0.5).abs()
    tie_dist = frac / v.abs().clamp(min=1.0)
    bad = (diff > 1) | ((diff == 1) & (tie_dist > 16 * 2.0**-24))
    n_bad = int(bad.sum())
    worst = float(tie_dist[diff > 0].max())
    msg = f"{int((diff > 0).sum())} q mismatches, all off-by-one on ties (max rel tie distance {worst:.2e})" \
        if n_bad == 0 else f"{n_bad} bad q mismatches, max diff {int(diff.max())}"
    print(f"[cmp_q] {msg}")
    return n_bad == 0, msg


def cmp_scale(actual, expected, **_):
    ok = torch.allclose(actual, expected, rtol=1e-5, atol=0.0)
    rel = ((actual - expected).abs() / expected.abs()).max().item()
    return ok, f"scale max rel err {rel:.3e}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--case", default="randn", choices=["randn", "scaled", "zero_rows", "outlier", "signed_w", "ties"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    x, w = make_inputs(args.case, args.seed)
    specs = [
        TensorSpec("x", [TOKENS, HIDDEN], torch.float32, init_value=x),
        TensorSpec("weight", [1, HIDDEN], torch.float32, init_value=w),
        TensorSpec("q", [TOKENS, HIDDEN], torch.int8, is_output=True),
        TensorSpec("scale", [TOKENS, 1], torch.float32, is_output=True),
    ]
    result = run_jit(
        fn=rmsnorm_quant,
        specs=specs,
        golden_fn=golden_fn,
        runtime_cfg=dict(platform=args.platform, device_id=args.device,
                         enable_chip_swimlane=args.enable_chip_swimlane),
        compare_fn={"q": cmp_q, "scale": cmp_scale},
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
    print(f"PASS {args.platform} case={args.case} seed={args.seed}")


if __name__ == "__main__":
    main()
