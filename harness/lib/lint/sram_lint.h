#pragma once
// The estimator stage of lint: builds the DSL model of a Python unit, estimates the SRAM of its
// kernels (sram/sram_estimator.h), runs the MEM estimate checks and the FUSE advice on it, and hands
// the estimate rows to the report. Separate from lintPythonUnit so the DSL rules stay DSL-only.
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/report.h"
#include "lint/linters.h"

namespace portcheck {

// The project name SRAM rows of a unit carry: the project, else the stem of its one program file
// (the name the compile stage gives a standalone program).
std::string sramProjectName(const PythonUnit& unit);

// MEM and FUSE findings of the unit; its SRAM rows (estimate filled) are appended to `sram`.
std::vector<Diagnostic> estimatePythonUnit(const PythonUnit& unit, const LintSettings& settings,
                                           std::vector<SramRow>& sram);
// The same over a model the caller already built (the lint engine builds one per unit).
std::vector<Diagnostic> estimatePythonModel(const PythonUnit& unit, const dsl::ProgramModel& model,
                                            const LintSettings& settings, std::vector<SramRow>& sram);

}  // namespace portcheck
