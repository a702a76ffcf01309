#pragma once
// Fills a report's schedule row with the device-time model's figures.
#include "core/report.h"
#include "perf/device_schedule.h"

namespace portcheck::perf {

void fillDeviceTime(ScheduleRow& row, const DeviceTime& time);

}  // namespace portcheck::perf
