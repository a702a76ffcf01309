#!/usr/bin/env python3
"""The pre-commit framework runs port-check's hook manifest (.pre-commit-hooks.yaml) end to end.

One pre-commit per run: `--pre-commit debian` is Debian's /usr/bin/pre-commit (3.0.4 on Debian 12),
`--pre-commit pypi` the newest release from PyPI, installed in a virtual environment under
--cache-dir (reused, refreshed once a day). A scratch repository gets README.md's
.pre-commit-config.yaml block pointed at a temporary git commit of the project's manifest, and
port-check on PATH. Then: a clean port commits; a port with a syntax error is blocked and DSL001 is
shown; `SKIP=port-check` and `--no-verify` get through; the manual-stage hook runs on demand;
`pre-commit run --all-files` fails on a committed port with errors.
Exits 77 (ctest: skipped) naming what is missing when that pre-commit cannot be had."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "readme"))
from readme_blocks import readme_block  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import last_line, skip  # noqa: E402

DEBIAN_PRE_COMMIT = "/usr/bin/pre-commit"
PORT = "row_softmax"  # a small valid bundled port
HOOK_NAME = "port-check (PyPTO ports, lint)"
MANUAL_HOOK_NAME = "changed since origin/main"


def debian_pre_commit():
    if not os.access(DEBIAN_PRE_COMMIT, os.X_OK):
        skip(f"Debian's pre-commit is not installed ({DEBIAN_PRE_COMMIT}): apt install pre-commit "
             "(scripts/bootstrap.sh installs it)")
    return DEBIAN_PRE_COMMIT


def pypi_pre_commit(cache_dir):
    """pre-commit from PyPI in cache_dir/pre-commit-venv: created once, upgraded when a day old."""
    venv = os.path.join(cache_dir, "pre-commit-venv")
    exe = os.path.join(venv, "bin", "pre-commit")
    stamp = os.path.join(venv, "installed-from-pypi")
    if os.path.exists(exe) and os.path.exists(stamp) and time.time() - os.path.getmtime(stamp) < 86400:
        return exe
    if not os.path.exists(os.path.join(venv, "bin", "python")):
        r = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            skip(f"`{sys.executable} -m venv` failed (Debian: apt install python3-venv): {last_line(r)}")
    r = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "--timeout", "20", "--retries", "1",
                        "--upgrade", "pre-commit"], capture_output=True, text=True)
    if r.returncode != 0:
        if os.path.exists(exe):
            print(f"note: could not upgrade pre-commit from PyPI, using the cached one: {last_line(r)}")
            return exe
        skip(f"could not install pre-commit from PyPI into {venv} (no network or no PyPI?): {last_line(r)}")
    open(stamp, "w").close()
    return exe


class Scratch:
    """A scratch repository under `root` whose pre-commit runs `pre_commit` with port-check on PATH."""

    def __init__(self, root, pre_commit, port_check):
        self.pre_commit = pre_commit
        self.work = os.path.join(root, "work")
        bin_dir = os.path.join(root, "bin")
        os.makedirs(bin_dir)
        os.symlink(os.path.abspath(port_check), os.path.join(bin_dir, "port-check"))
        open(os.path.join(root, "gitconfig"), "w").write(
            "[user]\n\tname = port-check test\n\temail = test@example.invalid\n"
            "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
        # Neither the caller's git state nor its pre-commit settings leak in.
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("GIT_", "PRE_COMMIT")) and k != "SKIP"}
        self.env.update(GIT_CONFIG_GLOBAL=os.path.join(root, "gitconfig"), GIT_CONFIG_NOSYSTEM="1",
                        PRE_COMMIT_HOME=os.path.join(root, "pre-commit-home"), NO_COLOR="1",
                        PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))

    def run(self, *argv, cwd=None, **extra_env):
        r = subprocess.run(list(argv), cwd=cwd or self.work, env={**self.env, **extra_env},
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    def git(self, *argv, cwd=None, **extra_env):
        return self.run("git", *argv, cwd=cwd, **extra_env)

    def head(self):
        return self.git("rev-parse", "HEAD")[1].strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pre-commit", choices=["debian", "pypi"], required=True)
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--cache-dir", required=True)
    args = ap.parse_args()
    args.cache_dir = os.path.abspath(args.cache_dir)
    os.makedirs(args.cache_dir, exist_ok=True)
    pre_commit = debian_pre_commit() if args.pre_commit == "debian" else pypi_pre_commit(args.cache_dir)
    version = subprocess.run([pre_commit, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version} ({pre_commit})")

    failures = []

    def expect(name, ok, output=""):
        print(("ok: " if ok else "FAIL: ") + name)
        if not ok:
            failures.append(name)
            print("    " + output.replace("\n", "\n    "))

    with tempfile.TemporaryDirectory(prefix="port-check-pre-commit-") as root:
        s = Scratch(root, pre_commit, args.port_check)

        # The hook repository: the project's manifest, as it is in the source tree, in a commit.
        hooks = os.path.join(root, "hooks")
        os.makedirs(hooks)
        shutil.copy(os.path.join(args.source_dir, ".pre-commit-hooks.yaml"), hooks)
        s.git("init", "-q", cwd=hooks)
        s.git("add", ".", cwd=hooks)
        s.git("commit", "-q", "-m", "hook manifest", cwd=hooks)
        rev = s.git("rev-parse", "HEAD", cwd=hooks)[1].strip()

        config = readme_block(os.path.join(args.source_dir, "README.md"), "pre-commit-config")
        for placeholder, value in (("<URL of the port-check repository>", hooks), ("<release tag or commit>", rev)):
            if placeholder not in config:
                sys.exit(f"README's pre-commit-config block lost its placeholder {placeholder!r}:\n{config}")
            config = config.replace(placeholder, value)

        os.makedirs(s.work)
        s.git("init", "-q")
        open(os.path.join(s.work, ".pre-commit-config.yaml"), "w").write(config)
        port = os.path.join(s.work, "projects", PORT)
        shutil.copytree(os.path.join(args.source_dir, "projects", PORT), port,
                        ignore=shutil.ignore_patterns("__pycache__"))
        incore = os.path.join(port, "pypto_src", "incore.py")
        golden = os.path.join(port, "pypto_src", "golden.py")

        rc, out = s.run(pre_commit, "install")
        expect("pre-commit install", rc == 0, out)

        s.git("add", "-A")
        rc, out = s.git("commit", "-m", "a clean port")
        expect("a clean port commits (port-check ran and passed)",
               rc == 0 and HOOK_NAME in out and "Passed" in out, out)
        expect("no warnings from pre-commit (manifest stage names, language)", "[WARNING]" not in out, out)
        expect("the manual-stage hook does not run on commit", MANUAL_HOOK_NAME not in out, out)

        s.git("update-ref", "refs/remotes/origin/main", "HEAD")
        rc, out = s.run(pre_commit, "run", "--hook-stage", "manual", "port-check-changed")
        expect("manual stage on demand: nothing changed since origin/main passes",
               rc == 0 and MANUAL_HOOK_NAME in out and "Passed" in out, out)

        open(incore, "a").write("\ndef broken(:\n")
        s.git("add", "-A")
        before = s.head()
        rc, out = s.git("commit", "-m", "a broken port")
        expect("a broken port is blocked and DSL001 is shown",
               rc != 0 and "Failed" in out and "DSL001" in out and "incore.py" in out and s.head() == before, out)

        rc, out = s.git("commit", "-m", "broken, skipped knowingly", SKIP="port-check")
        expect("SKIP=port-check git commit gets through",
               rc == 0 and "Skipped" in out and s.head() != before, out)

        open(golden, "a").write("\ndef also_broken(:\n")
        s.git("add", "-A")
        before = s.head()
        rc, out = s.git("commit", "-m", "broken again")
        expect("the next broken commit is blocked again", rc != 0 and "DSL001" in out and s.head() == before, out)
        rc, out = s.git("commit", "--no-verify", "-m", "broken, no verify")
        expect("git commit --no-verify gets through", rc == 0 and HOOK_NAME not in out and s.head() != before, out)

        rc, out = s.run(pre_commit, "run", "--hook-stage", "manual", "port-check-changed")
        expect("manual stage on demand: the branch's broken port fails with DSL001",
               rc != 0 and MANUAL_HOOK_NAME in out and "DSL001" in out, out)

        # Nothing staged, the broken port committed: --all-files names every file, and the hook checks them.
        rc, out = s.git("status", "--porcelain")
        expect("the work tree is clean before --all-files", out.strip() == "", out)
        rc, out = s.run(pre_commit, "run", "--all-files")
        expect("pre-commit run --all-files fails on the committed port's errors (DSL001)",
               rc != 0 and HOOK_NAME in out and "Failed" in out and "DSL001" in out, out)

    print(f"{version}: {'all cases passed' if not failures else f'{len(failures)} case(s) failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
