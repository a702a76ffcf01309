"""What a user runs without port-check: a port's entry on the simulator through the PyPTO runtime,
compared with its golden. bench/run_bench.sh times it beside `port-check run` on the same port.

    python direct_run.py <pypto_src> <platform>      # e.g. projects/row_softmax/pypto_src a2a3sim
"""
import importlib
import sys
from pathlib import Path


def main(src: str, platform: str) -> int:
    import torch
    from pypto.runtime import RunConfig

    sys.path.insert(0, src)
    golden = importlib.import_module("golden")
    for f in sorted(Path(src).glob("*.py")):
        if f.stem != "golden":
            importlib.import_module(f.stem)
    entry = next(getattr(m, golden.ENTRY) for m in sys.modules.values()
                 if getattr(m, "__file__", None) and str(Path(m.__file__).parent) == str(Path(src).resolve())
                 and hasattr(m, golden.ENTRY))
    torch.manual_seed(0)
    named = dict(golden.generate_inputs({}))
    expected = {k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in named.items()}
    entry(*named.values(), config=RunConfig(platform=platform))
    golden.compute_golden(expected, {})
    ok = all(torch.allclose(named[o].double(), expected[o].double(), rtol=golden.RTOL, atol=golden.ATOL)
             for o in golden.__outputs__)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
