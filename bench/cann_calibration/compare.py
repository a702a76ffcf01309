#!/usr/bin/env python3
"""port-check's device-time model against CANN's own AICORE cost model, tile op by tile op.

Two steps:
  record  runs `port-check report --format json` on the DSL twins (dsl/*.py, from make_dsl.py), joins
          each kernel's pipe times with CANN's figures for the same case (cann_side.py's JSON, from CANN's
          wheel) and writes both sides' figures, in cycles of one tile, to a recorded-results JSON;
  table   prints the agreement table from a recorded-results JSON alone (no wheel, no build): per case
          CANN's cycles, ours and the ratio ours / CANN on the pipe the case calibrates; per op class the
          median ratio and its spread; the GM transfers (MTE2, MTE3) and the task over every case.

Usage:
  bench/cann_calibration/compare.py record --cann CANN.json [--port-check build/port-check] [--out recorded.json]
  bench/cann_calibration/compare.py table [recorded.json]
Cycles at the a2a3 clock port-check's model and CANN's swimlane converter both use (1.8 GHz). Ours per
tile: the kernel's pipe time over its REP trips (make_dsl.py). Ours per task: the pipes of one tile one
after the other (docs/perf-model.md §2, a task of one iteration), without the core's pickup.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases import CASES  # noqa: E402
from make_dsl import REP  # noqa: E402

RECORDED = os.path.join(HERE, "recorded.json")
CLOCK_HZ = 1.8e9
PIPES = ("MTE2", "MTE1", "CUBE", "FIXP", "VECTOR", "MTE3")
# CANN's pipe names (its _simulate.pipe.swim.json) -> ours. Its MTE_OUT of an AIC carries L0C -> GM,
# which our model splits into FIXP (out of L0C) and MTE3 (to GM): "store" below adds the two.
CANN_PIPE = {"MTE_IN": "MTE2", "MTE1": "MTE1", "CUBE": "CUBE", "VECTOR_ALU": "VECTOR", "MTE_OUT": "MTE3"}


def ours_per_tile(port_check, dsl_dir=os.path.join(HERE, "dsl")):
    """{case: {pipe: cycles of one tile}} from the model's per-task pipe times (µs, rounded to 0.01)."""
    out = {}
    for fname in sorted(os.listdir(dsl_dir)):
        if not fname.endswith(".py"):
            continue
        path = os.path.join(dsl_dir, fname)
        p = subprocess.run([port_check, "report", "--format", "json", path], capture_output=True, text=True,
                           cwd=dsl_dir)
        if p.returncode not in (0, 1):
            raise RuntimeError(f"port-check report {path}: exit {p.returncode}: {p.stderr.strip()[:300]}")
        doc = json.loads(p.stdout)
        for unit in doc["schedule"]:
            dev = unit.get("device")
            if not dev:
                raise RuntimeError(f"{path}: no device time: {unit.get('unknown')}")
            for k in dev["kernels"]:
                if k["tasks"] != 1:
                    raise RuntimeError(f"{path}: kernel {k['kernel']} has {k['tasks']} tasks, expected 1")
                out[k["kernel"]] = {pipe: k["pipes_us"][pipe] / REP * CLOCK_HZ / 1e6 for pipe in PIPES}
    return out


def cann_per_tile(cann_doc):
    """{case: {pipe: cycles, "task": cycles}} from cann_side.py's JSON (one task per case)."""
    out = {}
    for r in cann_doc["cases"]:
        if r.get("error") or not r["tasks"]:
            continue  # a case CANN's frontend could not build, or built to no task: no figure
        figs = {pipe: 0 for pipe in PIPES}
        for o in r["tile_ops"]:
            figs[CANN_PIPE[o["pipe"]]] += o["cycles"]
        if len(r["tasks"]) != 1:
            raise RuntimeError(f"CANN case {r['name']}: {len(r['tasks'])} tasks, expected 1")
        figs["task"] = r["tasks"][0]["cycles"]
        out[r["name"]] = figs
    return out


def record(cann_doc, port_check, commit):
    ours = ours_per_tile(port_check)
    cann = cann_per_tile(cann_doc)
    cases = []
    for c in CASES:
        if c["name"] not in cann or c["name"] not in ours:
            continue
        o = {k: round(v, 1) for k, v in ours[c["name"]].items()}
        o["task"] = round(sum(o[p] for p in PIPES), 1)
        cases.append({"name": c["name"], "cls": c["cls"], "pipe": c["pipe"], "shape": c["shape"],
                      "dtype": c["dtype"], "cann": cann[c["name"]], "ours": o})
    return {"cann_pypto": cann_doc["cann_pypto"], "port_check_commit": commit, "clock_hz": CLOCK_HZ, "rep": REP,
            "cases": cases}


def store(fig, core_is_aic):
    return fig["MTE3"] + (fig["FIXP"] if core_is_aic else 0)


def ratio(ours, cann):
    return ours / cann if cann else float("inf")


def fmt_ratio(r):
    return "inf" if r == float("inf") else f"{r:.2f}"


def summary(ratios):
    """(n, median, min, max) of a list of ratios."""
    return len(ratios), statistics.median(ratios), min(ratios), max(ratios)


def table(rec):
    lines = ["| case | class | pipe | CANN cycles | ours cycles | ours / CANN |", "|---|---|---|---:|---:|---:|"]
    by_cls = {}
    for c in rec["cases"]:
        p = c["pipe"]
        r = ratio(c["ours"][p], c["cann"][p])
        by_cls.setdefault(c["cls"], []).append(r)
        lines.append(f"| {c['name']} | {c['cls']} | {p} | {c['cann'][p]:g} | {c['ours'][p]:g} | {fmt_ratio(r)} |")
    lines += ["", "| op class | cases | median ours / CANN | spread (min - max) |", "|---|---:|---:|---|"]
    for cls, rs in by_cls.items():
        n, med, lo, hi = summary(rs)
        lines.append(f"| {cls} | {n} | {fmt_ratio(med)} | {fmt_ratio(lo)} - {fmt_ratio(hi)} |")
    # Every case's loads, stores, L1 -> L0 moves and the task as a whole.
    rows = {"MTE2 (GM -> UB / L1)": [], "MTE3 (-> GM; an AIC's FIXP + MTE3)": [], "MTE1 (L1 -> L0A / L0B)": [],
            "task (one tile, pipes in series)": []}
    for c in rec["cases"]:
        aic = c["cls"] == "matmul"
        rows["MTE2 (GM -> UB / L1)"].append(ratio(c["ours"]["MTE2"], c["cann"]["MTE2"]))
        rows["MTE3 (-> GM; an AIC's FIXP + MTE3)"].append(ratio(store(c["ours"], aic), store(c["cann"], aic)))
        if aic:
            rows["MTE1 (L1 -> L0A / L0B)"].append(ratio(c["ours"]["MTE1"], c["cann"]["MTE1"]))
        rows["task (one tile, pipes in series)"].append(ratio(c["ours"]["task"], c["cann"]["task"]))
    lines += ["", "| every case's | cases | median ours / CANN | spread (min - max) |", "|---|---:|---:|---|"]
    for name, rs in rows.items():
        if not rs:
            continue  # no case of that kind (no matmul: no MTE1)
        n, med, lo, hi = summary(rs)
        lines.append(f"| {name} | {n} | {fmt_ratio(med)} | {fmt_ratio(lo)} - {fmt_ratio(hi)} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--cann", required=True, help="cann_side.py's JSON")
    r.add_argument("--port-check", default="build/port-check")
    r.add_argument("--commit", default="", help="the port-check commit the figures are of")
    r.add_argument("--out", default=RECORDED)
    t = sub.add_parser("table")
    t.add_argument("recorded", nargs="?", default=RECORDED)
    a = ap.parse_args()
    if a.cmd == "record":
        with open(a.cann) as f:
            cann_doc = json.load(f)
        rec = record(cann_doc, os.path.abspath(a.port_check), a.commit)
        with open(a.out, "w") as f:
            json.dump(rec, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {len(rec['cases'])} cases into {a.out}")
        print(table(rec))
        return 0
    try:
        with open(a.recorded) as f:
            rec = json.load(f)
    except (OSError, ValueError) as e:
        print(f"compare.py: cannot read recorded results {a.recorded}: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(table(rec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
