"""port-check doctor's Python probe (harness/adapter/port_check_doctor.py) against stand-in packages.

Each case lays out a site folder of its own and runs the probe with that folder alone on the path (-S: no
site-packages of the machine): CANN's PyPTO as PyPI's pypto 0.2.0 installs it, PyPI's ptoas and simpler,
hw-native-sys PyPTO from a checkout (pip recorded the folder), and a pypto_core whose TileView rejects a call
without arguments as nanobind 3 does. The facts are what doctor's C++ side judges (doctor/pypi_lookalikes.h,
doctor/nanobind_check.h).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PROBE = Path(__file__).resolve().parents[2] / "harness" / "adapter" / "port_check_doctor.py"

NANOBIND3_TILE_VIEW = '''
class _Ir:
    class TileView:
        def __init__(self, *args):
            if not args:
                raise TypeError(
                    "__init__(): incompatible function arguments. The following argument types are supported:\\n"
                    "    1. __init__(self, valid_shape, stride, start_offset: pypto.pypto_core.ir.Expr) -> None\\n\\n"
                    "Invoked with types: pypto.pypto_core.ir.TileView")

ir = _Ir
'''


def write(root: Path, rel: str, text: str = "") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def distribution(site: Path, name: str, version: str, files: list[str], folder: str | None = None) -> None:
    """A dist-info as pip leaves it; `folder` adds the direct_url.json of an install from a local folder."""
    info = f"{name}-{version}.dist-info"
    write(site, f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    write(site, f"{info}/RECORD", "".join(f"{f},,\n" for f in files + [f"{info}/METADATA", f"{info}/RECORD"]))
    if folder:
        write(site, f"{info}/direct_url.json", json.dumps({"url": f"file://{folder}", "dir_info": {"editable": True}}))
    for f in files:
        if not (site / f).exists():
            write(site, f)


def run_probe(site: Path) -> dict:
    out = site.parent / "probe.json"
    subprocess.run(
        [sys.executable, "-S", "-B", str(PROBE), "--out", str(out)],
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, check=True, timeout=120,
    )
    return json.loads(out.read_text())


class DoctorProbeTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.site = Path(self._tmp.name) / "site"
        self.site.mkdir()

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_pypi_lookalikes_are_described_without_importing_them(self) -> None:
        # CANN's PyPTO imports sympy without declaring it: the import fails, its layout is still read.
        write(self.site, "pypto/__init__.py", "import sympy\n")
        distribution(self.site, "pypto", "0.2.0", ["pypto/__init__.py", "pypto/frontend/__init__.py",
                                                   "pypto/frontend/jit.py", "pypto/lib/libtile_fwk_simulation_ca.so"])
        distribution(self.site, "ptoas", "0.1.1", ["ptoas/__init__.py", "ptoas/bin/ptoas"])
        distribution(self.site, "simpler", "0.0.1", ["simpler/__init__.py"])
        probe = run_probe(self.site)
        layout = probe["pypto_layout"]
        self.assertTrue(layout["found"])
        self.assertEqual((layout["frontend"], layout["language"], layout["ir"]), (True, False, False))
        self.assertFalse(probe["pypto"]["ok"])
        self.assertIn("sympy", probe["pypto"]["error"])
        self.assertNotIn("tile_view", probe)
        dists = probe["distributions"]
        self.assertEqual(dists["pypto"]["version"], "0.2.0")
        self.assertTrue(dists["pypto"]["from_index"])
        self.assertIn("frontend", dists["pypto"]["subpackages"])
        self.assertNotIn("language", dists["pypto"]["subpackages"])
        self.assertEqual(dists["ptoas"]["version"], "0.1.1")
        self.assertEqual(dists["simpler"]["top_level"], ["simpler"])
        self.assertFalse(probe["simpler_setup"]["ok"])

    def test_tile_view_rejected_as_nanobind3_does_is_reported_with_its_type_error(self) -> None:
        write(self.site, "pypto/__init__.py")
        write(self.site, "pypto/language/__init__.py")
        write(self.site, "pypto/ir/__init__.py")
        write(self.site, "pypto/pypto_core.py", NANOBIND3_TILE_VIEW)
        distribution(self.site, "nanobind", "3.0.0", ["nanobind/__init__.py"])
        distribution(self.site, "simpler", "0.1.0", ["simpler_setup/__init__.py", "simpler/__init__.py"],
                     folder="/src/simpler")
        probe = run_probe(self.site)
        self.assertTrue(probe["pypto"]["ok"])
        self.assertEqual(probe["pypto_layout"]["language"], True)
        self.assertFalse(probe["tile_view"]["ok"])
        self.assertIn("TypeError: __init__(): incompatible function arguments", probe["tile_view"]["error"])
        self.assertEqual(probe["nanobind"]["version"], "3.0.0")
        self.assertFalse(probe["distributions"]["pypto"]["installed"])
        self.assertFalse(probe["distributions"]["simpler"]["from_index"])
        self.assertIn("simpler_setup", probe["distributions"]["simpler"]["top_level"])

    def test_tile_view_built_against_nanobind2_is_ok(self) -> None:
        write(self.site, "pypto/__init__.py")
        write(self.site, "pypto/pypto_core.py", "class ir:\n    class TileView:\n        pass\n")
        self.assertEqual(run_probe(self.site)["tile_view"], {"ok": True})


if __name__ == "__main__":
    unittest.main()
