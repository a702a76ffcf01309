#!/usr/bin/env python3
"""`port-check run` reports (with the stand-in interpreter tests/fixtures/run/fake-run-python.sh
replaying recorded results) validated against docs/schema/port-check-report.schema.json, and
their SARIF logs against SARIF 2.1.0: every comparison outcome, failure classes and a run skipped
because its compile failed. Prints '<n> passed, <m> failed'."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

CASES = ["pass", "wrong_axis", "never_written", "nan_inf", "shape_mismatch", "two_outputs_one_fails",
         "real_no_task_interface", "gcc12", "kernel_error", "golden_raised", "contract_error", "run_error",
         "runtime_deadlock"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--report-schema", required=True)
    ap.add_argument("--sarif-schema", required=True)
    args = ap.parse_args()
    fake = os.path.join(args.source_dir, "tests", "fixtures", "run", "fake-run-python.sh")
    report_schema = json.load(open(args.report_schema, encoding="utf-8"))
    sarif_schema = json.load(open(args.sarif_schema, encoding="utf-8"))
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="port-check-run-schema-") as ws:
        os.makedirs(os.path.join(ws, ".git"))
        os.makedirs(os.path.join(ws, "pypto", "python", "pypto"))
        open(os.path.join(ws, "pypto", "python", "pypto", "__init__.py"), "w").close()
        for name in CASES + ["compile_fails"]:
            src = os.path.join(ws, "projects", name, "pypto_src")
            os.makedirs(src)
            open(os.path.join(src, "golden.py"), "w").write("x = 1\n")
            open(os.path.join(src, "FAKE_RUN"), "w").write(("pass" if name == "compile_fails" else name) + "\n")
            if name == "compile_fails":
                open(os.path.join(src, "FAKE_COMPILE_FAIL"), "w").close()
        for fmt, schema, validator in (("json", report_schema, jsonschema.Draft7Validator),
                                       ("sarif", sarif_schema, jsonschema.Draft4Validator)):
            proc = subprocess.run([args.port_check, "run", "--format", fmt, "--jobs", "4", "--pypto",
                                   os.path.join(ws, "pypto"), "--python", fake, "projects"],
                                  cwd=ws, capture_output=True, text=True, timeout=300)
            problems = []
            if proc.returncode != 2:  # findings, and GOLD010/011 are tool errors
                problems.append(f"exit {proc.returncode}, expected 2: {proc.stderr[-500:]}")
            try:
                doc = json.loads(proc.stdout)
            except ValueError as e:
                doc = None
                problems.append(f"not JSON: {e}")
            if doc is not None:
                problems += [f"{e.message} at {list(e.path)}" for e in validator(schema).iter_errors(doc)]
                if fmt == "json":
                    statuses = sorted({g["status"] for g in doc["golden"]})
                    if statuses != ["error", "failed", "passed", "skipped"]:
                        problems.append(f"statuses {statuses}")
                    if len(doc["golden"]) != len(CASES) + 1:
                        problems.append(f"{len(doc['golden'])} golden entries")
            if problems:
                failed += 1
                print(f"FAIL run report ({fmt})")
                for p in problems[:10]:
                    print("  " + p)
            else:
                passed += 1
                print(f"ok   run report ({fmt})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
