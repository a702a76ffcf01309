#!/usr/bin/env python3
"""port-check tune of a showcase port on one process, on --jobs threads, and on a local Ray cluster (issue 43).

    bench/ray_tune.py --port-check BIN --pypto DIR --python EXE --work DIR \\
        [--project swiglu_mlp] [--platform a2a3] [--workers 2] [--run 1] [--max-compiles 16] [--no-prune]
        [--ray-python PY]

Three tunes of projects/PROJECT, each from a cold cache of its own under WORK (nothing is written into
the port):

one process   `tune --jobs 1`: the survivors compiled one after the other on this machine;
threads       `tune --jobs N`: the local default on N cores;
ray           `tune --ray ADDR`: a Ray cluster this script starts on this machine (a head with no CPU and
              N worker nodes of one CPU each, ray.cluster_utils.Cluster), every compile and golden run a
              Ray task; the driver then replays them from the cache and ranks.

Prints one Markdown table: wall time of each tune (the cluster's start-up apart), configurations compiled
and run, the pick, and whether the whole ranking (each configuration's rank, verdict, compile status and
golden) equals the one-process tune's. WORK/ray_tune.json keeps the figures. Needs the PyPTO toolchain
(and the simulator for --run) and a Python with ray (scripts/bootstrap.sh makes one).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CLUSTER = r'''
import json, sys, time
start = time.monotonic()
from ray.cluster_utils import Cluster
cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
for _ in range(int(sys.argv[1])):
    cluster.add_node(num_cpus=1)
cluster.wait_for_nodes()
print(json.dumps({"address": cluster.address, "seconds": time.monotonic() - start}), flush=True)
sys.stdin.readline()
cluster.shutdown()
'''


def tune(args, cache: Path, extra: list[str]) -> tuple[dict, float]:
    cmd = [args.port_check, "tune", "--format", "json", "--platform", args.platform, "--pypto", args.pypto,
           "--python", args.python, "--cache-dir", str(cache), "--run", args.run, "--max-compiles",
           args.max_compiles, f"projects/{args.project}", *(["--no-prune"] if args.no_prune else []), *extra]
    shutil.rmtree(cache, ignore_errors=True)
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    try:
        return json.loads(p.stdout)["projects"][0], seconds
    except (json.JSONDecodeError, KeyError, IndexError):
        return {"problem": f"exit {p.returncode}: {p.stderr.strip()[-600:]}"}, seconds


def ranking(project: dict):
    return [(c["label"], c["verdict"], c.get("compile", {}).get("status"), c.get("golden", {}).get("status"))
            for c in project.get("configs", [])]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--pypto", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--project", default="swiglu_mlp")
    ap.add_argument("--platform", default="a2a3")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--run", default="1")
    ap.add_argument("--max-compiles", default="16")
    ap.add_argument("--no-prune", action="store_true", help="compile every configuration (a longer sweep)")
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    ap.add_argument("--ray-python", default=os.environ.get("PORTCHECK_RAY_PYTHON")
                    or str(Path(cache_home) / "port-check" / "ray-venv" / "bin" / "python"))
    args = ap.parse_args()
    args.port_check = str(Path(args.port_check).resolve())
    args.work.mkdir(parents=True, exist_ok=True)
    rows = []
    one, t_one = tune(args, args.work / "one", ["--jobs", "1"])
    rows.append(("one process (--jobs 1)", one, t_one))
    threads, t_threads = tune(args, args.work / "threads", ["--jobs", str(args.workers)])
    rows.append((f"threads (--jobs {args.workers})", threads, t_threads))
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    with open(args.work / "cluster.log", "w") as log:
        helper = subprocess.Popen([args.ray_python, "-c", CLUSTER, str(args.workers)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=log, text=True, env=env, start_new_session=True)
        cluster = json.loads(helper.stdout.readline() or "{}")
        try:
            if not cluster:
                print("the Ray cluster did not start: see", args.work / "cluster.log", file=sys.stderr)
                return 2
            ray, t_ray = tune(args, args.work / "ray", ["--ray", cluster["address"], "--ray-python", args.ray_python])
            rows.append((f"ray ({args.workers} worker nodes x 1 CPU)", ray, t_ray))
        finally:
            helper.stdin.write("\n")
            helper.stdin.flush()
            try:
                helper.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(helper.pid, 9)
            except OSError:
                pass
    print(f"{args.project} ({args.platform}), tune --run {args.run} --max-compiles {args.max_compiles}"
          f"{' --no-prune' if args.no_prune else ''}; "
          f"Ray cluster start-up {cluster['seconds']:.1f} s (not in the figures)\n")
    print("| tune | wall time | compiled | run | pick | ranking = one process's |")
    print("|---|---|---|---|---|---|")
    record = []
    for name, p, seconds in rows:
        same = "yes" if ranking(p) == ranking(one) and p.get("pick") == one.get("pick") else "NO"
        ray_note = ""
        if "ray" in p:
            ray_note = f" ({p['ray']['jobs']} jobs, {p['ray']['replayed']} of {p['ray']['compiles']} compiles replayed)"
        if "problem" in p:
            print(f"| {name} | {seconds:.1f} s | - | - | {p['problem']} | - |")
        else:
            print(f"| {name} | {seconds:.1f} s{ray_note} | {p['compiled']} | {p['ran']} | `{p.get('pick')}` | {same} |")
        record.append({"tune": name, "seconds": seconds, "project": p})
    (args.work / "ray_tune.json").write_text(json.dumps({"cluster_seconds": cluster["seconds"], "rows": record}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
