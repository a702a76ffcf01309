# Copyright (c) PyPTO Contributors.
# This program is free software, you can redistribute it and/or modify it under the terms and conditions of
# CANN Open Software License Agreement Version 2.0 (the "License").
# Please refer to the License for details. You may not use this file except in compliance with the License.
# THIS SOFTWARE IS PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
# INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR PURPOSE.
# See LICENSE in the root of the software repository for the full text of the License.
# -----------------------------------------------------------------------------------------------------------
"""Golden test for projects/causal_conv1d: run the PyPTO port and compare with the torch original."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "original"))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

from pypto_src.orchestration import CHANNELS, TOKENS, WIDTH, causal_conv1d  # noqa: E402


def build_tensor_specs():
    import torch
    from golden import TensorSpec

    return [
        TensorSpec("x", [TOKENS, CHANNELS], torch.float32, init_value=torch.randn),
        TensorSpec("weight_t", [WIDTH, CHANNELS], torch.float32, init_value=torch.randn),
        TensorSpec("bias", [1, CHANNELS], torch.float32, init_value=torch.randn),
        TensorSpec("out", [TOKENS, CHANNELS], torch.float32, is_output=True),
    ]


def golden_causal_conv1d(tensors):
    from causal_conv1d import causal_conv1d as ref

    tensors["out"][:] = ref(tensors["x"], tensors["weight_t"].t().contiguous(), tensors["bias"][0])


if __name__ == "__main__":
    import argparse
    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim",
                        choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    result = run_jit(
        fn=causal_conv1d,
        specs=build_tensor_specs(),
        golden_fn=golden_causal_conv1d,
        runtime_cfg=dict(
            platform=args.platform,
            device_id=args.device,
            enable_chip_swimlane=args.enable_chip_swimlane,
        ),
        rtol=1e-5,
        atol=1e-5,
    )
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
    print("PASSED")
