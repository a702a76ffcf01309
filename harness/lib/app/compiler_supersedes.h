#pragma once
// When the compiler reports what a lint rule predicted at the same line, one finding says it: the
// compiler's (PERF001 [PH001] supersedes DSL117, the lint's forecast of the same narrow-row hint).
#include "core/report.h"

namespace portcheck {

// Drops each lint finding a compiler finding of the same file and line supersedes, and notes on the
// compiler's finding that the lint saw it first. Returns how many were dropped.
std::size_t dropSupersededLintFindings(Report& report);

}  // namespace portcheck
