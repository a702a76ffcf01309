"""Golden test: python projects/sliding_window_attention/golden.py -p a2a3sim [--scale S]"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "pypto_src"))
sys.path.insert(0, os.path.join(HERE, "original"))

import torch  # noqa: E402
from golden import TensorSpec, run_jit  # noqa: E402
from orchestration import sliding_window_attention  # noqa: E402
import sliding_window_attention as ref  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", default="a2a3sim", choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--swimlane", action="store_true")
    args = parser.parse_args()
    s = args.scale

    def init(shape):
        return lambda *a, **kw: (torch.randn(shape) * s)

    specs = [
        TensorSpec("q", [256, 512], torch.bfloat16, init_value=init([256, 512])),
        TensorSpec("k", [256, 128], torch.bfloat16, init_value=init([256, 128])),
        TensorSpec("v", [256, 128], torch.bfloat16, init_value=torch.randn),
        TensorSpec("out", [256, 512], torch.bfloat16, is_output=True),
    ]

    def golden_fn(t):
        t["out"][:] = ref.sliding_window_attention(t["q"], t["k"], t["v"])

    def cmp(actual, expected, *, rtol, atol, **_):
        a, e = actual.float(), expected.float()
        err = (a - e).abs()
        print(f"max abs err {err.max().item():.4g}, mean abs err {err.mean().item():.4g}, "
              f"max |ref| {e.abs().max().item():.4g}, nan {torch.isnan(a).any().item()}")
        return torch.allclose(a, e, rtol=rtol, atol=atol), f"max abs err {err.max().item()}"

    res = run_jit(compare_fn={"out": cmp}, fn=sliding_window_attention, specs=specs, golden_fn=golden_fn,
                  runtime_cfg=dict(platform=args.platform, device_id=args.device,
                                   enable_chip_swimlane=args.swimlane),
                  rtol=2e-2, atol=2e-2)
    print("PASSED" if res.passed else f"FAILED {res.error}")
    if not res.passed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
