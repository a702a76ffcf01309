#!/usr/bin/env python3
"""Runs port-check on a scratch workspace with findings of every kind and validates the JSON
report against docs/schema/port-check-report.schema.json and the SARIF log against the SARIF
2.1.0 schema. Prints '<n> passed, <m> failed' and exits non-zero on any failure."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def make_workspace(root):
    def write(rel, text):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    os.makedirs(os.path.join(root, ".git"))
    write("projects/no_golden/pypto_src/incore.py", "import pypto.language as pl\n")
    write("projects/broken/pypto_src/golden.py", "def f(:\n")
    write("projects/broken/pypto_src/kernel.cpp", "void k( {\n")
    write("projects/clean/pypto_src/golden.py", "RTOL = 1e-5\n")
    write("projects/odd name/pypto_src/golden.py", "x = 'caf\u00e9'\n")


def run(binary, cwd, fmt, paths):
    proc = subprocess.run([binary, "check", "--format", fmt, *paths], cwd=cwd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"port-check exited {proc.returncode}: {proc.stderr}")
    return json.loads(proc.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--sarif-schema", required=True)
    ap.add_argument("--report-schema", required=True)
    args = ap.parse_args()

    with open(args.sarif_schema, encoding="utf-8") as f:
        sarif_schema = json.load(f)
    with open(args.report_schema, encoding="utf-8") as f:
        report_schema = json.load(f)
    jsonschema.Draft4Validator.check_schema(sarif_schema)
    jsonschema.Draft7Validator.check_schema(report_schema)

    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="port-check-schema-") as ws:
        make_workspace(ws)
        cases = [
            ("json report with findings", "json", report_schema, jsonschema.Draft7Validator, ["projects"]),
            ("json report of a clean project", "json", report_schema, jsonschema.Draft7Validator, ["projects/clean"]),
            ("sarif log with findings", "sarif", sarif_schema, jsonschema.Draft4Validator, ["projects"]),
            ("sarif log of a clean project", "sarif", sarif_schema, jsonschema.Draft4Validator, ["projects/clean"]),
        ]
        for name, fmt, schema, validator_cls, paths in cases:
            doc = run(args.port_check, ws, fmt, paths)
            errors = sorted(validator_cls(schema).iter_errors(doc), key=lambda e: list(e.path))
            if fmt == "json" and paths == ["projects"] and not doc["diagnostics"]:
                errors.append("expected findings, got none")
            if errors:
                failed += 1
                print(f"FAIL {name}")
                for e in errors[:10]:
                    print(f"  {getattr(e, 'message', e)} at {list(getattr(e, 'path', []))}")
            else:
                passed += 1
                print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
