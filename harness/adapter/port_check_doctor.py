"""port-check doctor's Python probe: what the configured interpreter can import for each toolchain level.

port-check runs it with the same interpreter and environment as a simulator run (docs/doctor.md) and
reads one JSON object from the file named by --out. Each fact is {"ok": bool, ...}; "error" is the
exception as the interpreter prints it, so the C++ side can say what is missing. Nothing here clones,
builds or downloads: pto-isa is only located and compared with the runtime's pin.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

PROBE_SCHEMA = "port-check-doctor-probe/1"


def _error(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def _module_path(module) -> str:
    path = getattr(module, "__file__", None)
    if path:
        return str(Path(path).resolve().parent)
    paths = list(getattr(module, "__path__", []) or [])
    return str(Path(paths[0]).resolve()) if paths else ""


def probe_torch() -> dict:
    try:
        import torch
    except BaseException as exc:  # noqa: BLE001 - an import can raise anything
        return {"ok": False, "error": _error(exc)}
    return {
        "ok": True,
        "version": str(torch.__version__),
        # The runtime maps UINT16/UINT32 through these (simpler_setup/torch_interop.py); torch >= 2.3.
        "uint16": hasattr(torch, "uint16") and hasattr(torch, "uint32"),
    }


def probe_module(name: str) -> dict:
    try:
        module = importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001
        return {"ok": False, "error": _error(exc)}
    fact = {"ok": True, "path": _module_path(module)}
    version = getattr(module, "__version__", None)
    if version is not None:
        fact["version"] = str(version)
    return fact


def _package_dir(name: str) -> str:
    """Where `import name` would load a package from, without importing it (an import may fail)."""
    try:
        spec = importlib.util.find_spec(name)
    except BaseException:  # noqa: BLE001 - a broken parent package raises anything
        return ""
    if spec is None:
        return ""
    locations = list(spec.submodule_search_locations or [])
    if locations:
        return str(Path(locations[0]).resolve())
    return str(Path(spec.origin).resolve().parent) if spec.origin else ""


def probe_pypto_layout() -> dict:
    """Which project `import pypto` gives: hw-native-sys PyPTO has pypto.language and pypto.ir; CANN's
    PyPTO (PyPI `pypto` 0.2.0, the same import name) has pypto.frontend and neither of those."""
    root = _package_dir("pypto")
    if not root:
        return {"found": False}
    base = Path(root)
    return {
        "found": True,
        "path": root,
        "language": (base / "language").is_dir(),
        "ir": (base / "ir").is_dir(),
        "frontend": (base / "frontend").is_dir(),
    }


def probe_distribution(name: str) -> dict:
    """An installed distribution (pip's view): version, where, and the top-level names its files hold,
    so a PyPI look-alike is told from the project port-check needs."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return {"installed": False}
    except BaseException as exc:  # noqa: BLE001 - broken metadata
        return {"installed": False, "error": _error(exc)}
    fact: dict = {"installed": True, "version": str(dist.version or "")}
    # pip writes direct_url.json for an install from a local folder or URL, none for one from an index.
    try:
        fact["from_index"] = dist.read_text("direct_url.json") is None
    except BaseException:  # noqa: BLE001
        fact["from_index"] = True
    try:
        fact["location"] = str(Path(str(dist.locate_file(""))).resolve())
    except BaseException:  # noqa: BLE001
        fact["location"] = ""
    names: set[str] = set()
    subpackages: set[str] = set()
    for f in list(dist.files or [])[:20000]:
        parts = Path(str(f)).parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info")) or parts[0] == "..":
            continue
        names.add(Path(parts[0]).stem.split(".")[0])
        if parts[0] == name and len(parts) > 2:
            subpackages.add(parts[1])
    fact["top_level"] = sorted(names)
    fact["subpackages"] = sorted(subpackages)
    return fact


def probe_tile_view() -> dict:
    """pypto's parser calls ir.TileView() with no arguments; a native module built against nanobind >= 3
    rejects that (`TypeError: __init__(): incompatible function arguments`)."""
    try:
        from pypto.pypto_core import ir  # noqa: PLC0415

        ir.TileView()
    except BaseException as exc:  # noqa: BLE001
        return {"ok": False, "error": _error(exc)}
    return {"ok": True}


def _git_head(root: Path) -> tuple[str, bool]:
    """(HEAD sha or "", clean) of a checkout, the way simpler_setup.pto_isa checks its managed tree."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True, text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return "", False
    sha = head.stdout.strip().lower() if head.returncode == 0 else ""
    return sha, status.returncode == 0 and not status.stdout.strip()


def probe_pto_isa(simpler_root: str) -> dict:
    """The runtime's pin (<simpler>/pto_isa.pin) and its managed checkout (<simpler>/build/pto-isa)."""
    if not simpler_root:
        return {"ok": False, "error": "simpler_setup is not importable"}
    root = Path(simpler_root)
    pin_file = root / "pto_isa.pin"
    fact: dict = {"pin_file": str(pin_file), "checkout": str(root / "build" / "pto-isa")}
    try:
        fact["pin"] = pin_file.read_text().strip().lower()
    except OSError as exc:
        fact.update(ok=False, error=_error(exc))
        return fact
    checkout = root / "build" / "pto-isa"
    if not (checkout / "include" / "pto").is_dir():
        fact.update(ok=False, error=f"no pto-isa checkout at {checkout}")
        return fact
    head, clean = _git_head(checkout)
    fact.update(head=head, clean=clean, ok=bool(head) and head == fact["pin"] and clean)
    return fact


def probe() -> dict:
    result: dict = {"schema": PROBE_SCHEMA, "python": sys.version.split()[0], "executable": sys.executable}
    result["torch"] = probe_torch()
    result["pypto_layout"] = probe_pypto_layout()
    result["pypto"] = probe_module("pypto")
    if result["pypto"]["ok"]:
        result["tile_view"] = probe_tile_view()
    result["nanobind"] = probe_distribution("nanobind")
    # PyPI names taken by other projects: CANN's PyPTO, a ptoas wheel that cannot start, a placeholder.
    result["distributions"] = {name: probe_distribution(name) for name in ("pypto", "ptoas", "simpler")}
    result["cloudpickle"] = probe_module("cloudpickle")
    result["simpler_setup"] = probe_module("simpler_setup")
    simpler_root = ""
    if result["simpler_setup"]["ok"]:
        simpler_root = str(Path(result["simpler_setup"]["path"]).parent)
    result["simpler_root"] = simpler_root
    # simpler's native module (built by `pip install` of simpler); the runtime imports it to dispatch.
    result["task_interface"] = probe_module("_task_interface")
    result["pto_isa"] = probe_pto_isa(simpler_root)
    result["cxx_env"] = os.environ.get("CXX", "")
    result["cc_env"] = os.environ.get("CC", "")
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        text = json.dumps(probe())
    except BaseException as exc:  # noqa: BLE001 - report, never crash without a result
        text = json.dumps({"schema": PROBE_SCHEMA, "internal_error": _error(exc)})
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
