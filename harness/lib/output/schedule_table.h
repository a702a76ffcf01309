#pragma once
// The cost of each unit's schedule (ScheduleRow) as a fixed-width table for text output.
#include <string>
#include <vector>

#include "core/report.h"

namespace portcheck {

// Columns: unit, kernels, tasks, GM bytes, critical-path GM bytes; then why any figure is unknown.
std::string renderScheduleTable(const std::vector<ScheduleRow>& rows);

}  // namespace portcheck
