"""Golden test for projects/kv_cache_scatter (run from the repo root or anywhere).

    python projects/kv_cache_scatter/golden.py -p a2a3sim
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

from pypto_src.orchestration import (  # noqa: E402
    HIDDEN, NUM_SLOTS, NUM_TOKENS, kv_cache_scatter,
)


def build_specs(n_pad: int = 5, seed: int = 0):
    import torch
    from golden import TensorSpec

    g = torch.Generator().manual_seed(seed)
    slots = torch.randperm(NUM_SLOTS, generator=g)[:NUM_TOKENS].to(torch.int32)
    pad_idx = torch.randperm(NUM_TOKENS, generator=g)[:n_pad]
    slots[pad_idx] = -1

    return [
        TensorSpec("key", [NUM_TOKENS, HIDDEN], torch.bfloat16, init_value=lambda: torch.randn(NUM_TOKENS, HIDDEN)),
        TensorSpec("value", [NUM_TOKENS, HIDDEN], torch.bfloat16, init_value=lambda: torch.randn(NUM_TOKENS, HIDDEN)),
        TensorSpec("key_cache", [NUM_SLOTS, HIDDEN], torch.bfloat16,
                   init_value=lambda: torch.randn(NUM_SLOTS, HIDDEN), is_output=True),
        TensorSpec("value_cache", [NUM_SLOTS, HIDDEN], torch.bfloat16,
                   init_value=lambda: torch.randn(NUM_SLOTS, HIDDEN), is_output=True),
        TensorSpec("slot_mapping", [NUM_TOKENS], torch.int32, init_value=lambda: slots.clone()),
    ]


def golden_kv_cache_scatter(values):
    slots = values["slot_mapping"]
    for i in range(slots.shape[0]):
        s = int(slots[i])
        if s < 0:
            continue
        values["key_cache"][s] = values["key"][i]
        values["value_cache"][s] = values["value"][i]


if __name__ == "__main__":
    import argparse
    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", type=str, default="a2a3sim",
                        choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--n-pad", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    result = run_jit(
        fn=kv_cache_scatter,
        specs=build_specs(args.n_pad, args.seed),
        golden_fn=golden_kv_cache_scatter,
        runtime_cfg=dict(platform=args.platform, device_id=args.device,
                         enable_chip_swimlane=args.enable_chip_swimlane),
        rtol=0, atol=0,
    )
    print(result)
    if not result.passed:
        if result.error:
            print(result.error)
        raise SystemExit(1)
