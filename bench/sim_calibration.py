#!/usr/bin/env python3
"""Calibrate the simulator toolchain on upstream code before trusting it with a port.

Runs upstream's own self-checking examples the way their repositories document (pypto:
`python examples/<x>.py`; each file compares its result with torch and exits non-zero
on a mismatch) on a2a3sim and a5sim (a file that has no platform argument runs with RunConfig's default mapped to
the platform asked), and prints one table: which kinds of kernel (vector, cube,
mixed cube+vector, attention, quantisation) this toolchain computes correctly. A port's failure
counts as the port's only where the comparable upstream examples pass (issue 18, docs/doctor.md).

    python3 bench/sim_calibration.py --pypto ../pypto --python ../pypto-venv/bin/python \
        [--platform a2a3sim,a5sim] [--only REGEX] [--timeout 900] [--json out.json]

Needs what `port-check doctor --level simulator` checks (ptoas and g++-15 on PATH, simpler, torch).
Nothing is written into either checkout: each run gets its own build folder under --work.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (example, extra arguments, kind): upstream pypto examples/ that check their own result. Left out: the
# ones that only compile or print (intermediate/05_assemble, models/03_flash_attention (skipped upstream),
# models/05_paged_attention_batch, models/08_llama_mini).
EXAMPLES = [
    ("beginner/01_hello_world.py", [], "vector"),
    ("beginner/02_elementwise.py", [], "vector"),
    ("beginner/03_scalar_ops.py", [], "vector"),
    ("beginner/04_activation.py", [], "vector"),
    ("beginner/05_matmul.py", [], "cube"),
    ("beginner/06_concat.py", [], "vector"),
    ("intermediate/01_fused_linear.py", [], "cube+vector (separate scopes)"),
    ("intermediate/02_softmax.py", [], "vector"),
    ("intermediate/03_normalization.py", [], "vector"),
    ("intermediate/04_matmul_acc.py", [], "cube"),
    ("intermediate/06_dyn_valid_shape.py", [], "vector"),
    ("intermediate/07_task_graph.py", [], "vector"),
    ("advanced/01_split_k.py", [], "cube"),
    ("advanced/02_auto_tile_matmul.py", [], "cube"),
    ("advanced/03_mixed_kernel.py", ["--mode", "staged"], "cube+vector (separate scopes)"),
    ("advanced/03_mixed_kernel.py", ["--mode", "mixed"], "mixed cube+vector (TPUSH/TPOP)"),
    ("advanced/03_mixed_kernel.py", ["--mode", "left_right"], "mixed cube+vector (TPUSH/TPOP)"),
    ("models/01_ffn.py", [], "cube+vector"),
    ("models/02_vector_dag.py", [], "vector"),
    ("models/04_paged_attention.py", [], "attention"),
    ("models/06_paged_attention_dynamic.py", [], "attention"),
    ("models/07_paged_attention_multi_config.py", [], "attention"),
    ("models/09_paged_attention_spmd.py", [], "attention (spmd)"),
]


SHIM = """
import os, runpy, sys
import pypto.runtime as rt
post = rt.RunConfig.__post_init__
def mapped(self, *a, **k):
    if self.platform == "a2a3sim":
        self.platform = os.environ["CALIBRATION_PLATFORM"]
    return post(self, *a, **k)
rt.RunConfig.__post_init__ = mapped
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_one(pypto: Path, python: str, example: str, extra: list, platform: str, timeout: int, work: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(pypto / "python"), str(pypto), env.get("PYTHONPATH", "")) if p)
    env["PYPTO_PROG_BUILD_DIR"] = str(work)
    work.mkdir(parents=True, exist_ok=True)
    # Most examples construct RunConfig() with its default, a2a3sim, and take no platform argument: the
    # shim runs the file as __main__ with that default (and an explicit a2a3sim) mapped to `platform`.
    env["CALIBRATION_PLATFORM"] = platform
    cmd = [python, "-c", SHIM, str(pypto / "examples" / example), *extra]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=pypto, env=env, capture_output=True, text=True, timeout=timeout)
        seconds = time.monotonic() - start
        text = (p.stdout + p.stderr).strip().splitlines()
        status = "pass" if p.returncode == 0 else "fail"
        if status == "pass" and any(l.startswith("SKIPPED") for l in text):
            status = "skipped"
        detail = "" if status == "pass" else last_error(text)
    except subprocess.TimeoutExpired:
        seconds, status, detail = time.monotonic() - start, "timeout", f"no result in {timeout} s"
    return {"example": example, "args": extra, "platform": platform, "status": status,
            "seconds": round(seconds, 1), "detail": detail}


def last_error(lines: list) -> str:
    """The line that says what failed: the last error-looking line, else the last line."""
    for line in reversed(lines):
        if re.search(r"(Error|error:|assert|FAIL|mismatch|max diff)", line):
            return line.strip()[:200]
    return lines[-1].strip()[:200] if lines else "(no output)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pypto", required=True, type=Path)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--platform", default="a2a3sim,a5sim")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "sim-calibration")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    pypto = args.pypto.resolve()
    rows = []
    for example, extra, kind in EXAMPLES:
        label = example + ("".join(" " + a for a in extra))
        if args.only and not re.search(args.only, label):
            continue
        for platform in args.platform.split(","):
            work = args.work / re.sub(r"[^A-Za-z0-9]+", "_", label) / platform
            r = run_one(pypto, args.python, example, extra, platform, args.timeout, work)
            r["kind"] = kind
            rows.append(r)
            print(f"{label:52} {platform:8} {r['status']:8} {r['seconds']:7.1f} s  {r['detail']}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    kinds = {}
    for r in rows:
        k = kinds.setdefault((r["kind"], r["platform"]), [0, 0])
        k[0] += r["status"] == "pass"
        k[1] += 1
    print("\nkind                                  platform  passed")
    for (kind, platform), (ok, n) in sorted(kinds.items()):
        print(f"{kind:37} {platform:9} {ok} of {n}")
    return 0 if all(r["status"] == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
