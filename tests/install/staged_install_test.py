#!/usr/bin/env python3
"""`cmake --install BUILD --prefix /usr --strip` into a DESTDIR staging folder installs a stripped
port-check that runs from there (its version, a lint of a bundled project, a scaffold from the
templates compiled into it), its man page and its bash completion, which completes subcommands,
options and option values from the staged binary. Prints the installed binary's size."""
import argparse
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

PORT = "row_softmax"  # a small valid bundled port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--man-page", choices=["ON", "OFF"], required=True,
                    help="whether the build generates the man page (not in sanitizer or fuzz builds)")
    args = ap.parse_args()
    expect = Checks()

    with tempfile.TemporaryDirectory(prefix="port-check-install-") as root:
        stage = os.path.join(root, "stage")
        r = subprocess.run(["cmake", "--install", args.build_dir, "--prefix", "/usr", "--strip"],
                           env={**os.environ, "DESTDIR": stage}, capture_output=True, text=True)
        expect("cmake --install --prefix /usr --strip with DESTDIR", r.returncode == 0, r.stdout + r.stderr)
        if r.returncode != 0:
            return 1
        files = sorted(os.path.relpath(os.path.join(d, f), stage) for d, _, fs in os.walk(stage) for f in fs)
        print("installed: " + ", ".join(files))

        binary = os.path.join(stage, "usr", "bin", "port-check")
        expect("usr/bin/port-check is installed", os.access(binary, os.X_OK))
        sections = subprocess.run(["readelf", "-S", "--wide", binary], capture_output=True, text=True).stdout
        expect("the installed binary is stripped (no .symtab, no .debug_info)",
               ".symtab" not in sections and ".debug_info" not in sections)
        size = os.path.getsize(binary)
        print(f"installed binary: {size} bytes ({size / 1e6:.1f} MB)")

        r = subprocess.run([binary, "--version"], capture_output=True, text=True)
        expect("staged port-check --version", r.returncode == 0 and
               r.stdout.startswith(f"port-check {args.version}\n"), r.stdout + r.stderr)

        # A bundled port linted by the staged binary outside the source tree (nothing read from it).
        ws = os.path.join(root, "ws")
        shutil.copytree(os.path.join(args.source_dir, "projects", PORT), os.path.join(ws, "projects", PORT),
                        ignore=shutil.ignore_patterns("__pycache__"))
        r = subprocess.run([binary, "lint", f"projects/{PORT}"], cwd=ws, capture_output=True, text=True)
        expect(f"staged port-check lint projects/{PORT} is clean",
               r.returncode == 0 and "0 errors" in r.stdout, r.stdout + r.stderr)
        r = subprocess.run([binary, "new", "demo"], cwd=ws, capture_output=True, text=True)
        expect("staged port-check new demo scaffolds from the built-in templates",
               r.returncode == 0 and os.path.isdir(os.path.join(ws, "projects", "demo", "pypto_src")),
               r.stdout + r.stderr)

        man = os.path.join(stage, "usr", "share", "man", "man1", "port-check.1.gz")
        if args.man_page == "ON":
            text = gzip.open(man, "rt", encoding="utf-8").read() if os.path.exists(man) else ""
            expect("usr/share/man/man1/port-check.1.gz: generated from the command line, names the version and "
                   "commands (tests/install/man_page_test.py checks the rest)",
                   ".TH PORT\\-CHECK" in text and f"port-check {args.version}" in text
                   and all(f'.SS "port\\-check {sub}"' in text for sub in ("lint", "check", "hook", "rules", "doctor")),
                   text[:2000] or "missing")
        else:
            print("note: the man page is not checked: this build makes none (a sanitizer or fuzz build)")

        doc = os.path.join(stage, "usr", "share", "doc", "port-check")
        shipped = {os.path.relpath(os.path.join(d, f), doc) for d, _, fs in os.walk(doc) for f in fs}
        wanted = {"copyright", "changelog.gz", "cli.md", "configuration.md", "mcp.md", "rules.md",
                  "schema/port-check-report.schema.json"}
        expect("usr/share/doc/port-check/ holds the copyright, the changelog, docs/ and its schemas",
               wanted <= shipped, sorted(wanted - shipped))
        overrides = os.path.join(stage, "usr", "share", "lintian", "overrides", "port-check")
        expect("usr/share/lintian/overrides/port-check is installed", os.path.isfile(overrides))

        completion = os.path.join(stage, "usr", "share", "bash-completion", "completions", "port-check")
        expect("usr/share/bash-completion/completions/port-check is installed", os.path.isfile(completion))
        cases = {"port-check ho": "hook", "port-check hook ": "install uninstall run",
                 "port-check lint --format s": "sarif", "port-check --fail-on w": "warning",
                 "port-check lint --no-c": "--no-cache",
                 "port-check rules LOOP00": "LOOP001 LOOP002 LOOP003 LOOP004 LOOP005", "port-check rules TOOL001": "TOOL001"}
        script = f"source {completion}\n" + "".join(
            f'COMP_WORDS=({" ".join(repr(w) for w in line.split(" "))}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); '
            f'_port_check; echo "${{COMPREPLY[*]}}"\n' for line in cases)
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                           env={**os.environ, "PATH": os.path.dirname(binary) + os.pathsep + os.environ["PATH"]})
        got = r.stdout.splitlines()
        for i, (line, want) in enumerate(cases.items()):
            expect(f"completion of '{line}' is '{want}'", i < len(got) and got[i] == want,
                   f"got {got[i] if i < len(got) else None!r}; {r.stderr}")

    return expect.status()


if __name__ == "__main__":
    sys.exit(main())
