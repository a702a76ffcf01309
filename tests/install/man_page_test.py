#!/usr/bin/env python3
"""The port-check(1) man page the build generates (packaging/): groff renders it without a warning
(`groff -ww -z -man`) and man(1) renders it (`man -l`); it has the sections a reader looks for (NAME,
SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS, EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO); every command the
binary's --help lists has its subsection, and every option a command's --help lists is in the page
(generated from the same CLI11 app, it cannot drift); no CLI11 default syntax (`--no-cache{false}`)
shows; ENVIRONMENT names every variable harness/ reads; and every document the page points to under
/usr/share/doc/port-check/ is one the package ships (docs/)."""
import argparse
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES",
            "SEE ALSO"]
# How harness/ reads a variable: getenv("X"), getenv_fn("X"), envValue(env, "X"), base.find("X") on the
# environment it passes on.
ENV_READ = re.compile(r'(?:getenv(?:_fn)?\(|envValue\(\w+, |base\.find\()"([A-Z][A-Z0-9_]+)"')


def help_commands(port_check, words):
    """The subcommands `port-check WORDS --help` lists."""
    text = subprocess.run([port_check, *words, "--help"], capture_output=True, text=True).stdout
    part = text.split("Subcommands:", 1)
    return re.findall(r"^  (\S+)", part[1], re.M) if len(part) == 2 else []


def help_options(port_check, words):
    """The option names `port-check WORDS --help` lists (long ones, and short ones without a long)."""
    text = subprocess.run([port_check, *words, "--help"], capture_output=True, text=True).stdout
    text = text.split("Subcommands:", 1)[0]
    names = set()
    for line in text.splitlines():
        m = re.match(r"^\s+(-[-\w]+(?:,\s?-[-\w]+)*)", line)
        if m:
            found = [n.strip() for n in m.group(1).split(",")]
            longs = [n for n in found if n.startswith("--")]
            names.update(longs or found)
    return names - {"--help", "-h"}


def section(text, name):
    m = re.search(rf"^{re.escape(name)}\n(.*?)(?=^[A-Z][A-Z ]+\n|\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--man-page", required=True, help="the generated port-check.1.gz")
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    args = ap.parse_args()
    expect = Checks(detail_limit=3000)

    source = gzip.open(args.man_page, "rt", encoding="utf-8").read()
    r = subprocess.run(["groff", "-ww", "-z", "-man", "-Tutf8"], input=source, capture_output=True, text=True)
    expect("groff -ww -z -man renders it without a warning", r.returncode == 0 and not r.stderr.strip(), r.stderr)
    r = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=100n", "-rHY=0"], input=source, capture_output=True,
                       text=True, env={**os.environ, "LC_ALL": "C.UTF-8"})
    page = r.stdout.replace("\u2212", "-").replace("\u2010", "-")  # \- may render as a minus sign
    if shutil.which("man"):
        m = subprocess.run(["man", "-l", args.man_page], capture_output=True, text=True,
                           env={**os.environ, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"})
        expect("man -l renders it", m.returncode == 0 and "EXIT STATUS" in m.stdout, m.stderr)
    else:
        print("note: man (man-db) is not installed; rendered with groff only")

    for name in SECTIONS:
        expect(f"the page has a {name} section", section(page, name).strip() != "", page[:1500])
    expect("no CLI11 flag-default syntax ({false}, {true}) in the page", not re.search(r"\{(false|true)\}", page),
           re.findall(r".*\{(?:false|true)\}.*", page)[:5])

    commands = section(page, "COMMANDS")
    options = section(page, "OPTIONS") + commands
    queue = [[c] for c in help_commands(args.port_check, [])]
    expect("--help lists the commands", len(queue) >= 10, queue)
    while queue:
        words = queue.pop(0)
        queue += [words + [c] for c in help_commands(args.port_check, words)]
        title = "port-check " + " ".join(words)
        expect(f"COMMANDS has a subsection for `{title}`", re.search(rf"^\s+{re.escape(title)}\s*$", commands, re.M),
               commands[:800])
        missing = sorted(o for o in help_options(args.port_check, words) if o not in options)
        expect(f"every option of `{title} --help` is in the page", not missing, missing)

    env = set()
    for path in glob.glob(os.path.join(args.source_dir, "harness", "**", "*.cpp"), recursive=True):
        env.update(ENV_READ.findall(open(path, encoding="utf-8").read()))
    listed = section(page, "ENVIRONMENT")
    expect("harness/ reads the variables the page lists (the pattern still finds them)", {"PYPTO_ROOT", "NO_COLOR"} <= env,
           env)
    missing = sorted(v for v in env if not re.search(rf"\b{v}\b", listed))
    expect("ENVIRONMENT names every variable port-check reads", not missing, missing)

    docs = set(re.findall(r"\b([\w-]+\.md)\b", section(page, "FILES") + section(page, "SEE ALSO")))
    shipped = {os.path.basename(p) for p in glob.glob(os.path.join(args.source_dir, "docs", "*.md"))}
    expect("the page points to documents under /usr/share/doc/port-check/", "/usr/share/doc/port-check/" in page)
    expect("every document it names is in docs/, which the package installs there", docs and docs <= shipped,
           sorted(docs - shipped))
    return expect.status()


if __name__ == "__main__":
    sys.exit(main())
