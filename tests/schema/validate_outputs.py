#!/usr/bin/env python3
"""Runs port-check on a scratch workspace with findings of every kind and validates the JSON
report against docs/schema/port-check-report.schema.json, the SARIF log against the SARIF 2.1.0
schema, and `port-check ledger --format json` and the ledger's records (ledger.jsonl lines, folded
past a bound of 2) against docs/schema/port-check-ledger.schema.json. Prints '<n> passed,
<m> failed' and exits non-zero on any failure."""
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
    write("projects/sched/pypto_src/golden.py", "RTOL = 1e-5\n")
    write("projects/sched/pypto_src/program.py", (
        "import pypto.language as pl\n\n\n"
        "@pl.jit.incore\n"
        "def double(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n"
        "    pl.store(pl.mul(pl.load(x, [0, 0], [64, 128]), 2.0), [0, 0], y)\n"
        "    return y\n\n\n"
        "@pl.jit\n"
        "def run(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n"
        "    y = double(x, y)\n"
        "    return y\n"))
    # A small bound, so the checks below fold the oldest attempts into a summary record.
    write("port-check.json", '{"options": {"ledger.max_attempts": 2}}\n')


def run(binary, cwd, fmt, paths, command="check", extra=()):
    proc = subprocess.run([binary, command, "--format", fmt, *extra, *paths], cwd=cwd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"port-check exited {proc.returncode}: {proc.stderr}")
    return json.loads(proc.stdout)


def ledger_validator_for(ledger_schema, report_schema):
    """The ledger schema refers to the report schema's diagnostic by its file name."""
    try:
        from referencing import Registry, Resource
        registry = Registry().with_resource("port-check-report.schema.json", Resource.from_contents(report_schema))
        return jsonschema.Draft7Validator(ledger_schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(
            ledger_schema, store={"port-check-report.schema.json": report_schema})
        return jsonschema.Draft7Validator(ledger_schema, resolver=resolver)


def record_errors(ledger_schema, report_schema, ledger_file):
    """Each line of ledger.jsonl against the schema's attempt or summary record."""
    def validator_of(definition):
        schema = {"$id": ledger_schema["$id"], "definitions": ledger_schema["definitions"],
                  "allOf": [{"$ref": "#/definitions/" + definition}]}
        return ledger_validator_for(schema, report_schema)
    validators = {kind: validator_of(kind) for kind in ("attempt", "summary")}  # a repeat has an attempt's form
    errors = []
    kinds = set()
    with open(ledger_file, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            record = json.loads(line)
            kinds.add(record.get("kind"))
            validator = validators["summary" if record.get("kind") == "summary" else "attempt"]
            errors += [f"line {number}: {e.message}" for e in validator.iter_errors(record)]
    if kinds != {"attempt", "repeat", "summary"}:
        errors.append(f"expected attempt, repeat and summary records, got {sorted(k for k in kinds if k)}")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--sarif-schema", required=True)
    ap.add_argument("--report-schema", required=True)
    ap.add_argument("--ledger-schema", required=True)
    args = ap.parse_args()

    with open(args.sarif_schema, encoding="utf-8") as f:
        sarif_schema = json.load(f)
    with open(args.report_schema, encoding="utf-8") as f:
        report_schema = json.load(f)
    with open(args.ledger_schema, encoding="utf-8") as f:
        ledger_schema = json.load(f)
    jsonschema.Draft4Validator.check_schema(sarif_schema)
    jsonschema.Draft7Validator.check_schema(report_schema)
    jsonschema.Draft7Validator.check_schema(ledger_schema)
    ledger_validator = ledger_validator_for(ledger_schema, report_schema)

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
        # One shard of a CI matrix (--shard): its SARIF log names its own category for code scanning.
        for shard in ("1/2", "2/2"):
            doc = run(args.port_check, ws, "sarif", ["projects"], command="lint", extra=("--shard", shard))
            errors = [e.message for e in jsonschema.Draft4Validator(sarif_schema).iter_errors(doc)]
            want = f"port-check/lint/shard-{shard.replace('/', '-of-')}/"
            got = doc["runs"][0].get("automationDetails", {}).get("id")
            if got != want:
                errors.append(f"expected runAutomationDetails.id {want}, got {got}")
            if errors:
                failed += 1
                print(f"FAIL sarif log of shard {shard}")
                for e in errors[:10]:
                    print(f"  {e}")
            else:
                passed += 1
                print(f"ok   sarif log of shard {shard}")
        # port-check report: the schedule rows (the check above leaves them empty).
        doc = run(args.port_check, ws, "json", ["projects/sched"], command="report")
        errors = [e.message for e in jsonschema.Draft7Validator(report_schema).iter_errors(doc)]
        if not doc.get("schedule"):
            errors.append("expected a schedule row, got none")
        if errors:
            failed += 1
            print("FAIL json report of port-check report (schedule)")
            for e in errors[:10]:
                print(f"  {e}")
        else:
            passed += 1
            print("ok   json report of port-check report (schedule)")
        # The checks above recorded one attempt of projects/clean and repeats of it (same sources); two
        # edits make two more attempts (bounded to two: one folded), one more unchanged check a repeat.
        golden = os.path.join(ws, "projects/clean/pypto_src/golden.py")
        for edit in ("# first edit\n", "# second edit\n", ""):
            if edit:
                with open(golden, "a", encoding="utf-8") as f:
                    f.write(edit)
            run(args.port_check, ws, "json", ["projects/clean"])
        cases = [
            ("ledger json of a project with attempts", lambda: list(ledger_validator.iter_errors(
                run(args.port_check, ws, "json", ["projects/clean"], command="ledger")))),
            ("ledger records (attempts, a repeat and a folded summary)", lambda: record_errors(
                ledger_schema, report_schema, os.path.join(ws, "projects/clean/.port-check/ledger.jsonl"))),
        ]
        for name, validate in cases:
            errors = validate()
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
