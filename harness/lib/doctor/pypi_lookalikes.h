#pragma once
// PyPI names that look like the toolchain but are not it (measured 2026-11-27, docs/doctor.md):
// `pypto` 0.2.0 is CANN's PyPTO, a different project with the same import name; `ptoas` 0.1.1 ships a binary
// that cannot start (its bundled MLIR libraries are incomplete); `simpler` is a placeholder. Each finding
// says what was found, where, why it is not usable, and the fix. Pure: reads the facts only.
#include <optional>
#include <string>

#include "doctor/doctor_checks.h"

namespace portcheck::doctor {

// passes.import (Missing) when `import pypto` gives CANN's PyPTO; passes.pypi_pypto (Warning) when CANN's
// PyPTO is installed but hw-native-sys PyPTO still wins under port-check's PYTHONPATH.
std::optional<Check> pyptoLookalike(const ToolchainFacts& facts, const std::string& python);

// kernels.ptoas (Missing) when the ptoas found cannot start for want of its MLIR libraries, naming PyPI's
// wheel when that is installed; kernels.pypi_ptoas (Warning) when that wheel is installed but another ptoas
// is the one found.
std::optional<Check> ptoasLookalike(const ToolchainFacts& facts, const std::string& python);

// simulator.simpler (Missing) when simpler_setup is not importable and PyPI's placeholder `simpler` is
// installed.
std::optional<Check> simplerLookalike(const ToolchainFacts& facts, const std::string& python);

}  // namespace portcheck::doctor
