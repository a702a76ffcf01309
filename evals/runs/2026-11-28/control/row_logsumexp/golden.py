"""Golden test for projects/row_logsumexp: python golden.py -p a2a3sim."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

import torch  # noqa: E402

from pypto_src.orchestration import TOKENS, VOCAB, row_logsumexp  # noqa: E402


def make_logits(kind):
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(TOKENS, VOCAB, generator=g)
    if kind == "randn4":
        return x * 4.0
    if kind == "huge":
        return x * 1.0e3 + 5.0e4           # exp would overflow without the shift
    if kind == "neg_huge":
        return x * 10.0 - 8.0e4
    if kind == "mixed":
        scale = torch.logspace(-3, 4, TOKENS).unsqueeze(1)
        return x * scale + (torch.rand(TOKENS, 1, generator=g) - 0.5) * 1.0e5
    if kind == "peaked":
        x = x.clone()
        x[:, 7] = 300.0                     # one dominant logit per row
        return x
    if kind == "extreme":
        sign = torch.where(torch.rand(TOKENS, VOCAB, generator=g) < 0.5, -1.0, 1.0)
        return sign * torch.rand(TOKENS, VOCAB, generator=g) * 3.0e38
    if kind == "const":
        return torch.full((TOKENS, VOCAB), 88.5)
    return x


def build_tensor_specs(kind):
    from golden import TensorSpec

    return [
        TensorSpec("logits", [TOKENS, VOCAB], torch.float32, init_value=make_logits(kind)),
        TensorSpec("lse", [TOKENS, 1], torch.float32, is_output=True),
    ]


def golden_fn(tensors):
    tensors["lse"][:] = torch.logsumexp(tensors["logits"], dim=-1, keepdim=True)


if __name__ == "__main__":
    import argparse
    from golden import run_jit

    parser = argparse.ArgumentParser()
    parser.add_argument("-p", "--platform", default="a2a3sim",
                        choices=["a2a3", "a2a3sim", "a5", "a5sim"])
    parser.add_argument("-d", "--device", type=int, default=0)
    parser.add_argument("-k", "--kinds", default="randn4,huge,neg_huge,mixed,peaked,const,extreme")
    parser.add_argument("--enable-chip-swimlane", action="store_true", default=False)
    args = parser.parse_args()

    failed = []
    for kind in args.kinds.split(","):
        print(f"=== {kind} ===", flush=True)
        result = run_jit(
            fn=row_logsumexp,
            specs=build_tensor_specs(kind),
            golden_fn=golden_fn,
            runtime_cfg=dict(platform=args.platform, device_id=args.device,
                             enable_chip_swimlane=args.enable_chip_swimlane),
            rtol=1e-5,
            atol=1e-5,
        )
        if not result.passed:
            print(result.error)
            failed.append(kind)
    print("FAILED:" if failed else "ALL PASSED", ",".join(failed))
    raise SystemExit(1 if failed else 0)
