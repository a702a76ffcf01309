#!/usr/bin/env python3
"""README.md's "Use it in your repository" blocks do what they say, so README and code cannot drift:
the install block installs a port-check that runs (into a DESTDIR staging folder, with `sudo`
dropped and `build` meaning this build); with that port-check on PATH, the git-hook block installs a
hook that passes a clean port and blocks a broken one; the GitHub Actions block's lint command writes
the SARIF log its upload step names; the .mcp.json block names a server that answers an MCP initialize.
The .deb file names in README carry the current version.
(The pre-commit-config block is run by tests/hooks/pre_commit_framework_test.py.)"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from readme_blocks import readme_block

PORT = "row_softmax"  # a small valid bundled port


def commands(block):
    """The block's command lines, without comments."""
    return [line.split(" #")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith("#")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--version", required=True)
    args = ap.parse_args()
    args.build_dir, args.source_dir = os.path.abspath(args.build_dir), os.path.abspath(args.source_dir)
    readme = os.path.join(args.source_dir, "README.md")
    failures = []

    def expect(name, ok, detail=""):
        print(("ok: " if ok else "FAIL: ") + name)
        if not ok:
            failures.append(name)
            if detail:
                print("    " + str(detail).replace("\n", "\n    "))

    debs = set(re.findall(r"port-check_([0-9][^_]*)_[a-z0-9]+\.deb", open(readme, encoding="utf-8").read()))
    expect(f"README's .deb names carry version {args.version}", debs == {args.version}, f"found {sorted(debs)}")

    with tempfile.TemporaryDirectory(prefix="port-check-readme-") as root:
        stage = os.path.join(root, "stage")
        for cmd in commands(readme_block(readme, "install")):
            argv = cmd.split()
            if argv[0] == "sudo":
                argv = argv[1:]
            if argv[:3] == ["cmake", "--install", "build"]:
                argv[2] = args.build_dir
            r = subprocess.run(argv, cwd=args.source_dir, env={**os.environ, "DESTDIR": stage},
                               capture_output=True, text=True)
            expect(f"install block: {cmd}", r.returncode == 0, r.stdout + r.stderr)
        binary = os.path.join(stage, "usr", "local", "bin", "port-check")
        r = subprocess.run([binary, "--version"], capture_output=True, text=True)
        expect("install block: /usr/local/bin/port-check runs", r.returncode == 0, r.stdout + r.stderr)
        if r.returncode != 0:
            return 1

        gitconfig = os.path.join(root, "gitconfig")
        open(gitconfig, "w").write("[user]\n\tname = port-check test\n\temail = test@example.invalid\n"
                                   "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(GIT_CONFIG_GLOBAL=gitconfig, GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1",
                   PATH=os.path.dirname(binary) + os.pathsep + os.environ["PATH"])

        def run(argv, cwd, shell=False):
            r = subprocess.run(argv, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            return r.returncode, r.stdout

        repo = os.path.join(root, "repo")
        shutil.copytree(os.path.join(args.source_dir, "projects", PORT), os.path.join(repo, "projects", PORT),
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(os.path.join(args.source_dir, "pypto-lib"), os.path.join(repo, "pypto-lib"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        run(["git", "init", "-q"], repo)

        rc, out = run("set -e\n" + readme_block(readme, "git-hook"), repo, shell=True)
        expect("git-hook block installs the hook",
               rc == 0 and os.path.exists(os.path.join(repo, ".git", "hooks", "pre-commit")), out)
        run(["git", "add", "-A"], repo)
        rc, out = run(["git", "commit", "-q", "-m", "clean"], repo)
        expect("git-hook block: a clean port commits", rc == 0, out)
        open(os.path.join(repo, "projects", PORT, "pypto_src", "incore.py"), "a").write("\ndef broken(:\n")
        run(["git", "add", "-A"], repo)
        rc, out = run(["git", "commit", "-q", "-m", "broken"], repo)
        expect("git-hook block: a broken port is blocked with DSL001", rc != 0 and "DSL001" in out, out)
        run(["git", "reset", "-q", "--hard"], repo)

        workflow = readme_block(readme, "github-actions")
        lint = re.findall(r"- run: (port-check .*)", workflow)
        sarif = re.search(r"sarif_file: (\S+)", workflow)
        expect("github-actions block: one port-check run step and an upload-sarif step",
               len(lint) == 1 and sarif and "github/codeql-action/upload-sarif@" in workflow, workflow)
        if len(lint) == 1 and sarif:
            rc, out = run(lint[0], repo, shell=True)
            path = os.path.join(repo, sarif.group(1))
            log = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else {}
            expect(f"github-actions block: `{lint[0]}` writes the SARIF 2.1.0 log {sarif.group(1)}",
                   rc in (0, 1) and log.get("version") == "2.1.0"
                   and log["runs"][0]["tool"]["driver"]["name"] == "port-check", out)

        # The .mcp.json block starts a server that answers an MCP initialize.
        servers = json.loads(readme_block(readme, "mcp-config"))["mcpServers"]
        server = servers.get("port-check", {})
        command = [binary if server.get("command") == "port-check" else server.get("command", ""), *server.get("args", [])]
        hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                       "clientInfo": {"name": "readme", "version": "0"}}})
        r = subprocess.run(command, input=hello + "\n", cwd=repo, capture_output=True, text=True, timeout=60)
        reply = json.loads(r.stdout.splitlines()[0]) if r.stdout.strip() else {}
        expect("mcp-config block: the server it names answers initialize",
               reply.get("result", {}).get("serverInfo", {}).get("name") == "port-check", r.stdout + r.stderr)

    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
