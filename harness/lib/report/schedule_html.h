#pragma once
// The device-time parts of the HTML report: the summary at the top of the page (estimated µs per unit,
// the pipe that bounds it, core utilisation), the schedule table (tasks, GM bytes, critical path) and,
// per unit, the timeline: one lane per core that ran a task, the tasks as bars coloured by kernel,
// the critical path outlined, AIC, AIV and cluster lanes apart (docs/perf-model.md).
#include <string>
#include <vector>

#include "core/report.h"

namespace portcheck {

std::string scheduleSummaryHtml(const std::vector<ScheduleRow>& rows);
std::string scheduleTableHtml(const std::vector<ScheduleRow>& rows);
std::string timelineSvg(const ScheduleRow& row, int index);

}  // namespace portcheck
