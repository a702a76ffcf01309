#!/usr/bin/env python3
"""port-check tune --ray on a local Ray cluster this test starts (docs/scale-out.md).

A head node with no CPU and two worker nodes of one CPU each, on loopback (ray.cluster_utils.Cluster, in
a helper process of the Python that has ray). A tune sweep of a port with a TUNABLES knob (three
configurations survive the screen) is compiled and run by the stand-in interpreter
(tests/fixtures/run/fake-run-python.sh, recorded results; each compile takes FAKE_COMPILE_SLEEP seconds)
once locally and once with --ray, and one worker node is killed while it compiles: its job is retried on
the other node, every job has a result, and the ranking and the pick are the local run's.

Also, without the cluster: --ray with a Python that has no ray is exit 2 naming it (tune and eval), and
--ray with --no-compile is a usage error.

--real: the same comparison on projects/row_softmax with the real toolchain (PYPTO_ROOT, PYPTO_PYTHON,
PTOAS_ROOT as /work-style toolchain.env sets them); skipped (77) naming what is absent.

Skipped (77) when no Python with ray is found: scripts/bootstrap.sh makes one
(~/.cache/port-check/ray-venv, ray pinned there), or set PORTCHECK_RAY_PYTHON.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77

INCORE = '''import pypto.language as pl

ROWS = 1024
COLS = 256
ROW_TILE = 32
TUNABLES = {"ROW_TILE": (16, 32, 64, 128)}


@pl.jit.incore
def exp_rows(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    for rb in pl.range(ROWS // ROW_TILE):
        t = pl.load(x, [rb * ROW_TILE, 0], [ROW_TILE, COLS])
        e = pl.exp(t)
        s = pl.add(e, t)
        pl.store(s, [rb * ROW_TILE, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    out = exp_rows(x, out)
    return out
'''

# Runs in the Python with ray: the cluster, and a node killed on request ("kill NODE_ID" on stdin).
CLUSTER = r'''
import json, sys
from ray.cluster_utils import Cluster
# Every node on loopback (Ray's default is the address of the host's default route; main() sets the
# variable that keeps Ray's own address resolution on loopback too).
LOOPBACK = "127.0.0.1"
cluster = Cluster(initialize_head=True,
                  head_node_args={"num_cpus": 0, "include_dashboard": False, "node_ip_address": LOOPBACK})
workers = [cluster.add_node(num_cpus=1, node_ip_address=LOOPBACK) for _ in range(int(sys.argv[1]))]
assert cluster.address.startswith(LOOPBACK + ":"), cluster.address
cluster.wait_for_nodes()
print(json.dumps({"address": cluster.address, "workers": [w.node_id for w in workers]}), flush=True)
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "kill":
        for w in list(workers):
            if w.node_id == words[1]:
                cluster.remove_node(w, allow_graceful=False)
                workers.remove(w)
        print("killed", flush=True)
    elif words and words[0] == "stop":
        break
cluster.shutdown()
'''

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def default_ray_python():
    if os.environ.get("PORTCHECK_RAY_PYTHON"):
        return os.environ["PORTCHECK_RAY_PYTHON"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "port-check", "ray-venv", "bin", "python")


def has_ray(python):
    try:
        r = subprocess.run([python, "-c", "import ray; print(ray.__version__)"], capture_output=True, text=True,
                           timeout=120)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def make_workspace(ws, source_dir):
    def write(rel, text):
        p = os.path.join(ws, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
    write(".git/HEAD", "ref: refs/heads/main\n")
    write("pypto/python/pypto/__init__.py", "")
    write("pypto/runtime/simpler_setup/__init__.py", "")
    write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n")
    write("projects/p/pypto_src/incore.py", INCORE)
    write("projects/p/pypto_src/FAKE_RUN", "pass\n")
    write("projects/p/pypto_src/FAKE_COMPILE_SLEEP", "4\n")


def ranking(doc):
    """What must not depend on where the jobs ran: each configuration's rank, verdict, compile and golden."""
    p = doc["projects"][0]
    rows = [(c["label"], c["verdict"], c.get("compile", {}).get("status"), c.get("golden", {}).get("status"))
            for c in p["configs"]]
    return rows, p.get("pick")


def tune(port_check, ws, args, env=None):
    return subprocess.run([port_check, "--format", "json"] + args, cwd=ws, capture_output=True, text=True,
                          env=env, timeout=300)


def without_ray(port_check, ws, fake):
    """No ray in the interpreter named: exit 2 and why, for tune and eval."""
    python = shutil.which("python3") or "/usr/bin/python3"
    if has_ray(python):
        print(f"note: {python} has ray; the no-ray case uses a Python that cannot import it")
    no_ray = os.path.join(ws, "no-ray-python")
    with open(no_ray, "w", encoding="utf-8") as f:  # a Python on whose path ray cannot be found
        f.write(f"#!/bin/sh\nexec {python} -I -S \"$@\"\n")
    os.chmod(no_ray, 0o755)
    r = tune(port_check, ws, ["--pypto", os.path.join(ws, "pypto"), "--python", fake, "tune", "projects/p",
                              "--ray", "auto", "--ray-python", no_ray, "--cache-dir", os.path.join(ws, "c0")])
    check(r.returncode == 2, f"tune --ray with no ray: exit 2 (got {r.returncode})")
    check("Ray is not installed for " + no_ray in r.stderr and "--ray-python / PORTCHECK_RAY_PYTHON" in r.stderr,
          f"tune --ray with no ray names the interpreter and how to point at another: {r.stderr.strip()[-400:]}")
    r = subprocess.run([port_check, "--pypto", os.path.join(ws, "pypto"), "--python", fake, "eval",
                        "evals/none", "attempt", "--ray", "auto", "--ray-python", no_ray], cwd=ws,
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 2 and "Ray is not installed for " + no_ray in r.stderr,
          f"eval --ray with no ray: exit 2 naming the interpreter (got {r.returncode}): {r.stderr.strip()[-300:]}")
    r = tune(port_check, ws, ["tune", "projects/p", "--no-compile", "--ray", "auto"])
    check(r.returncode == 2 and "--ray sends the compiles and runs" in r.stderr,
          f"tune --ray --no-compile is a usage error: {r.returncode} {r.stderr.strip()[-200:]}")


def start_cluster(ray_python, workers, log_path):
    """The cluster in a helper process of its own session (its Ray processes die with it); its log to a file."""
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    log = open(log_path, "w", encoding="utf-8")
    helper = subprocess.Popen([ray_python, "-c", CLUSTER, str(workers)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=log, text=True, env=env, start_new_session=True)
    line = helper.stdout.readline()
    if not line:
        helper.wait(timeout=30)
        with open(log_path, encoding="utf-8", errors="replace") as f:
            raise RuntimeError("the Ray cluster did not start: " + f.read()[-2000:])
    return helper, json.loads(line)


def stop_cluster(helper):
    try:
        helper.stdin.write("stop\n")
        helper.stdin.flush()
        helper.wait(timeout=60)
    except Exception:
        pass
    try:  # whatever of the cluster is left in the helper's process group
        os.killpg(helper.pid, 9)
    except OSError:
        pass


def traces(trace):
    """{job id: [node ids it started on]} from the workers' witness files (PORTCHECK_RAY_TRACE)."""
    out = {}
    for name in os.listdir(trace) if os.path.isdir(trace) else []:
        job = name.rsplit(".", 1)[0]
        with open(os.path.join(trace, name), encoding="utf-8") as f:
            out.setdefault(job, []).append(f.read().strip())
    return out


def make_eval_task(ws, source_dir):
    """evals/tasks/softmax_rows from the row_softmax ports (as tests/unit/evals/eval_command_test.cpp does) and
    two attempts whose runs replay recorded real a2a3sim results: one that passes, one with a constant output."""
    projects = os.path.join(source_dir, "projects")
    task = os.path.join(ws, "evals", "tasks", "softmax_rows")
    os.makedirs(os.path.join(task, "reference"))
    with open(os.path.join(task, "task.json"), "w", encoding="utf-8") as f:
        json.dump({"schema": "port-check-eval-task/1", "kind": "row-reduction", "title": "Row softmax",
                   "entry": "row_softmax"}, f)
    with open(os.path.join(task, "task.md"), "w", encoding="utf-8") as f:
        f.write("Port original/ to projects/softmax_rows.\n")
    ignore = shutil.ignore_patterns("__pycache__", ".port-check")
    shutil.copytree(os.path.join(projects, "row_softmax", "original"), os.path.join(task, "original"), ignore=ignore)
    shutil.copy(os.path.join(projects, "row_softmax", "pypto_src", "golden.py"), os.path.join(task, "reference"))
    shutil.copytree(os.path.join(projects, "row_softmax_naive", "pypto_src"), os.path.join(task, "naive", "pypto_src"),
                    ignore=ignore)
    for name, run in (("softmax_rows", "real_sim_contract_row_softmax"),):
        dst = os.path.join(ws, "attempts", name, "pypto_src")
        shutil.copytree(os.path.join(projects, "row_softmax", "pypto_src"), dst, ignore=ignore)
        with open(os.path.join(dst, "FAKE_RUN"), "w", encoding="utf-8") as f:
            f.write(run + "\n")


def eval_on_ray(port_check, ws, fake, ray_python, address):
    """eval --ray scores the attempt as a Ray task, then replays it here: the same result as a local eval."""
    base = [port_check, "--pypto", os.path.join(ws, "pypto"), "--python", fake, "--format", "json", "eval",
            "--set", "evals/tasks", "--attempts", "attempts"]
    local = subprocess.run(base + ["--cache-dir", os.path.join(ws, "eval-local")], cwd=ws, capture_output=True,
                           text=True, timeout=300)
    env = dict(os.environ, PORTCHECK_RAY_TRACE=os.path.join(ws, "eval-trace"), RAY_USAGE_STATS_ENABLED="0")
    t0 = time.monotonic()
    ray = subprocess.run(base + ["--cache-dir", os.path.join(ws, "eval-ray"), "--ray", address, "--ray-python",
                                 ray_python, "--keep"], cwd=ws, capture_output=True, text=True, timeout=300, env=env)
    print(f"eval --ray: {time.monotonic() - t0:.1f} s")
    check(local.returncode == 0 and ray.returncode == 0,
          f"eval locally and on Ray: exit 0 both (got {local.returncode}, {ray.returncode}) {ray.stderr[-400:]}")
    if local.returncode != 0 or ray.returncode != 0:
        return

    def verdicts(out):
        return [(r["attempt"], r["verdict"], [(c["name"], c["state"]) for c in r["checks"]])
                for r in json.loads(out)["results"]]
    check(verdicts(ray.stdout) == verdicts(local.stdout),
          f"eval --ray gives the local verdict and checks: {verdicts(ray.stdout)}")
    check(sorted(traces(os.path.join(ws, "eval-trace"))) == ["attempts_softmax_rows"],
          f"one Ray job per attempt: {sorted(traces(os.path.join(ws, 'eval-trace')))}")
    # The worker's compiles are the driver's replays: had the driver missed them (another scratch folder, another
    # key), it would have compiled again and left more entries than the local eval's.
    def entries(cache):
        folder = os.path.join(ws, cache, "results")
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    # The stand-in logs each start of the interpreter beside the port (starts.log): the driver's own scoring,
    # in the scratch folder --keep leaves, started none (every compile and run on both platforms replayed).
    scratch = [d for d in os.listdir(os.path.join(ws, "eval-ray", "eval")) if d.startswith("softmax_rows-ray-")]
    starts = [os.path.join(ws, "eval-ray", "eval", d, "projects", "softmax_rows", "starts.log") for d in scratch]
    check(len(scratch) == 1 and not os.path.exists(starts[0]),
          f"the driver replayed the worker's compiles and runs, starting no interpreter: {scratch} "
          f"{open(starts[0]).read() if scratch and os.path.exists(starts[0]) else ''}")
    check(len(entries("eval-ray")) == len(entries("eval-local")) > 0,
          f"the worker's compiles were the driver's replays: {len(entries('eval-ray'))} cache entries, "
          f"{len(entries('eval-local'))} locally")


def kill_mid_sweep(port_check, ws, fake, ray_python):
    base = ["--pypto", os.path.join(ws, "pypto"), "--python", fake, "tune", "projects/p", "--run", "2"]
    t0 = time.monotonic()
    local = tune(port_check, ws, base + ["--cache-dir", os.path.join(ws, "cache-local")])
    check(local.returncode == 0, f"local tune: exit 0 (got {local.returncode}) {local.stderr[-300:]}")
    local_doc = json.loads(local.stdout)
    print(f"local tune: {time.monotonic() - t0:.1f} s")
    t0 = time.monotonic()
    helper, cluster = start_cluster(ray_python, 2, os.path.join(ws, "cluster.log"))
    print(f"cluster up in {time.monotonic() - t0:.1f} s at {cluster['address']}")
    try:
        trace = os.path.join(ws, "trace")
        env = dict(os.environ, PORTCHECK_RAY_TRACE=trace, RAY_USAGE_STATS_ENABLED="0")
        t0 = time.monotonic()
        driver = subprocess.Popen([port_check, "--format", "json"] + base +
                                  ["--cache-dir", os.path.join(ws, "cache-ray"), "--ray", cluster["address"],
                                   "--ray-python", ray_python],
                                  cwd=ws, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        victim = cluster["workers"][1]
        killed_job = None
        deadline = time.monotonic() + 90
        while killed_job is None and time.monotonic() < deadline and driver.poll() is None:
            for job, nodes in traces(trace).items():
                if victim in nodes:
                    killed_job = job
            time.sleep(0.2)
        check(killed_job is not None, "a job started on the worker node to be killed")
        if killed_job:
            helper.stdin.write(f"kill {victim}\n")
            helper.stdin.flush()
            helper.stdout.readline()
            print(f"killed node {victim[:12]} while it ran '{killed_job}' ({time.monotonic() - t0:.1f} s in)")
        out, err = driver.communicate(timeout=240)
        print(f"ray tune: {time.monotonic() - t0:.1f} s")
        eval_on_ray(port_check, ws, fake, ray_python, cluster["address"])
    finally:
        stop_cluster(helper)
    check(driver.returncode == 0, f"ray tune: exit 0 (got {driver.returncode}) {err[-600:]}")
    if driver.returncode != 0:
        return
    doc = json.loads(out)
    check(ranking(doc) == ranking(local_doc),
          f"the ranking and the pick are the local run's: {ranking(doc)} vs {ranking(local_doc)}")
    ray = doc["projects"][0].get("ray", {})
    compiled = doc["projects"][0]["compiled"]
    check(compiled == 3 and ray.get("compiles") == 3, f"three configurations compiled on the cluster: {ray}")
    check(ray.get("replayed") == ray.get("compiles"),
          f"the driver replayed every compile from the cache, none compiled again: {ray}")
    check(ray.get("jobs") == 5, f"3 compile jobs and 2 run jobs, none lost: {ray}")
    seen = traces(trace)
    check(len(seen) == 5, f"every job started: {sorted(seen)}")
    if killed_job:
        nodes = seen.get(killed_job, [])
        check(len(nodes) >= 2 and nodes.count(victim) == 1 and cluster["workers"][0] in nodes,
              f"'{killed_job}' was retried on the surviving node after its node died: {nodes}")


def real_toolchain(port_check, ray_python, source_dir):
    missing = [v for v in ("PYPTO_ROOT", "PYPTO_PYTHON", "PTOAS_ROOT") if not os.environ.get(v)]
    if missing:
        print(f"SKIP: the real-toolchain variant needs {', '.join(missing)} (source the toolchain's env file)")
        return SKIP
    ws = tempfile.mkdtemp(prefix="port-check-ray-real-")
    try:
        shutil.copytree(os.path.join(source_dir, "projects", "row_softmax"), os.path.join(ws, "projects", "row_softmax"),
                        ignore=shutil.ignore_patterns(".port-check", "__pycache__"))
        shutil.copytree(os.path.join(source_dir, "pypto-lib"), os.path.join(ws, "pypto-lib"), symlinks=True)
        os.makedirs(os.path.join(ws, ".git"))
        with open(os.path.join(ws, ".git", "HEAD"), "w") as f:
            f.write("ref: refs/heads/main\n")
        base = ["tune", "projects/row_softmax", "--max-compiles", "2"]
        local = tune(port_check, ws, base + ["--cache-dir", os.path.join(ws, "cache-local")])
        check(local.returncode == 0, f"real local tune: exit 0 ({local.stderr[-300:]})")
        helper, cluster = start_cluster(ray_python, 2, os.path.join(ws, "cluster.log"))
        try:
            r = tune(port_check, ws, base + ["--cache-dir", os.path.join(ws, "cache-ray"), "--ray", cluster["address"],
                                             "--ray-python", ray_python])
        finally:
            stop_cluster(helper)
        check(r.returncode == 0, f"real ray tune: exit 0 ({r.stderr[-300:]})")
        if local.returncode == 0 and r.returncode == 0:
            doc = json.loads(r.stdout)
            check(ranking(doc) == ranking(json.loads(local.stdout)),
                  f"real toolchain: the Ray tune ranks and picks as the local one: {ranking(doc)}")
            ray = doc["projects"][0].get("ray", {})
            check(ray.get("compiles", 0) > 0 and ray.get("replayed") == ray.get("compiles"),
                  f"real toolchain: every compile made on the cluster was replayed by the driver: {ray}")
    finally:
        shutil.rmtree(ws, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--real", action="store_true")
    args = ap.parse_args()
    # The cluster, the driver and the workers on loopback only. Ray turns a loopback address given to
    # ray.init into the host's own IP (services.resolve_ip_for_localhost) unless its multi-node mode is
    # off, which this variable does on Linux as it does by default on macOS and Windows; every process
    # this test starts inherits it.
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    port_check = os.path.abspath(args.port_check)
    fake = os.path.abspath(os.path.join(args.source_dir, "tests", "fixtures", "run", "fake-run-python.sh"))
    ray_python = default_ray_python()
    version = has_ray(ray_python)
    if args.real:
        if not version:
            print(f"SKIP: no Python with ray at {ray_python}: run scripts/bootstrap.sh or set PORTCHECK_RAY_PYTHON")
            return SKIP
        rc = real_toolchain(port_check, ray_python, args.source_dir)
        if failures:
            return 1
        return rc
    ws = tempfile.mkdtemp(prefix="port-check-ray-")
    try:
        make_workspace(ws, args.source_dir)
        make_eval_task(ws, args.source_dir)
        without_ray(port_check, ws, fake)
        if not version:
            print(f"SKIP: no Python with ray at {ray_python}: scripts/bootstrap.sh makes it (ray from PyPI), or set "
                  "PORTCHECK_RAY_PYTHON; the cluster tests did not run")
            return 1 if failures else SKIP
        print(f"ray {version} at {ray_python}")
        kill_mid_sweep(port_check, ws, fake, ray_python)
    finally:
        shutil.rmtree(ws, ignore_errors=True)
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
