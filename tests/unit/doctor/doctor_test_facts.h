#pragma once
// Doctor facts for the tests: a machine where everything works (ptoas at the pin, clang++ with the BF16
// pieces as g++-15), and a lookup of one check by its id.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "doctor/doctor_checks.h"

namespace portcheck::doctor {

using nlohmann::json;

// Facts of a machine where everything works (ptoas at the pin, clang++ with the BF16 pieces as g++-15).
inline ToolchainFacts healthyFacts() {
  ToolchainFacts f;
  f.toolchain.found = true;
  f.toolchain.pypto_root = "/opt/pypto";
  f.toolchain.origin = "../pypto";
  f.toolchain.revision = "e2d0f78ae";
  f.toolchain.python = "venv/bin/python";
  f.toolchain.ptoas = "/opt/ptoas/ptoas";
  f.toolchain.ptoas_origin = "PATH";
  f.probe = json::parse(R"({
    "schema": "port-check-doctor-probe/1", "python": "3.11.7", "executable": "venv/bin/python",
    "torch": {"ok": true, "version": "2.6.0", "uint16": true},
    "pypto": {"ok": true, "path": "/opt/pypto/python/pypto"},
    "pypto_layout": {"found": true, "path": "/opt/pypto/python/pypto", "language": true, "ir": true,
                     "frontend": false},
    "tile_view": {"ok": true},
    "nanobind": {"installed": true, "version": "2.9.2", "from_index": true},
    "distributions": {"pypto": {"installed": false}, "ptoas": {"installed": false},
                      "simpler": {"installed": false}},
    "cloudpickle": {"ok": true, "version": "3.1.2"},
    "simpler_setup": {"ok": true, "path": "/opt/pypto/runtime/simpler_setup"},
    "simpler_root": "/opt/pypto/runtime",
    "task_interface": {"ok": true, "path": "/opt/venv/site-packages"},
    "pto_isa": {"ok": true, "pin": "cd4a3d3f7a1a27fcfe536f617e9bca3008929664",
                "head": "cd4a3d3f7a1a27fcfe536f617e9bca3008929664", "clean": true,
                "checkout": "/opt/pypto/runtime/build/pto-isa"}})");
  f.ptoas = {true, "0.57", "ptoas 0.57", "v0.57"};
  f.kernel_compiler.path = "/usr/local/bin/g++-15";
  f.kernel_compiler.version_line = "g++-15 (GCC) 15.1.0";
  f.kernel_compiler.probed = f.kernel_compiler.headers_ok = true;
  f.kernel_compiler.bf16_type_real = f.kernel_compiler.bf16_runs = true;
  return f;
}

inline const Check& find(const std::vector<Check>& checks, const std::string& id) {
  for (const Check& c : checks)
    if (c.id == id) return c;
  static Check none{"<none>", Level::Passes, "", CheckState::Missing, "", ""};
  ADD_FAILURE() << "no check " << id;
  return none;
}

}  // namespace portcheck::doctor
