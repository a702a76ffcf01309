#pragma once
// passes.bindings: PyPTO's native module can build the `ir.TileView()` its parser makes. Built against
// nanobind >= 3 it cannot (toolchain/nanobind_trap.h), and every program then fails to parse.
#include <string>

#include "doctor/doctor_checks.h"

namespace portcheck::doctor {

Check pyptoBindingsCheck(const ToolchainFacts& facts, const std::string& python);

// The last line of a Python error ("ModuleNotFoundError: No module named 'torch'").
std::string pythonErrorLine(std::string text);

}  // namespace portcheck::doctor
