# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test for projects/linear_gelu: run the PyPTO port against the PyTorch original."""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))
sys.path.insert(0, os.path.join(HERE, "pypto_src"))
sys.path.insert(0, os.path.join(HERE, "original"))

from orchestration import IN_FEATURES, OUT_FEATURES, TOKENS, linear_gelu  # noqa: E402


def build_tensor_specs(scale: float = 1.0):
    import torch
    from golden import TensorSpec

    def w_init():
        return torch.randn(OUT_FEATURES, IN_FEATURES) * (scale / math.sqrt(IN_FEATURES))

    def x_init():
        return torch.randn(TOKENS, IN_FEATURES) * scale

    def b_init():
        return torch.randn(1, OUT_FEATURES) * scale

    return [
        TensorSpec("x", [TOKENS, IN_FEATURES], torch.bfloat16, init_value=x_init),
        TensorSpec("weight", [OUT_FEATURES, IN_FEATURES], torch.bfloat16, init_value=w_init),
        TensorSpec("bias", [1, OUT_FEATURES], torch.float32, init_value=b_init),
        TensorSpec("out", [TOKENS, OUT_FEATURES], torch.float32, is_output=True),
    ]


def golden_linear_gelu(tensors):
    from linear_gelu import linear_gelu as ref

    tensors["out"][:] = ref(tensors["x"], tensors["weight"], tensors["bias"][0])


if __name__ == "__main__":
    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim",
                        choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--tol", type=float, default=1e-4)
    parser.add_argument("--compile-only", action="store_true", default=False)
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    result = run_jit(
        fn=linear_gelu,
        specs=build_tensor_specs(args.scale),
        golden_fn=golden_linear_gelu,
        runtime_cfg=dict(
            platform=args.platform,
            device_id=args.device,
            enable_chip_swimlane=args.enable_chip_swimlane,
        ),
        compile_only=args.compile_only,
        rtol=args.tol,
        atol=args.tol,
    )
    print(result)
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
