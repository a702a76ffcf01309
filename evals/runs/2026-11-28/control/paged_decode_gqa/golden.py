# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test of the paged_decode_gqa port against the original PyTorch program."""

import argparse
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


orch = _load("pdg_orchestration", HERE / "pypto_src" / "orchestration.py")
orig = _load("pdg_original", HERE / "original" / "paged_attention_decode.py")

CASES = {
    "mixed": [256, 77, 64, 1],
    "full": [256, 256, 256, 256],
    "short": [1, 2, 31, 33],
    "odd": [200, 129, 95, 160],
}


def build_specs(lens, q_scale, seed):
    import torch
    from golden import TensorSpec

    gen = torch.Generator().manual_seed(seed)
    return [
        TensorSpec("query", [128, 128], torch.bfloat16,
                   init_value=lambda: torch.randn(128, 128, generator=gen) * q_scale),
        TensorSpec("key_cache", [1280, 256], torch.bfloat16,
                   init_value=lambda: torch.randn(1280, 256, generator=gen)),
        TensorSpec("value_cache", [1280, 256], torch.bfloat16,
                   init_value=lambda: torch.randn(1280, 256, generator=gen)),
        TensorSpec("block_tables", [4, 8], torch.int32,
                   init_value=lambda: torch.randint(0, 40, (4, 8), generator=gen, dtype=torch.int32)),
        TensorSpec("seq_lens", [4], torch.int32, init_value=lambda: torch.tensor(lens, dtype=torch.int32)),
        TensorSpec("out", [128, 128], torch.bfloat16, is_output=True),
    ]


def golden_fn(t):
    res = orig.paged_attention_decode(
        t["query"].reshape(4, 32, 128),
        t["key_cache"].reshape(40, 32, 2, 128),
        t["value_cache"].reshape(40, 32, 2, 128),
        t["block_tables"],
        t["seq_lens"],
    )
    t["out"][:] = res.reshape(128, 128)


def compare_out(actual, expected, *, rtol, atol, **_):
    import torch

    a, e = actual.float(), expected.float()
    diff = (a - e).abs()
    ok = torch.allclose(a, e, rtol=rtol, atol=atol)
    msg = f"max_abs={diff.max().item():.6f} bf16_mismatch={(diff > 0).float().mean().item() * 100:.3f}%"
    print(f"[compare] out {msg}")
    return ok, msg


if __name__ == "__main__":
    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--case", default="mixed", choices=list(CASES))
    parser.add_argument("--q-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    result = run_jit(
        fn=orch.paged_attention_decode,
        specs=build_specs(CASES[args.case], args.q_scale, args.seed),
        golden_fn=golden_fn,
        compare_fn={"out": compare_out},
        runtime_cfg=dict(platform=args.platform, device_id=args.device,
                         enable_chip_swimlane=args.enable_chip_swimlane),
        rtol=8e-3,
        atol=8e-3,
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
    print("PASSED")
