#!/usr/bin/env python3
"""An 8-agent loop checking the same ports with small edits, with and without a shared cache store
(issue 43, item 4; docs/shared-cache.md).

    bench/shared_cache_loop.py --port-check BIN [--agents 8] [--rounds 6] [--command lint|check|compile]
                               [--ports a,b,...] [--edits shared|private] [--same-path] [--stagger S]
                               [--work DIR]

Each agent is one process with its own copy of the workspace (projects/ of the chosen ports,
pypto-lib/) and its own local cache (<copy>/.port-check-cache). In round r every agent appends one
comment line to the kernel file of port r mod n and runs `port-check COMMAND` on all the ports.
--edits shared: every agent makes the same edit (many runners checking the same commits);
--edits private: the comment names the agent, so the edited port's entry is its own.
The loop runs twice: local caches only, then with a redis-server started on a free loopback port
(PORTCHECK_CACHE_REMOTE). Reported per run: lookups, hits per tier (from `port-check cache stats
--format json` of every agent), the hit rate, the wall time of the whole loop and the commands' mean.
--same-path runs each agent in its own mount namespace with its copy bound at one path (root only,
`unshare -m`), as containers or CI runners have it. Without it each copy stays at a path of its own,
which the workspace-relative compile, run and lint keys share entries across (docs/shared-cache.md).
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHOWCASE = ["flash_attention_prefill", "layernorm", "lightning_indexer_prolog", "paged_attention_decode",
            "qwen3_decode_layer", "rmsnorm_residual", "row_softmax", "swiglu_mlp"]
COMMON_PATH = os.path.join(tempfile.gettempdir(), "port-check-bench-agent")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def kernel_file(copy, port):
    files = sorted(p for p in (copy / "projects" / port / "pypto_src").glob("*.py") if p.name != "golden.py")
    return files[0]


def agent_loop(args):
    """One agent: the rounds in its copy (cwd), timings to --out."""
    copy = Path.cwd()
    ports = args.ports.split(",")
    times = []
    for r in range(args.rounds):
        port = ports[r % len(ports)]
        who = "" if args.edits == "shared" else f" by agent {args.agent}"
        with open(kernel_file(copy, port), "a") as f:
            f.write(f"# round {r} edit{who}\n")
        start = time.monotonic()
        argv = [args.port_check, args.command, "--format", "json"] + (["--no-ledger"] if args.command != "lint" else [])
        p = subprocess.run(argv + [f"projects/{q}" for q in ports], capture_output=True, text=True)
        times.append(time.monotonic() - start)
        if p.returncode not in (0, 1):
            sys.stderr.write(f"agent {args.agent} round {r}: exit {p.returncode}: {p.stderr[-2000:]}\n")
    stats = subprocess.run([args.port_check, "cache", "stats", "--format", "json"], capture_output=True, text=True)
    Path(args.out).write_text(json.dumps({"times": times, "stats": json.loads(stats.stdout)["stats"]}))


def make_copy(source, dest, ports):
    dest.mkdir(parents=True)
    for port in ports:
        shutil.copytree(source / "projects" / port, dest / "projects" / port,
                        ignore=shutil.ignore_patterns(".port-check", "__pycache__"))
    shutil.copytree(source / "pypto-lib", dest / "pypto-lib", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "port-check.json").write_text("{}\n")


def run_loop(args, source, work, remote):
    agents = []
    for a in range(args.agents):
        copy = work / f"agent{a}"
        make_copy(source, copy, args.ports.split(","))
        env = dict(os.environ)
        env["PORTCHECK_CACHE_REMOTE"] = remote or ""
        inner = [sys.executable, os.path.abspath(__file__), "--agent", str(a), "--out", str(work / f"agent{a}.json"),
                 "--port-check", args.port_check, "--rounds", str(args.rounds), "--command", args.command,
                 "--ports", args.ports, "--edits", args.edits]
        if args.same_path:
            script = f"mkdir -p {COMMON_PATH} && mount --bind '{copy}' {COMMON_PATH} && cd {COMMON_PATH} && exec \"$@\""
            argv = ["unshare", "-m", "sh", "-c", script, "sh"] + inner
            agents.append((argv, env, None))
        else:
            agents.append((inner, env, copy))
    start = time.monotonic()
    procs = []
    for argv, env, cwd in agents:
        procs.append(subprocess.Popen(argv, env=env, cwd=cwd))
        time.sleep(args.stagger)  # agents are not in lockstep: each starts a little after the previous one
    for p in procs:
        p.wait()
    wall = time.monotonic() - start
    totals = {"lookups": 0, "local_hits": 0, "remote_hits": 0, "remote_rejected": 0, "remote_errors": 0,
              "remote_writes": 0, "commands": 0, "command_seconds": 0.0}
    for a in range(args.agents):
        d = json.loads((work / f"agent{a}.json").read_text())
        s = d["stats"]
        totals["lookups"] += s["local"]["hits"] + s["local"]["misses"]
        totals["local_hits"] += s["local"]["hits"]
        totals["remote_hits"] += s["remote"]["hits"]
        totals["remote_rejected"] += s["remote"]["rejected"]
        totals["remote_errors"] += s["remote"]["errors"]
        totals["remote_writes"] += s["remote"]["writes"]
        totals["commands"] += len(d["times"])
        totals["command_seconds"] += sum(d["times"])
    totals["wall_seconds"] = wall
    return totals


def start_redis(work):
    port = free_port()
    (work / "redis").mkdir()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(work / "redis")], stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc, f"redis://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit("redis-server did not start")


def line(name, t):
    hits = t["local_hits"] + t["remote_hits"]
    rate = 100.0 * hits / t["lookups"] if t["lookups"] else 0.0
    return (f"| {name} | {t['lookups']} | {t['local_hits']} | {t['remote_hits']} | {hits}/{t['lookups']} = {rate:.1f}% | "
            f"{t['wall_seconds']:.1f} s | {t['command_seconds'] / t['commands']:.2f} s | {t['remote_errors']} | "
            f"{t['remote_rejected']} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--agents", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--command", choices=["lint", "check", "compile"], default="lint")
    ap.add_argument("--ports", default=",".join(SHOWCASE))
    ap.add_argument("--edits", choices=["shared", "private"], default="shared")
    ap.add_argument("--same-path", action="store_true")
    ap.add_argument("--stagger", type=float, default=0.0, help="seconds between the agents' starts")
    ap.add_argument("--work", type=Path)
    ap.add_argument("--source", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--agent", type=int)
    ap.add_argument("--out")
    args = ap.parse_args()
    args.port_check = os.path.abspath(args.port_check)
    if args.agent is not None:
        return agent_loop(args)
    if not shutil.which("redis-server"):
        sys.exit("redis-server is not installed (Debian package redis-server)")
    work = args.work or Path(tempfile.mkdtemp(prefix="shared-cache-loop-"))
    results = {}
    results["local only"] = run_loop(args, args.source, work / "local", None)
    redis, url = start_redis(work)
    try:
        results["shared (redis)"] = run_loop(args, args.source, work / "shared", url)
    finally:
        redis.kill()
        redis.wait()
    print(f"{args.agents} agents x {args.rounds} rounds of `port-check {args.command}` on {len(args.ports.split(','))} "
          f"ports, {args.edits} edits, agents started {args.stagger} s apart{', same path' if args.same_path else ''}\n")
    print("| store | lookups | local hits | remote hits | hit rate | wall (loop) | mean command | remote errors | rejected |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, t in results.items():
        print(line(name, t))
    (work / "shared_cache_loop.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
