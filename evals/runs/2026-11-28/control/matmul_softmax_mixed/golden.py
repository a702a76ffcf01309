"""Golden test for attn_probs: run with -p a2a3sim / a5sim."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "pypto_src"))

import torch  # noqa: E402
from golden import TensorSpec, run_jit  # noqa: E402
from orchestration import attn_probs, NUM_HEADS, Q_LEN, KV_LEN, HEAD_DIM  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "original"))
from attn_probs import attn_probs as ref_attn_probs  # noqa: E402


def make_init(mode, which):
    shape = [NUM_HEADS * (Q_LEN if which == "query" else KV_LEN), HEAD_DIM]

    def init():
        g = torch.Generator().manual_seed(sum(map(ord, mode + which)))
        n = torch.randn(shape, generator=g)
        if mode == "randn":
            x = n
        elif mode == "large":
            x = n * 30.0
        elif mode == "huge":
            x = n * 1000.0
        elif mode == "negbias":
            x = n - 50.0 if which == "query" else n + 50.0
        elif mode == "near_equal":
            x = torch.ones(shape) + n * 1e-3
        elif mode == "zeros":
            x = torch.zeros(shape)
        elif mode == "onehot":
            x = torch.zeros(shape)
            x[..., 0] = 1.0
            x = x + n * 0.01
        else:
            raise ValueError(mode)
        return x.to(torch.bfloat16)
    return init


def specs(mode):
    return [
        TensorSpec("query", [NUM_HEADS * Q_LEN, HEAD_DIM], torch.bfloat16, init_value=make_init(mode, "query")),
        TensorSpec("key", [NUM_HEADS * KV_LEN, HEAD_DIM], torch.bfloat16, init_value=make_init(mode, "key")),
        TensorSpec("probs", [NUM_HEADS * Q_LEN, KV_LEN], torch.float32, is_output=True),
    ]


def golden_fn(t):
    q = t["query"].view(NUM_HEADS, Q_LEN, HEAD_DIM)
    k = t["key"].view(NUM_HEADS, KV_LEN, HEAD_DIM)
    t["probs"][:] = ref_attn_probs(q, k).reshape(NUM_HEADS * Q_LEN, KV_LEN)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("-p", "--platform", default="a2a3sim")
    ap.add_argument("-m", "--modes", default="randn,large,huge,negbias,near_equal,zeros,onehot")
    ap.add_argument("--swimlane", action="store_true")
    ap.add_argument("--rtol", type=float, default=1e-5)
    ap.add_argument("--atol", type=float, default=1e-6)
    a = ap.parse_args()
    ok = True
    for mode in a.modes.split(","):
        r = run_jit(fn=attn_probs, specs=specs(mode), golden_fn=golden_fn,
                    runtime_cfg=dict(platform=a.platform, device_id=0, enable_chip_swimlane=a.swimlane),
                    rtol=a.rtol, atol=a.atol)
        print(f"MODE {mode}: {'PASS' if r.passed else 'FAIL'}")
        if not r.passed:
            ok = False
            if r.error:
                print(r.error[:3000])
    sys.exit(0 if ok else 1)
