#!/usr/bin/env python3
"""Is every DSL rule true to the pinned compiler? (issue 37, item 3)

    bench/dsl_rules_vs_compiler.py [--port-check BIN] [--work DIR] [--only REGEX] [--timeout 300]

Compiles each DSL rule's bad and good fixtures (tests/fixtures/dsl_rules/<ID>_*bad.py / _*good*.py)
with the real compiler through `port-check compile --format json` (PYPTO_ROOT or ../pypto,
PYPTO_PYTHON) and checks them against what the rule's doc says, recorded per rule in CLAIMS below
with the sentence of the doc that says it:

* a good fixture compiles (no compiler error), unless CLAIMS names the reason it may not;
* a bad fixture behaves as the doc says: `rejects` (the compile stage reports an error, and the
  compiler's message contains the words the doc quotes), or `accepts` (the compile stage passes: the
  problem shows later, at the simulator, in the results or in speed, as the doc says);
* the doc still says it (the quoted sentence is in the rule's JSON), and no rule whose bad fixture
  the compiler rejects says the compiler accepts it.

Toolchain-gated: without PyPTO (PYPTO_ROOT / ../pypto with python/pypto), a Python that imports it
(PYPTO_PYTHON) or a port-check binary it prints what is absent and exits 0 without checking anything.
Exit 1 when a rule disagrees with the compiler. Prints one Markdown table; WORK/results.json keeps it.
WORK keeps each fixture's compile report under the fixture's file name and reuses it: give a fresh
WORK (or delete the report) after editing a fixture.
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

# What each rule's doc says the pinned compiler (PyPTO e2d0f78) does with its bad example.
#   bad:      "rejects" or "accepts" (at the compile stage: passes, codegen, ptoas)
#   doc:      words of the rule's JSON that say so (checked to be there)
#   compiler: words the compiler's error must contain (rejects only)
#   rejected_ok: words of a compiler error the doc quotes for a form of the bad fixture that the
#             compiler rejects although the rule's main claim is "accepts" (checked to be in the doc too)
#   unchecked: words of a compile failure that is port-check compile's limit, not the rule's claim:
#             the rule is then listed as not checked
CLAIMS: dict[str, dict] = {
    "DSL101": {"bad": "rejects", "doc": "orchestration codegen rejects them", "compiler": "Misplaced"},
    "DSL102": {"bad": "accepts", "doc": "pypto's own system tests do compile pl.parallel inside InCore functions"},
    "DSL103": {"bad": "rejects", "doc": "is rejected there", "compiler": "Pipeline"},
    "DSL104": {"bad": "rejects", "doc": "pl.create_tensor inside a @pl.jit.incore function fails", "compiler": "but got TileType"},
    "DSL105": {"bad": "rejects", "doc": "The PyPTO parser rejects plain Python loops", "compiler": "For loop must use pl.range()"},
    "DSL106": {"bad": "rejects", "doc": "fails the whole compile at parse time", "compiler": "Unsupported"},
    "DSL107": {"bad": "rejects", "doc": "InCore parameters must be TensorType", "compiler": "InCore parameters must be TensorType"},
    "DSL108": {"bad": "rejects", "doc": "Scalar parameters cannot have InOut direction",
               "compiler": "Scalar parameters cannot have InOut direction"},
    "DSL109": {"bad": "accepts", "doc": "reads it back as all-zeros"},
    "DSL110": {"bad": "accepts", "doc": "the pinned compiler accepts another alias"},
    "DSL111": {"bad": "accepts", "doc": "an error met only when the simulator or the device compiles the kernel"},
    "DSL112": {"bad": "accepts", "doc": "The porting method asks for explicit pl.load"},
    "DSL113": {"bad": "accepts", "doc": "the two forms compile through different entry points"},
    "DSL114": {"bad": "rejects", "doc": "nothing compiles", "compiler": "Unknown operation"},
    "DSL115": {"bad": "accepts", "doc": "which halves matmul throughput"},
    "DSL116": {"bad": "accepts", "doc": "the result is silently wrong"},
    "DSL117": {"bad": "accepts", "doc": "The compiler prints the same hint only after a full compile"},
    "DSL118": {"bad": "rejects", "doc": "missing type annotation", "compiler": "missing type annotation"},
    "DSL119": {"bad": "accepts", "doc": "compiles the kernel's parameter with the dense strides",
               "rejected_ok": "cannot mix Tensor and Tile arguments"},
    "DSL120": {"bad": "accepts", "doc": "accepts the call without a word"},
    "DSL121": {"bad": "rejects", "doc": "is neither a variable nor a recognized constant literal",
               "compiler": "is neither a variable nor a recognized constant literal"},
    "DSL122": {"bad": "accepts", "doc": "The compiler accepts these programs"},
    "DSL123": {"bad": "rejects", "doc": "The pypto parser rejects these", "compiler": "Unsupported"},
    "DSL124": {"bad": "rejects", "doc": "Unknown keyword argument 'optimization' in pl.at()",
               "compiler": "Unknown keyword argument"},
    "DSL125": {"bad": "rejects", "doc": "but got TileType", "compiler": "but got TileType"},
    "DSL126": {"bad": "accepts", "doc": "each accepted by PyPTO e2d0f78 on these fixtures"},
    "DSL127": {"bad": "accepts", "doc": "checked on this rule's examples"},
    "DSL128": {"bad": "accepts", "doc": "checked on this rule's examples and seven comparison forms"},
    "DSL129": {"bad": "rejects", "doc": "neither reads the per-block index", "compiler": "neither reads the per-block index"},
}

# Rules whose fixtures are not programs about the compiler: port-check's own comments.
NOT_COMPILER_RULES = {
    "DSL001": "a Python syntax error: no fixture of its own (every rule's fixtures parse)",
    "DSL002": "a suppression comment naming an unknown rule: about port-check's comments, not the program",
    "DSL003": "an unused suppression comment: about port-check's comments, not the program",
}

ACCEPTS_WORDS = re.compile(r"compiler accepts|accepted by (the compiler|PyPTO)|compiles (it|them) without", re.I)


def gate(options) -> str | None:
    pypto = os.environ.get("PYPTO_ROOT") or os.path.join(os.path.dirname(ROOT), "pypto")
    python = os.environ.get("PYPTO_PYTHON", "python3")
    if not os.path.isdir(os.path.join(pypto, "python", "pypto")):
        return f"no PyPTO checkout at {pypto} (set PYPTO_ROOT)"
    try:
        ok = subprocess.run([python, "-c", "import pypto.language"], capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        return f"{python} cannot import pypto.language (set PYPTO_PYTHON to the toolchain's interpreter)"
    if not os.access(options.port_check, os.X_OK):
        return f"no port-check binary at {options.port_check} (build it: scripts/build.sh)"
    return None


def compile_fixture(options, path: str) -> dict:
    """The compile stage's verdict on one fixture: accepted, rejected (with the first error) or tool."""
    out = os.path.join(options.work, os.path.basename(path) + ".json")
    if not os.path.exists(out):
        cmd = [options.port_check, "compile", "--no-ledger", "--format", "json", "--fail-on", "never",
               "--timeout", str(options.timeout), "--cache-dir", os.path.join(options.work, "cache"), path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            return {"verdict": "tool", "message": proc.stderr.strip()[-300:]}
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(proc.stdout)
    with open(out, encoding="utf-8") as handle:
        report = json.load(handle)
    errors = [d for d in report["diagnostics"] if d["severity"] == "error" and d["rule"].startswith("COMP")]
    tool = [d for d in errors if d["rule"].startswith("COMP9")]
    compiler = [d for d in errors if not d["rule"].startswith("COMP9")]
    if compiler:
        return {"verdict": "rejected", "rule": compiler[0]["rule"], "message": compiler[0]["message"]}
    if tool:
        return {"verdict": "tool", "rule": tool[0]["rule"], "message": tool[0]["message"]}
    return {"verdict": "accepted", "message": ""}


def rule_text(rule_id: str) -> str:
    with open(os.path.join(ROOT, "rules", "DSL", rule_id + ".json"), encoding="utf-8") as handle:
        doc = json.load(handle)
    return " ".join([doc.get("summary", ""), doc.get("description", ""), doc.get("rationale", "")])


def check_rule(options, rule_id: str) -> dict:
    fixtures = os.path.join(ROOT, "tests", "fixtures", "dsl_rules")
    bad = sorted(glob.glob(os.path.join(fixtures, rule_id + "_*bad.py")))
    good = sorted(glob.glob(os.path.join(fixtures, rule_id + "_good*.py")))
    row = {"rule": rule_id, "problems": [], "bad": {}, "good": {}}
    if rule_id in NOT_COMPILER_RULES:
        row["skipped"] = NOT_COMPILER_RULES[rule_id]
        return row
    claim = CLAIMS.get(rule_id)
    if claim is None:
        row["problems"].append("no claim recorded in CLAIMS for this rule")
        return row
    text = rule_text(rule_id)
    if claim["doc"] not in text:
        row["problems"].append(f"the doc no longer says: {claim['doc']!r}")
    if claim.get("rejected_ok") and claim["rejected_ok"] not in text:
        row["problems"].append(f"the doc does not quote the rejection it allows: {claim['rejected_ok']!r}")
    results = {os.path.basename(p): compile_fixture(options, p) for p in bad + good}
    if claim.get("unchecked") and any(claim["unchecked"] in r["message"] for r in results.values()):
        row["skipped"] = "its fixtures do not compile through `port-check compile`: " + claim["unchecked"]
        row["problems"] = []
        return row
    for path in bad:
        result = results[os.path.basename(path)]
        row["bad"][os.path.basename(path)] = result
        if result["verdict"] == "rejected" and claim.get("rejected_ok") and claim["rejected_ok"] in result["message"]:
            result["rule"] = result.get("rule", "") + ", a form the doc says is rejected"
            continue
        if result["verdict"] == "tool":
            row["problems"].append(f"{os.path.basename(path)}: not compiled ({result['message'][:160]})")
        elif claim["bad"] == "rejects" and result["verdict"] != "rejected":
            row["problems"].append(f"{os.path.basename(path)}: the doc says the compiler rejects it; it compiles")
        elif claim["bad"] == "accepts" and result["verdict"] != "accepted":
            row["problems"].append(f"{os.path.basename(path)}: the doc says the compiler accepts it; "
                                   f"it rejects it: {result['message'][:200]}")
        elif claim["bad"] == "rejects" and claim.get("compiler") and claim["compiler"] not in result["message"]:
            row["problems"].append(f"{os.path.basename(path)}: rejected, but not with {claim['compiler']!r}: "
                                   f"{result['message'][:200]}")
        if result["verdict"] == "rejected" and ACCEPTS_WORDS.search(text) and claim["bad"] != "accepts":
            row["problems"].append(f"the doc says the compiler accepts something, and it rejects "
                                   f"{os.path.basename(path)}: {ACCEPTS_WORDS.search(text).group(0)!r}")
    for path in good:
        result = results[os.path.basename(path)]
        row["good"][os.path.basename(path)] = result
        if result["verdict"] != "accepted":
            row["problems"].append(f"{os.path.basename(path)}: good fixture does not compile: "
                                   f"{result.get('rule', '')} {result['message'][:200]}")
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port-check", default=os.path.join(ROOT, "build", "port-check"))
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "port-check-rules-vs-compiler"))
    parser.add_argument("--only", default="", help="check only rules whose ID matches this regex")
    parser.add_argument("--timeout", type=int, default=300)
    options = parser.parse_args()
    options.port_check = os.path.abspath(options.port_check)
    absent = gate(options)
    if absent:
        print(f"dsl_rules_vs_compiler: skipped, {absent}")
        return 0
    os.makedirs(options.work, exist_ok=True)
    rules = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(ROOT, "rules", "DSL", "DSL*.json")))
    rows = [check_rule(options, r) for r in rules if re.search(options.only, r)]
    print("| rule | doc says the bad example | bad fixtures | good fixtures | agrees |")
    print("|---|---|---|---|---|")
    checked = 0
    for row in rows:
        if "skipped" in row:
            print(f"| {row['rule']} | not checked: {row['skipped']} | | | |")
            continue
        checked += 1
        show = lambda results: ", ".join(f"{v['verdict']}" + (f" ({v.get('rule', '')})" if v["verdict"] != "accepted" else "")
                                         for v in results.values()) or "none"
        claim = CLAIMS.get(row["rule"], {}).get("bad", "?")
        print(f"| {row['rule']} | {claim} | {show(row['bad'])} | {show(row['good'])} | "
              f"{'yes' if not row['problems'] else 'NO'} |")
    failing = [r for r in rows if r["problems"]]
    for row in failing:
        for problem in row["problems"]:
            print(f"{row['rule']}: {problem}")
    print(f"\n{checked - len(failing)} of {checked} rules checked agree with the compiler "
          f"({len(rows) - checked} of {len(rows)} DSL rules not checked, each listed above with why)")
    with open(os.path.join(options.work, "results.json"), "w", encoding="utf-8") as handle:
        json.dump(rows, handle, indent=1)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
