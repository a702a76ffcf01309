#!/usr/bin/env python3
"""How long the device-time model takes at model size: a generated program of K kernels (a chain of
pl.at scopes, each dispatched T times by an orchestration loop) through `port-check report`, against
`port-check lint` of the same file (the same parse, model and estimate, no schedule or device time):
the difference is what the schedule, the device-time model and the HTML cost.

Usage: bench/perf_model_speed.py [--port-check build/port-check] [--kernels 300] [--tasks 64] [--runs 5]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def program(kernels, tasks):
    lines = ["import pypto.language as pl", "", "ROWS = %d" % (tasks * 16), "", "",
             "@pl.jit", "def chain("]
    for k in range(kernels + 1):
        out = "pl.Out[pl.Tensor[[ROWS, 256], pl.FP32]]" if k else "pl.Tensor[[ROWS, 256], pl.FP32]"
        lines.append(f"    t{k}: {out},")
    lines.append("):")
    lines.append(f"    for rb in pl.range({tasks}):")
    for k in range(kernels):
        lines += [f"        with pl.at(level=pl.Level.CORE_GROUP, name_hint=\"k{k}\"):",
                  f"            a = pl.load(t{k}, [rb * 16, 0], [16, 256])",
                  "            b = pl.exp(a)",
                  f"            pl.store(b, [rb * 16, 0], t{k + 1})"]
    lines.append(f"    return t{kernels}")
    return "\n".join(lines) + "\n"


def timed(cmd, cwd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", default="build/port-check")
    ap.add_argument("--kernels", type=int, default=300)
    ap.add_argument("--tasks", type=int, default=64)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    pc = os.path.abspath(a.port_check)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "chain.py"), "w") as f:
            f.write(program(a.kernels, a.tasks))
        lint = timed([pc, "lint", "--no-cache", "chain.py"], d, a.runs)
        report = timed([pc, "report", "--format", "json", "chain.py"], d, a.runs)
        out = subprocess.run([pc, "report", "--format", "json", "chain.py"], cwd=d, capture_output=True, text=True)
        import json
        row = json.loads(out.stdout)["schedule"][0]
        print(f"{a.kernels} kernels x {a.tasks} tasks = {row['tasks']} tasks; est. {row['device']['us']} us")
        print(f"lint (no cache) median {lint:.3f} s; report median {report:.3f} s; "
              f"schedule + device time + HTML: {report - lint:.3f} s")


if __name__ == "__main__":
    main()
