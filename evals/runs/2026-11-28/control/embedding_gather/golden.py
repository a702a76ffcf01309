# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test for the embedding_gather port: python golden.py -p a2a3sim [--case all]."""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(1, str(HERE))

import torch  # noqa: E402

from pypto_src.orchestration import EMBED_SCALE, HIDDEN, TOKENS, VOCAB, embed  # noqa: E402


def make_ids(case: str) -> torch.Tensor:
    g = torch.Generator().manual_seed(1234)
    if case == "random":
        return torch.randint(0, VOCAB, (TOKENS,), dtype=torch.int32, generator=g)
    if case == "edges":
        ids = torch.randint(0, VOCAB, (TOKENS,), dtype=torch.int32, generator=g)
        ids[0::4] = 0
        ids[1::4] = VOCAB - 1
        return ids
    if case == "repeat":
        return torch.full((TOKENS,), 777, dtype=torch.int32)
    if case == "arange":
        return torch.arange(TOKENS, dtype=torch.int32) * (VOCAB // TOKENS) + (VOCAB // TOKENS - 1)
    raise ValueError(case)


def build_specs(case: str):
    from golden import TensorSpec

    ids = make_ids(case)
    return [
        TensorSpec("ids", [TOKENS], torch.int32, init_value=ids),
        TensorSpec("table", [VOCAB, HIDDEN], torch.float32, init_value=torch.randn),
        TensorSpec("out", [TOKENS, HIDDEN], torch.float32, is_output=True),
    ]


def golden_embed(values):
    values["out"][:] = values["table"][values["ids"].long()] * math.sqrt(HIDDEN)


if __name__ == "__main__":
    import argparse

    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim",
                        choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--case", type=str, default="all")
    parser.add_argument("--tol", type=float, default=0.0, help="rtol = atol; the port is bit-exact")
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()
    assert abs(EMBED_SCALE - math.sqrt(HIDDEN)) < 1e-12

    cases = ["random", "edges", "repeat", "arange"] if args.case == "all" else [args.case]
    ok = True
    for case in cases:
        result = run_jit(
            fn=embed,
            specs=build_specs(case),
            golden_fn=golden_embed,
            runtime_cfg=dict(platform=args.platform, device_id=args.device,
                             enable_chip_swimlane=args.enable_chip_swimlane),
            rtol=args.tol,
            atol=args.tol,
        )
        print(f"[{case}] {result}")
        ok = ok and result.passed
        if not result.passed and result.error:
            print(result.error)
    raise SystemExit(0 if ok else 1)
