#!/usr/bin/env python3
"""port-check on PTO-ISA's own C++ kernels: findings per rule, errors per file, before and after a change.

    bench/pto_isa_kernels.py --pto-isa-git DIR --commit C [--commit C ...] --headers DIR [--headers DIR ...]
        --port-check NAME=BIN [--port-check NAME=BIN ...] --pypto DIR --work DIR

Corpus, per commit (`git archive` of the bare mirror into WORK, nothing committed): `kernels/` (the AUTO-mode
and manual-mode kernels), `demos/auto_mode/` and the CPU system tests whose CMakeLists.txt defines
__PTO_AUTO__ (`tests/cpu/st/testcase/<case>/`), with their CMakeLists.txt files (the build's evidence of AUTO
mode). Each binary lints the corpus once per header tree (`lint --format json --pto-isa DIR --pypto DIR`, so
the runtime's pin is known), cold (--no-cache). Every file is upstream's own, which upstream's build compiles:
an ISA009 (the compile check says clang rejects the kernel) is a false error unless the kernel is wrong, and
the table counts the files that get one. The AUTO-mode sources that never test __PTO_AUTO__
(kernels/automode/a5/flash_atten) are counted line by line: lines holding TASSIGN or raw pipe sync
(set_flag, wait_flag, pipe_barrier) and how many of them get a finding.

Prints one Markdown table; WORK/summary.json keeps the figures.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tarfile
import io


def corpus(git_dir: str, commit: str, dest: str) -> list[str]:
    """Extracts the corpus of one commit into dest; returns its C++ files (dest-relative)."""
    if not os.path.isdir(dest):
        os.makedirs(dest)
        names = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit],
                               check=True, capture_output=True, text=True).stdout.split("\n")
        auto_tests = set()
        for n in names:
            m = re.match(r"(tests/cpu/st/testcase/[^/]+)/CMakeLists.txt$", n)
            if m:
                text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{n}"], check=True,
                                      capture_output=True, text=True).stdout
                if "__PTO_AUTO__" in text:
                    auto_tests.add(m.group(1))
        keep = [n for n in names if n and (n.startswith("kernels/") or n.startswith("demos/auto_mode/")
                                           or any(n.startswith(t + "/") for t in auto_tests))]
        keep = [n for n in keep if re.search(r"\.(cpp|cc|cxx|h|hpp)$|CMakeLists\.txt$", n)]
        data = subprocess.run(["git", "--git-dir", git_dir, "archive", commit, "--", *keep], check=True,
                              capture_output=True).stdout
        tarfile.open(fileobj=io.BytesIO(data)).extractall(dest)
        os.makedirs(os.path.join(dest, ".git"), exist_ok=True)
        with open(os.path.join(dest, ".git", "HEAD"), "w") as f:
            f.write("ref: refs/heads/main\n")
    out = []
    for root, _, files in os.walk(dest):
        if "/.git" in root:
            continue
        for f in files:
            if re.search(r"\.(cpp|cc|cxx|h|hpp)$", f):
                out.append(os.path.relpath(os.path.join(root, f), dest))
    return sorted(out)


SYNC_LINE = re.compile(r"\b(TASSIGN|set_flag|wait_flag|pipe_barrier)\s*\(")


def lint(binary: str, ws: str, headers: str, pypto: str) -> dict:
    r = subprocess.run([binary, "lint", "--format", "json", "--no-cache", "--fail-on", "never", "--pto-isa", headers,
                        "--pypto", pypto, "."], cwd=ws, capture_output=True, text=True)
    return json.loads(r.stdout)


def summarise(report: dict, ws: str, files: list[str]) -> dict:
    ds = report["diagnostics"]
    by_rule = collections.Counter(f"{d['rule']} {d['severity']}" for d in ds)
    errors = [d for d in ds if d["severity"] == "error"]
    isa009_files = {d["file"] for d in ds if d["rule"] == "ISA009"}
    error_files = {d["file"] for d in errors}
    lines = 0
    for f in files:
        with open(os.path.join(ws, f), errors="replace") as fh:
            lines += sum(1 for _ in fh)
    # The AUTO-mode flash-attention sources that never test __PTO_AUTO__ (their build passes --cce-pto-auto-enable).
    fa = [f for f in files if re.match(r"kernels/automode/a5/flash_atten/fa_performance(_dn)?_kernel\.cpp$", f)]
    sync_lines, reported = set(), set()
    for f in fa:
        with open(os.path.join(ws, f), errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                code = line.split("//")[0]
                if SYNC_LINE.search(code):
                    sync_lines.add((f, i))
    for d in ds:
        if (d["file"], d["line"]) in sync_lines and d["rule"].startswith("AUTO"):
            reported.add((d["file"], d["line"]))
    stage = next((s["detail"] for s in report["run"]["stages"] if s["name"] == "kernel-compile"), "")
    return {
        "files": len(files), "lines": lines, "findings": len(ds), "errors": len(errors),
        "isa009": by_rule.get("ISA009 error", 0), "isa009_files": len(isa009_files), "error_files": len(error_files),
        "tool009": sum(v for k, v in by_rule.items() if k.startswith("TOOL009")),
        "fa_sync_lines": len(sync_lines), "fa_sync_reported": len(reported), "by_rule": dict(by_rule),
        "kernel_compile": stage,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pto-isa-git", required=True)
    ap.add_argument("--commit", action="append", required=True)
    ap.add_argument("--headers", action="append", required=True)
    ap.add_argument("--port-check", action="append", required=True, help="NAME=BIN")
    ap.add_argument("--pypto", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    summary_path = os.path.join(a.work, "summary.json")
    summary = json.load(open(summary_path)) if os.path.exists(summary_path) else {}
    rows = []
    for commit in a.commit:
        ws = os.path.join(a.work, "corpus-" + commit[:8])
        files = corpus(a.pto_isa_git, commit, ws)
        for headers in a.headers:
            for spec in a.port_check:
                name, binary = spec.split("=", 1)
                key = f"{commit[:8]} {os.path.basename(os.path.normpath(headers))} {name}"
                if key not in summary:
                    t = summarise(lint(binary, ws, headers, a.pypto), ws, files)
                    summary[key] = t
                    json.dump(summary, open(summary_path, "w"), indent=1)
                rows.append((key, summary[key]))
    print("| kernels, headers, port-check | files (lines) | findings | errors | files with an error | ISA009 (files) "
          "| TOOL009 | a5 FA TASSIGN/sync lines reported |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, t in rows:
        print(f"| {key} | {t['files']} ({t['lines']:,}) | {t['findings']} | {t['errors']} | {t['error_files']} "
              f"| {t['isa009']} ({t['isa009_files']}) | {t['tool009']} | {t['fa_sync_reported']} of {t['fa_sync_lines']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
