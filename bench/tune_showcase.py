#!/usr/bin/env python3
"""port-check tune on the showcase ports (issue 20's measurement).

    bench/tune_showcase.py --port-check BIN --pypto DIR --python EXE --work DIR \\
        [--platform a2a3 --platform a5] [--only REGEX] [--run 1]

For each project of projects/ (not the *_naive ones) and platform, two tunes from a cold cache under
WORK (nothing is written into the ports):

pruned   `port-check tune --run K`: the estimate prunes, the survivors and the port as it is compile,
         the best K run their golden on the simulator;
all      `port-check tune --no-prune --max-compiles 256`: every configuration compiled, none run
         (what the tune would cost without the estimate).

Prints one Markdown table: configurations, the share the estimate pruned, the pick and its verdict,
the port as it is (its rank and verdict; the pick ranks first by the cost model, so it is at least as
good by construction: what matters is that its golden passed), and the wall time of both tunes. WORK/tune_showcase.json keeps the figures.
Needs the PyPTO toolchain (and ptoas and the simulator for --run); a port without knobs is listed
as such.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tune(args, project: str, platform: str, cache: Path, extra: list[str]) -> tuple[dict, float]:
    cmd = [args.port_check, "tune", "--format", "json", "--platform", platform, "--pypto", args.pypto,
           "--python", args.python, "--cache-dir", str(cache), f"projects/{project}", *extra]
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    try:
        return json.loads(p.stdout)["projects"][0], seconds
    except (json.JSONDecodeError, KeyError, IndexError):
        return {"problem": f"exit {p.returncode}: {p.stderr.strip()[-300:]}"}, seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--pypto", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--platform", action="append")
    ap.add_argument("--only")
    ap.add_argument("--run", default="1")
    args = ap.parse_args()
    args.port_check = str(Path(args.port_check).resolve())
    platforms = args.platform or ["a2a3", "a5"]
    projects = sorted(p.name for p in (ROOT / "projects").iterdir()
                      if (p / "pypto_src").is_dir() and not p.name.endswith("_naive"))
    if args.only:
        projects = [p for p in projects if re.search(args.only, p)]
    rows, kept = [], []
    for project in projects:
        for platform in platforms:
            base = args.work / project / platform
            pruned, t_pruned = tune(args, project, platform, base / "pruned", ["--run", args.run])
            if "problem" in pruned:
                rows.append(f"| {project} | {platform} | {pruned['problem'][:90]} | | | | | |")
                kept.append({"project": project, "platform": platform, "problem": pruned["problem"]})
                continue
            every, t_all = tune(args, project, platform, base / "all", ["--no-prune", "--max-compiles", "256"])
            configs = pruned["configs"]
            ranked = [c for c in configs if c["verdict"] != "pruned"]
            now = next((c for c in configs if c["current"]), None)
            now_rank = ranked.index(now) + 1 if now in ranked else "-"
            pick = configs[0]
            golden = pick.get("golden", {}).get("status", "not run")
            verdict = pick["verdict"] if golden in ("passed", "not run") else f"{pick['verdict']}, golden {golden}"
            proposed = " (proposed)" if any(k.get("proposed") for k in pruned["knobs"]) else ""
            share = f"{pruned['pruned_by_estimate']} of {len(configs)}"
            rows.append(f"| {project}{proposed} | {platform} | {share} | `{pick['label']}` | {verdict} "
                        f"| `{now['label'] if now else '?'}`: rank {now_rank}, {now['verdict'] if now else '?'} "
                        f"| {t_pruned:.1f} s ({pruned['compiled']} compiled) | {t_all:.1f} s ({every.get('compiled', 0)} compiled) |")
            kept.append({"project": project, "platform": platform, "pruned": pruned, "all": every,
                         "seconds_pruned": t_pruned, "seconds_all": t_all})
    print("| port | platform | pruned by the estimate | pick | pick's verdict | the port as it is | "
          "tune (pruned, --run " + args.run + ") | every configuration compiled |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / "tune_showcase.json").write_text(json.dumps(kept, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
