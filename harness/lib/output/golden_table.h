#pragma once
// The run stage's results as a fixed-width table for text output: one row per compared output,
// one per run that could not compare (with its failure class and rule).
#include <string>
#include <vector>

#include "core/report.h"

namespace portcheck {

std::string renderGoldenTable(const std::vector<GoldenRun>& runs);

}  // namespace portcheck
