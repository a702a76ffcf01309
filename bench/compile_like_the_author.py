#!/usr/bin/env python3
"""Does `port-check compile` compile what the author compiles? (docs/compile-adapter.md §1)

    bench/compile_like_the_author.py --pypto DIR --pypto-lib DIR --python EXE --work DIR \\
        --port-check BIN [--before BIN] [--count 25] [--seed 17] [--timeout 240] [--jobs 1]

Draws COUNT program files at random (fixed SEED) from pypto-lib's examples/ and models/ and pypto's
examples/ (files with a @pl.jit or @pl.program and a __main__ block), then for each:

1. runs it the way its repository documents: from the repository root, pypto-lib's root on
   PYTHONPATH, `python FILE -p a2a3sim` when its argparse takes -p (pypto: `python FILE`), with
   pass dumps turned on and the compiler's output redirected into WORK (PYPTO_PROG_BUILD_DIR);
   without a simulator the run fails at dispatch, after compiling;
2. runs `port-check compile FILE` (BIN, and the --before binary when given) with the same
   PYTHONPATH, its cache in WORK;
3. compares, per compiled program, the kernel names (kernels/, ptoas/) and the (function, space)
   figures of the *_after_AllocateMemoryAddr.py dumps (high-water mark: the largest offset + size).

Writes WORK/results.jsonl (one line per file) and prints a summary table. Nothing is written into
the checkouts (PYTHONDONTWRITEBYTECODE, output folders in WORK); check `git status` afterwards.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import subprocess
import sys
import time

# The corpus (program files of both repositories) and an AllocateMemoryAddr dump's figures, as the
# real-corpus bench reads them.
from real_corpus import corpus, dump_figures

AUTHOR_RUN = '''
import os, runpy, sys
path = os.path.abspath(sys.argv[1])
sys.argv = [path, *sys.argv[2:]]
sys.path.insert(0, os.path.dirname(path))
import pypto.ir
compile_module = sys.modules["pypto.ir.compile"]
original = compile_module.compile
def with_dumps(program, *args, **kwargs):
    kwargs["dump_passes"] = True
    return original(program, *args, **kwargs)
compile_module.compile = with_dumps
pypto.ir.compile = with_dumps
runpy.run_path(path, run_name="__main__")
'''

def programs_under(top: str) -> list[dict]:
    """Kernels and SRAM figures of every compiler output folder below `top` that has the dump."""
    found = []
    for dump in sorted(glob.glob(os.path.join(top, "**", "passes_dump", "*_after_AllocateMemoryAddr.py"),
                                 recursive=True)):
        folder = os.path.dirname(os.path.dirname(dump))
        kernels = sorted({os.path.splitext(os.path.basename(k))[0] for k in
                          glob.glob(os.path.join(folder, "kernels", "**", "*.*"), recursive=True)
                          + glob.glob(os.path.join(folder, "ptoas", "*.pto"))})
        found.append({"folder": folder, "kernels": kernels, "sram": dump_figures(dump)})
    return found


def sample(roots: dict[str, str], count: int, seed: int) -> list[tuple[str, str]]:
    pool = sorted(corpus(roots, None))
    random.Random(seed).shuffle(pool)
    return pool[:count]


def compare(author: list[dict], mine: list[dict]) -> dict:
    """Pairs each author program with the port-check program that matches it best."""
    left = list(mine)
    same_kernels = pairs = pairs_same = 0
    for a in author:
        pairs += len(a["sram"])
        best = max(left, default=None, key=lambda m: (m["kernels"] == a["kernels"],
                                                      sum(m["sram"].get(k) == v for k, v in a["sram"].items())))
        if best is None:
            continue
        left.remove(best)
        same_kernels += best["kernels"] == a["kernels"]
        pairs_same += sum(best["sram"].get(k) == v for k, v in a["sram"].items())
    return {"programs": len(mine), "same_kernels": same_kernels, "pairs": pairs, "pairs_same": pairs_same}


def measure(index: int, label: str, rel: str, options, roots: dict[str, str]) -> dict:
    root = roots[label]
    path = os.path.join(root, rel)
    base = os.path.join(options.work, "runs", f"{index:02d}")
    os.makedirs(base, exist_ok=True)
    caller_path = root if label == "pypto-lib" else ""
    with open(path, encoding="utf-8") as handle:
        takes_p = re.search(r"add_argument\(\s*[\"']-p[\"']", handle.read()) is not None
    argv = ["-p", "a2a3sim"] if label == "pypto-lib" and takes_p else []
    record = {"index": index, "label": label, "file": rel}

    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYPTO_PROG_BUILD_DIR=os.path.join(base, "author"),
               PYTHONPATH=os.pathsep.join(p for p in (caller_path, os.path.join(options.pypto, "python")) if p))
    started = time.monotonic()
    try:
        proc = subprocess.run([options.python, os.path.join(options.work, "author_run.py"), path, *argv], cwd=root,
                              env=env, capture_output=True, text=True, timeout=options.timeout)
        log, record["author_exit"] = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        log, record["author_exit"] = str(exc.stdout or "") + str(exc.stderr or ""), "timeout"
    record["author_seconds"] = round(time.monotonic() - started)
    with open(os.path.join(base, "author.log"), "w", encoding="utf-8") as handle:
        handle.write(log)
    author = programs_under(os.path.join(base, "author"))
    record["author_programs"] = len(author)

    tools = [("after", options.port_check)] + ([("before", options.before)] if options.before else [])
    for variant, binary in tools:
        cache = os.path.join(base, variant)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        if caller_path:
            env["PYTHONPATH"] = caller_path
        started = time.monotonic()
        subprocess.run([binary, "compile", "--pypto", options.pypto, "--python", options.python, "--cache-dir", cache,
                        "--no-cache", "--no-kernel-compile", "--timeout", str(options.timeout), "--format", "json",
                        "-o", cache + ".json", path], cwd=root, env=env, capture_output=True, text=True)
        record[f"{variant}_seconds"] = round(time.monotonic() - started)
        try:
            with open(cache + ".json", encoding="utf-8") as handle:
                report = json.load(handle)
        except (OSError, ValueError):
            report = {}
        rules = sorted({d.get("rule", "") for d in report.get("diagnostics", []) if isinstance(d, dict)} - {""})
        errors = sorted({d.get("rule", "") for d in report.get("diagnostics", [])
                         if isinstance(d, dict) and d.get("severity") == "error"} - {""})
        result = compare(author, programs_under(os.path.join(cache, "compile")))
        result["rules"], result["errors"] = rules, errors
        # Right: port-check compiled every program the author's run compiled, with the same kernels and
        # figures and no error of its own (or, when the author's run compiles nothing, it fails too).
        # Without a simulator the author's run stops at its first dispatch, so port-check (which
        # dispatches nothing) may compile more of the programs the file's __main__ compiles.
        comp_errors = [r for r in errors if r.startswith("COMP")]
        result["right"] = (bool(author) and not comp_errors and result["programs"] >= len(author)
                           and result["same_kernels"] == len(author) and result["pairs_same"] == result["pairs"]) \
            or (not author and bool(comp_errors))
        record[variant] = result
    print(json.dumps(record), flush=True)
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pypto", required=True, help="PyPTO checkout with its extension built")
    parser.add_argument("--pypto-lib", required=True, help="pypto-lib checkout")
    parser.add_argument("--python", required=True, help="interpreter with torch that imports PyPTO")
    parser.add_argument("--port-check", required=True, help="the port-check binary measured")
    parser.add_argument("--before", help="another port-check binary to compare with (e.g. the main branch's)")
    parser.add_argument("--work", required=True, help="folder for output folders, logs and results")
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--timeout", type=int, default=240, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=1)
    options = parser.parse_args()
    for attr in ("pypto", "pypto_lib", "work"):
        setattr(options, attr, os.path.abspath(getattr(options, attr)))
    options.port_check = os.path.abspath(options.port_check)
    options.before = os.path.abspath(options.before) if options.before else None
    os.makedirs(options.work, exist_ok=True)
    with open(os.path.join(options.work, "author_run.py"), "w", encoding="utf-8") as handle:
        handle.write(AUTHOR_RUN)
    roots = {"pypto-lib": options.pypto_lib, "pypto": options.pypto}
    chosen = sample(roots, options.count, options.seed)
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        records = list(pool.map(lambda item: measure(item[0], *item[1], options, roots), enumerate(chosen, 1)))
    with open(os.path.join(options.work, "results.jsonl"), "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")

    print(f"\n| # | file | author compiles | " + " | ".join(f"{v}: right, kernels, SRAM pairs" for v in
                                                            ("before", "after") if v in records[0]) + " |")
    for r in records:
        cells = [f"{'yes' if r[v]['right'] else 'no'}, {r[v]['same_kernels']}/{r['author_programs']}, "
                 f"{r[v]['pairs_same']}/{r[v]['pairs']} {','.join(r[v]['errors'])}"
                 for v in ("before", "after") if v in r]
        print(f"| {r['index']} | {r['label']}:{r['file']} | {r['author_programs']} | " + " | ".join(cells) + " |")
    compiled = [r for r in records if r["author_programs"]]
    for variant in ("before", "after"):
        if variant in records[0]:
            print(f"{variant}: outcome right {sum(r[variant]['right'] for r in records)}/{len(records)}; "
                  f"of the {len(compiled)} the author compiles: right {sum(r[variant]['right'] for r in compiled)}, "
                  f"SRAM pairs {sum(r[variant]['pairs_same'] for r in compiled)}/{sum(r[variant]['pairs'] for r in compiled)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
