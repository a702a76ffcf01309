#!/usr/bin/env python3
"""The device-time model's schedule shape against simpler's chip swimlane on a2a3sim (issue 38, item 6).

    PYPTO_PYTHON=... bench/swimlane_vs_model.py [--port-check build/port-check] [--work DIR] [PROJECT ...]

Each port (default: every project under projects/) runs once on a2a3sim through its golden's ENTRY with
its base-case inputs and simpler's chip swimlane and dep_gen on (RunConfig(enable_chip_swimlane=4,
enable_dep_gen=True)): every AICore task's start and end, and each task's kernel from deps.json. The
model's schedule of the same port comes from `port-check report --format json` (each kernel's first start
and last end). Compared, kernel by kernel, per port: the order in which the kernels first start, and which
pairs of kernels run at the same time (their intervals overlap by more than 5% of the shorter one).

The simulator's durations are not device time and its cores are not the device's (a2a3sim: 8 AIC and 16
AIV against the model's 24 and 48): only the shape is evidence. Without PYPTO_PYTHON (an interpreter that
imports pypto and torch) or a port-check binary it says what is absent and exits 0 without checking.
Prints one Markdown table; WORK/results.json keeps it.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CAPTURE = r'''
import importlib.util, os, sys
project, build = sys.argv[1], sys.argv[2]
src = os.path.join(project, "pypto_src")
sys.path.insert(0, src)
import golden
from pypto.runtime import RunConfig
spec = importlib.util.spec_from_file_location("orchestration", os.path.join(src, "orchestration.py"))
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
entry = getattr(module, golden.ENTRY)
params = dict(getattr(golden, "ALL_CASES", {}).get(getattr(golden, "DEFAULT_CASE", ""), {}) or {})
params.update({"seed": 0, "case": "base", "category": "base"})
inputs = golden.generate_inputs(params)
entry(*[t for _, t in inputs], config=RunConfig(platform="a2a3sim", enable_chip_swimlane=4, enable_dep_gen=True))
'''

OVERLAP = 0.05  # share of the shorter interval two kernels must share to run "at the same time"


def sim_kernels(build: str) -> dict[str, tuple[float, float]]:
    """kernel -> (first start, last end) in the simulator's cycles, from the swimlane and deps.json."""
    records = glob.glob(os.path.join(build, "**", "dfx_outputs", "chip_swimlane_records.json"), recursive=True)
    deps = glob.glob(os.path.join(build, "**", "dfx_outputs", "deps.json"), recursive=True)
    configs = glob.glob(os.path.join(build, "**", "kernel_config.py"), recursive=True)
    if not records or not deps or not configs:
        raise RuntimeError("no swimlane records, deps.json or kernel_config.py under " + build)
    names = {int(m.group(1)): m.group(2) for m in
             re.finditer(r'"func_id": (\d+), "name": "(\w+)"', open(configs[0], encoding="utf-8").read())}
    kernel_of = {}
    for task in json.load(open(deps[0], encoding="utf-8"))["tasks"]:
        ids = [i for i in task.get("kernel_ids", []) if i >= 0]
        if ids:
            kernel = names.get(ids[0], f"func{ids[0]}")
            # a mixed task: the AIC / AIV halves of one kernel (<name>_aic, <name>_aiv)
            kernel_of[int(task["task_id"])] = re.sub(r"_ai[cv]$", "", kernel)
    spans: dict[str, list[float]] = {}
    for core, token, _reg, start, end, *_ in json.load(open(records[0], encoding="utf-8"))["aicore_tasks"]:
        kernel = kernel_of.get(int(token))
        if kernel is None:
            continue
        span = spans.setdefault(kernel, [start, end])
        span[0], span[1] = min(span[0], start), max(span[1], end)
    return {k: (v[0], v[1]) for k, v in spans.items()}


def model_kernels(port_check: str, project: str) -> dict[str, tuple[float, float]]:
    out = subprocess.run([port_check, "report", "--format", "json", project], capture_output=True, text=True,
                         timeout=600)
    report = json.loads(out.stdout)
    spans: dict[str, list[float]] = {}
    for unit in report.get("schedule", []):
        if (unit.get("device") or {}).get("us") is None:
            raise RuntimeError("the model has no timeline: " + "; ".join(unit.get("unknown") or ["device time unknown"]))
        for k in (unit.get("device") or {}).get("kernels", []):
            span = spans.setdefault(k["kernel"], [k["start_us"], k["end_us"]])
            span[0], span[1] = min(span[0], k["start_us"]), max(span[1], k["end_us"])
    return {k: (v[0], v[1]) for k, v in spans.items()}


def shape(spans: dict[str, tuple[float, float]]) -> tuple[list[str], set[frozenset]]:
    """(kernels by first start, the pairs that run at the same time)."""
    order = sorted(spans, key=lambda k: (spans[k][0], spans[k][1]))
    together = set()
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            (a0, a1), (b0, b1) = spans[a], spans[b]
            shared = min(a1, b1) - max(a0, b0)
            shorter = max(min(a1 - a0, b1 - b0), 1e-9)
            if shared > OVERLAP * shorter:
                together.add(frozenset((a, b)))
    return order, together


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*")
    parser.add_argument("--port-check", default=os.path.join(ROOT, "build", "port-check"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "swimlane-bench"))
    options = parser.parse_args()
    python = os.environ.get("PYPTO_PYTHON")
    absent = [what for what, ok in (("PYPTO_PYTHON (an interpreter importing pypto and torch)", bool(python)),
                                    (f"port-check at {options.port_check}", os.access(options.port_check, os.X_OK)))
              if not ok]
    if absent:
        print("swimlane_vs_model: not run, absent: " + "; ".join(absent))
        return 0
    projects = options.projects or sorted(p for p in glob.glob(os.path.join(ROOT, "projects", "*"))
                                          if os.path.isfile(os.path.join(p, "pypto_src", "golden.py")))
    os.makedirs(options.work, exist_ok=True)
    capture = os.path.join(options.work, "capture.py")
    with open(capture, "w", encoding="utf-8") as handle:
        handle.write(CAPTURE)
    rows, results = [], []
    for project in projects:
        name = os.path.basename(os.path.normpath(project))
        build = os.path.join(options.work, name)
        result = {"project": name}
        try:
            if not glob.glob(os.path.join(build, "**", "chip_swimlane_records.json"), recursive=True):
                env = dict(os.environ, PYPTO_PROG_BUILD_DIR=build, PYTHONDONTWRITEBYTECODE="1")
                proc = subprocess.run(["nice", python, capture, os.path.abspath(project), build], env=env,
                                      capture_output=True, text=True, timeout=1800)
                if proc.returncode != 0:
                    lines = proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode]
                    errors = [line for line in lines if "error:" in line]
                    raise RuntimeError((errors or lines)[-1].strip())
            sim, model = sim_kernels(build), model_kernels(options.port_check, project)
            common = {k: v for k, v in sim.items() if k in model}
            sim_order, sim_together = shape(common)
            model_order, model_together = shape({k: model[k] for k in common})
            result.update({"kernels_sim": sorted(sim), "kernels_model": sorted(model), "compared": len(common),
                           "order_sim": sim_order, "order_model": model_order,
                           "same_order": sim_order == model_order,
                           "together_sim": sorted(sorted(p) for p in sim_together),
                           "together_model": sorted(sorted(p) for p in model_together)})
            pairs = len(common) * (len(common) - 1) // 2
            agree = pairs - len(sim_together ^ model_together)
            result["pairs"], result["pairs_agree"] = pairs, agree
            rows.append(f"| {name} | {len(common)} of {len(sim)} / {len(model)} | "
                        f"{'yes' if sim_order == model_order else 'no'} | {len(sim_together)} / {len(model_together)} | "
                        f"{agree} of {pairs} |")
        except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError, OSError) as exc:
            result["error"] = str(exc)[:300]
            rows.append(f"| {name} | not compared: {str(exc)[:120]} | | | |")
        results.append(result)
    print("| port | kernels compared (of sim / model) | same start order | pairs at the same time (sim / model) "
          "| kernel pairs agreeing |")
    print("|---|---|:---:|---:|---:|")
    print("\n".join(rows))
    with open(os.path.join(options.work, "results.json"), "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
