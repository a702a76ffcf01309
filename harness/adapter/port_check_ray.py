#!/usr/bin/env python3
"""port-check's Ray driver (docs/scale-out.md): runs the jobs of a tune sweep or an eval set as Ray tasks.

port-check (the driver) writes a spec and runs this script with the interpreter that has ray:

    <python> -B port_check_ray.py --spec SPEC.json --result RESULT.json

SPEC: {"address": "auto" | "HOST:PORT", "port_check": the driver's binary, "cwd": the workspace,
       "env": the jobs' environment, "max_retries": N, "num_cpus": C,
       "jobs": [{"id": "...", "args": [port-check arguments]}]}

Each job is one Ray task that runs `port-check ARGS` in `cwd` on whichever node Ray picks, with the
driver's environment (so PORTCHECK_CACHE_REMOTE, the toolchain's variables and the cache paths are the
driver's), and returns its exit status, standard output and the end of its standard error. A task whose
worker process or node dies is retried up to max_retries times (Ray's system-failure retries); the job's
own failures (a compile error, a failed golden) are results, never retried. The child port-check is
killed with its Ray worker (PR_SET_PDEATHSIG), so a lost node leaves no compile writing behind the retry.

RESULT: {"schema": "port-check-ray-result/1", "results": [{"id", "exit_code", "out", "err", "node"}], "seconds"}.

Exit status: 0 every job ran (whatever its own exit status); 3 ray cannot be imported by this
interpreter; 4 no Ray cluster at the address; 5 a job was lost (its retries used up); 6 a bad spec.
"""

import argparse
import json
import os
import sys
import time


def say(text):
    print(f"port-check-ray: {text}", file=sys.stderr, flush=True)


def run_job_on_worker(spec, job):
    """The body of one Ray task: port-check ARGS on this worker."""
    import ctypes
    import shutil
    import signal
    import subprocess

    import ray

    node = ray.get_runtime_context().get_node_id()
    trace = spec["env"].get("PORTCHECK_RAY_TRACE")
    if trace:  # the tests' witness of each attempt: which node started which job
        safe = "".join(c if c.isalnum() or c in "=-_." else "_" for c in job["id"])
        os.makedirs(trace, exist_ok=True)
        with open(os.path.join(trace, f"{safe}.{os.getpid()}"), "w", encoding="utf-8") as f:
            f.write(node)
    program = spec["port_check"]
    if not os.access(program, os.X_OK):
        program = shutil.which("port-check", path=spec["env"].get("PATH")) or program

    def die_with_worker():
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except Exception:  # not Linux: the child outlives a killed worker, as any subprocess would
            pass

    try:
        p = subprocess.run([program] + job["args"], cwd=spec["cwd"], env=spec["env"], capture_output=True,
                           text=True, errors="replace", preexec_fn=die_with_worker)
    except OSError as e:
        return {"id": job["id"], "exit_code": 127, "out": "", "err": f"cannot run {program}: {e}", "node": node}
    return {"id": job["id"], "exit_code": p.returncode, "out": p.stdout, "err": p.stderr[-4000:], "node": node}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", required=True)
    ap.add_argument("--result", required=True)
    args = ap.parse_args()
    try:
        with open(args.spec, encoding="utf-8") as f:
            spec = json.load(f)
        jobs = spec["jobs"]
        address = spec["address"]
    except (OSError, ValueError, KeyError) as e:
        say(f"bad spec {args.spec}: {e}")
        return 6
    try:
        import ray
    except Exception as e:  # ImportError, or a broken install
        say(f"cannot import ray with {sys.executable}: {type(e).__name__}: {e}")
        return 3
    start = time.monotonic()
    try:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    except Exception as e:
        say(f"no Ray cluster at {address}: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
        return 4
    remote = ray.remote(num_cpus=spec.get("num_cpus", 1), max_retries=spec.get("max_retries", 3),
                        retry_exceptions=False)(run_job_on_worker)
    refs = [remote.remote(spec, job) for job in jobs]
    say(f"{len(refs)} job(s) submitted to {address}")
    index = {ref: i for i, ref in enumerate(refs)}
    results = [None] * len(refs)
    pending = list(refs)
    lost = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            i = index[ref]
            try:
                results[i] = ray.get(ref)
            except Exception as e:  # WorkerCrashedError, NodeDiedError ... after max_retries
                lost.append(f"{jobs[i]['id']}: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
        say(f"{len(refs) - len(pending)}/{len(refs)} done")
    seconds = time.monotonic() - start
    if lost:
        say(f"{len(lost)} job(s) lost after {spec.get('max_retries', 3)} retries: " + "; ".join(lost))
        return 5
    tmp = args.result + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"schema": "port-check-ray-result/1", "results": results, "seconds": seconds}, f)
    os.replace(tmp, args.result)
    try:
        ray.shutdown()
    except Exception as e:  # a node lost during the jobs can leave the connection half closed: the results stand
        say(f"disconnecting from the cluster: {type(e).__name__}: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
