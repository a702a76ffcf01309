#!/usr/bin/env python3
"""Runs the calibration cases (cases.py) through CANN's own AICORE cost model and records its figures.

CANN's PyPTO (PyPI `pypto` 0.2.0, a different project from hw-native-sys PyPTO that shares its name)
runs a `pypto.frontend.jit` kernel with runtime_options run_mode SIM on the CPU through its cost model
(`libtile_fwk_simulation*.so`, configuration `tile_fwk_config.json`: sim_mode 0 "AICPU, AICORE, PIPE
simulation", accuracy_level 1 "based on historical board data ... linear fitting on different TILE OPs").
Each run writes `output/<run>/CostModelSimulationOutput/_simulate.pipe.swim.json` (per core, per pipe,
every tile op with its start and end cycle) and `_simulate.swim.json` (per core, every task with its
start and end cycle). This script builds each case as one single-tile kernel, runs it in a scratch
directory and keeps, per case, each tile op's pipe, name and cycles, and the task's cycles.

It needs CANN's wheel in a venv of its own (it shadows hw-native-sys `pypto`), with torch and numpy:
  python3.11 -m venv CANN_VENV && CANN_VENV/bin/pip install pypto-0.2.0-cp311-cp311-manylinux2014_x86_64.whl
Usage: CANN_VENV/bin/python bench/cann_calibration/cann_side.py [--out FILE] [--only NAME,...]
Run with any other interpreter, or without the wheel, it says so and exits 0 (skipped).
"""
import argparse
import glob
import hashlib
import importlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES  # noqa: E402

SKIP = 0


def load_cann():
    """CANN's pypto, or None with the reason (the venv absent, or hw-native-sys pypto found instead)."""
    try:
        import pypto
    except ImportError as e:
        return None, f"no `pypto` importable by {sys.executable} ({e}): run this with the venv holding CANN's pypto 0.2.0"
    if not hasattr(pypto, "frontend") or not hasattr(pypto, "RunMode"):
        return None, (f"`pypto` at {os.path.dirname(pypto.__file__)} is not CANN's PyPTO (no pypto.frontend.jit / "
                      "RunMode): hw-native-sys pypto shadows it; run this with the venv holding CANN's wheel")
    try:
        importlib.import_module("torch")
    except ImportError as e:
        return None, f"CANN's pypto needs torch, not importable by {sys.executable} ({e})"
    return pypto, None


def build(pypto, case):
    """The case's kernel and its torch arguments."""
    import torch
    dt = {"fp32": (pypto.DT_FP32, torch.float32), "fp16": (pypto.DT_FP16, torch.float16),
          "bf16": (pypto.DT_BF16, torch.bfloat16)}[case["dtype"]]
    run = {"run_mode": pypto.RunMode.SIM}
    op = case["op"]
    if op == "matmul":
        M, K, N = case["shape"]

        @pypto.frontend.jit(runtime_options=run)
        def mm(a: pypto.Tensor([M, K], dt[0]), b: pypto.Tensor([K, N], dt[0]),
               out: pypto.Tensor([M, N], pypto.DT_FP32)):
            pypto.set_cube_tile_shapes([M, M], [K, K], [N, N])
            out[:] = pypto.matmul(a, b, pypto.DT_FP32)
        return mm, [torch.zeros(M, K, dtype=dt[1]), torch.zeros(K, N, dtype=dt[1]), torch.zeros(M, N)]
    R, C = case["shape"]
    full = lambda: torch.zeros(R, C, dtype=dt[1])  # noqa: E731
    if op in ("add", "mul", "div"):
        fn = {"add": pypto.add, "mul": pypto.mul, "div": pypto.div}[op]

        @pypto.frontend.jit(runtime_options=run)
        def k2(a: pypto.Tensor([R, C], dt[0]), b: pypto.Tensor([R, C], dt[0]), out: pypto.Tensor([R, C], dt[0])):
            pypto.set_vec_tile_shapes(R, C)
            out[:] = fn(a, b)
        return k2, [full(), full(), full()]
    if op in ("adds", "muls", "divs", "exp", "rsqrt"):
        def body(a):
            if op == "adds":
                return pypto.add(a, 1.5)
            if op == "muls":
                return pypto.mul(a, 1.5)
            if op == "divs":
                return pypto.div(a, 1.5)
            if op == "exp":
                return pypto.exp(a)
            return pypto.rsqrt(a)

        @pypto.frontend.jit(runtime_options=run)
        def k1(a: pypto.Tensor([R, C], dt[0]), out: pypto.Tensor([R, C], dt[0])):
            pypto.set_vec_tile_shapes(R, C)
            out[:] = body(a)
        return k1, [full(), full()]
    if op in ("row_sum", "row_max"):
        red = pypto.sum if op == "row_sum" else pypto.amax

        @pypto.frontend.jit(runtime_options=run)
        def kr(a: pypto.Tensor([R, C], dt[0]), out: pypto.Tensor([R, 1], dt[0])):
            pypto.set_vec_tile_shapes(R, C)
            out[:] = red(a, -1, True)
        return kr, [full(), torch.zeros(R, 1, dtype=dt[1])]
    if op == "row_expand_sub":
        @pypto.frontend.jit(runtime_options=run)
        def kb(a: pypto.Tensor([R, C], dt[0]), r: pypto.Tensor([R, 1], dt[0]), out: pypto.Tensor([R, C], dt[0])):
            pypto.set_vec_tile_shapes(R, C)
            out[:] = pypto.sub(a, r)
        return kb, [full(), torch.zeros(R, 1, dtype=dt[1]), full()]
    if op == "softmax":
        @pypto.frontend.jit(runtime_options=run)
        def ks(a: pypto.Tensor([R, C], dt[0]), out: pypto.Tensor([R, C], dt[0])):
            pypto.set_vec_tile_shapes(R, C)
            e = pypto.exp(pypto.sub(a, pypto.amax(a, -1, True)))
            out[:] = pypto.div(e, pypto.sum(e, -1, True))
        return ks, [full(), full()]
    raise ValueError(f"case {case['name']}: no builder for op {op}")


def parse_run(sim_dir):
    """Every tile op (pipe, op, cycles, text) and every task (core type, cycles) of one simulated run."""
    with open(os.path.join(sim_dir, "_simulate.pipe.swim.json")) as f:
        pipes = json.load(f)
    with open(os.path.join(sim_dir, "_simulate.swim.json")) as f:
        lanes = json.load(f)
    ops = []
    for core in pipes:
        for pipe, logs in sorted(core.get("pipeLogs", {}).items()):
            for o in logs:
                words = o["tileOp"].split()
                ops.append({"core": f"{core['coreType']}{core['blockIdx']}", "pipe": pipe, "op": words[1],
                            "cycles": o["execEnd"] - o["execStart"], "tile_op": " ".join(words[:12])})
    tasks = [{"core": f"{lane['coreType']}{lane['blockIdx']}", "cycles": t["execEnd"] - t["execStart"]}
             for lane in lanes for t in lane.get("tasks", [])]
    return ops, tasks


def run_case(pypto, case, scratch):
    here = os.getcwd()
    wd = tempfile.mkdtemp(prefix=case["name"] + "-", dir=scratch)
    os.chdir(wd)
    try:
        kernel, args = build(pypto, case)
        kernel(*args)
        sims = glob.glob(os.path.join(wd, "output", "*", "CostModelSimulationOutput"))
        if len(sims) != 1:
            raise RuntimeError(f"expected one CostModelSimulationOutput under {wd}/output, found {len(sims)}")
        ops, tasks = parse_run(sims[0])
    finally:
        os.chdir(here)
    return {"name": case["name"], "tile_ops": ops, "tasks": tasks}


def wheel_identity(pypto):
    import importlib.metadata as md
    dist = md.distribution("pypto")
    record = {"version": dist.version}
    lib = os.path.join(os.path.dirname(pypto.__file__), "lib")
    for so in ("libtile_fwk_simulation.so", "libtile_fwk_simulation_ca.so"):
        with open(os.path.join(lib, so), "rb") as f:
            record[so + " sha256"] = hashlib.sha256(f.read()).hexdigest()
    return record


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the recorded figures here (JSON)")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--scratch", help="folder for the runs' output (default: a temporary one)")
    ap.add_argument("--wheel", help="the wheel installed in the venv: its sha256 is recorded with the figures")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    pypto, why = load_cann()
    if pypto is None:
        print(f"cann_side.py: skipped: {why}")
        return SKIP
    only = set(a.only.split(",")) if a.only else None
    scratch = os.path.abspath(a.scratch) if a.scratch else tempfile.mkdtemp(prefix="cann-calib-")
    os.makedirs(scratch, exist_ok=True)
    results = []
    for case in CASES:
        if only and case["name"] not in only:
            continue
        if a.child:
            try:
                r = run_case(pypto, case, scratch)
            except Exception as e:  # one case's failure is recorded, not fatal
                r = {"name": case["name"], "error": f"{type(e).__name__}: {e}"}
            print("CASE-RESULT " + json.dumps(r))
            continue
        # One process per case: the frontend keeps state (a kernel cache, an error's leftovers) between calls.
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--only", case["name"],
                            "--scratch", scratch], capture_output=True, text=True)
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("CASE-RESULT ")]
        if lines:
            r = json.loads(lines[-1][len("CASE-RESULT "):])
        else:
            r = {"name": case["name"], "error": f"exit {p.returncode}: " + (p.stderr.strip().splitlines() or [""])[-1]}
        results.append(r)
        if a.child:
            continue
        per_pipe = {}
        for o in r.get("tile_ops", []):
            per_pipe[o["pipe"]] = per_pipe.get(o["pipe"], 0) + o["cycles"]
        print(case["name"], r.get("error") or per_pipe, [t["cycles"] for t in r.get("tasks", [])], flush=True)
    if a.child:
        return 0
    doc = {"cann_pypto": wheel_identity(pypto), "cases": results}
    if a.wheel:
        with open(a.wheel, "rb") as f:
            doc["cann_pypto"]["wheel"] = os.path.basename(a.wheel)
            doc["cann_pypto"]["wheel sha256"] = hashlib.sha256(f.read()).hexdigest()
    if a.out:
        with open(a.out, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
