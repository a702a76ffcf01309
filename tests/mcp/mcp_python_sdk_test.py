#!/usr/bin/env python3
"""port-check mcp driven by the official MCP Python SDK (`mcp`, the newest release on PyPI) with its
default client: `Client(StdioServerParameters(...))` probes `server/discover` at revision 2026-07-28 and
falls back to the `initialize` handshake only when the server does not answer it. The test checks that it
does not fall back, lists the tools (no output schema spells its type as an array, which MCP Inspector
flags as unportable), calls lint (the SDK validates the structured report against the tool's output
schema) and that a path outside the server's root is refused: without client roots (deprecated in
2026-07-28) the root is the folder the server was started in, or --root DIR. The handshake revisions
still work (`mode="legacy"`).

The SDK lives in a virtual environment under --venv (created once, upgraded when a day old); the test
exits 77 (ctest: skipped) naming what is missing when python3-venv or PyPI is not there."""
import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks, last_line, skip  # noqa: E402

PORT = "row_softmax"  # a small valid bundled port
MODERN = "2026-07-28"


def sdk_python(venv):
    """The venv's python with the newest `mcp` from PyPI."""
    python = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, "mcp-installed-from-pypi")
    if os.path.exists(stamp) and time.time() - os.path.getmtime(stamp) < 86400:
        return python
    if not os.path.exists(python):
        r = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            skip(f"`{sys.executable} -m venv` failed (Debian: apt install python3-venv): {last_line(r)}")
    r = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--timeout", "20", "--retries", "1", "--upgrade", "mcp"], capture_output=True, text=True)
    if r.returncode != 0:
        if os.path.exists(stamp):
            print(f"note: could not upgrade mcp from PyPI, using the installed one: {last_line(r)}")
            return python
        skip(f"could not install the MCP Python SDK (pip install mcp) into {venv}: no network or no PyPI? "
             f"{last_line(r)}")
    open(stamp, "w").close()
    return python


def type_arrays(schema, path=""):
    """Paths of the subschemas whose `type` is an array (instances in enum/const/default not searched)."""
    found = []
    if isinstance(schema, dict):
        if isinstance(schema.get("type"), list):
            found.append(path or "/")
        for key, value in schema.items():
            if key not in ("enum", "const", "default", "examples"):
                found += type_arrays(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            found += type_arrays(value, f"{path}/{i}")
    return found


async def client_checks(port_check, ws, elsewhere, expect):
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    def text(result):
        return "".join(getattr(c, "text", "") for c in result.content)

    served = StdioServerParameters(command=port_check, args=["mcp"], cwd=ws)
    async with Client(served) as client:  # the default client: mode="auto"
        expect(f"the default client settles on {MODERN} (server/discover answered, no fallback)",
               client.protocol_version == MODERN, client.protocol_version)
        expect("server/discover names the server", client.server_info and client.server_info.name == "port-check",
               client.server_info)
        tools = (await client.list_tools()).tools
        names = sorted(t.name for t in tools)
        expect("tools/list lists lint, check and explain_rule", {"lint", "check", "explain_rule"} <= set(names), names)
        unportable = {t.name: type_arrays(t.output_schema) for t in tools if type_arrays(t.output_schema)}
        expect("no output schema spells a type as an array", not unportable,
               {name: f"{len(paths)}, e.g. {paths[0]}" for name, paths in unportable.items()})

        r = await client.call_tool("lint", {"paths": [f"projects/{PORT}"]})
        report = r.structured_content or {}
        expect("lint answers with the report, validated by the SDK against the output schema",
               not r.is_error and "summary" in report and report.get("schema_version"), text(r)[:400])
        r = await client.call_tool("explain_rule", {"id": "MEM001"})
        expect("explain_rule answers", not r.is_error and (r.structured_content or {}).get("id") == "MEM001", text(r)[:400])

        for outside in ("/etc", "../.."):
            r = await client.call_tool("lint", {"paths": [outside]})
            expect(f"lint of {outside} (outside the folder the server serves) is refused",
                   r.is_error and "outside the workspace roots" in text(r), text(r)[:400])

    # Started elsewhere, --root names the workspace: relative paths resolve in it, nothing outside it.
    rooted = StdioServerParameters(command=port_check, args=["mcp", "--root", ws], cwd=elsewhere)
    async with Client(rooted) as client:
        r = await client.call_tool("lint", {"paths": [f"projects/{PORT}"]})
        expect("with --root, a relative path resolves inside the root", not r.is_error, text(r)[:400])
        r = await client.call_tool("lint", {"paths": [elsewhere]})
        expect("with --root, the folder the server was started in is refused",
               r.is_error and "outside the workspace roots" in text(r), text(r)[:400])

    async with Client(served, mode="legacy") as client:
        expect("a handshake client (mode=legacy) still gets 2025-11-25", client.protocol_version == "2025-11-25",
               client.protocol_version)
        r = await client.call_tool("lint", {"paths": [f"projects/{PORT}"]})
        expect("a handshake client's lint answers", not r.is_error, text(r)[:400])


def run_client(args):
    expect = Checks()

    import mcp  # noqa: F401  (fails here, not in the middle, when the venv lacks it)
    from importlib.metadata import version
    print(f"MCP Python SDK {version('mcp')}")
    with tempfile.TemporaryDirectory(prefix="port-check-mcp-py-") as root:
        ws, elsewhere = os.path.join(root, "ws"), os.path.join(root, "elsewhere")
        shutil.copytree(os.path.join(args.source_dir, "projects", PORT), os.path.join(ws, "projects", PORT),
                        ignore=shutil.ignore_patterns("__pycache__", ".port-check"))
        os.makedirs(elsewhere)
        asyncio.run(client_checks(args.port_check, ws, elsewhere, expect))
    return expect.status()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-check", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--venv", help="virtual environment for the SDK (created when missing)")
    ap.add_argument("--client", action="store_true", help="run the checks (inside the venv)")
    args = ap.parse_args()
    args.port_check, args.source_dir = os.path.abspath(args.port_check), os.path.abspath(args.source_dir)
    if args.client:
        return run_client(args)
    python = sdk_python(os.path.abspath(args.venv))
    return subprocess.run([python, os.path.abspath(__file__), "--client", "--port-check", args.port_check,
                           "--source-dir", args.source_dir]).returncode


if __name__ == "__main__":
    sys.exit(main())
