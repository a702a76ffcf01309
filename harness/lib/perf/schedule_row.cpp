#include "perf/schedule_row.h"

#include <algorithm>

namespace portcheck::perf {

void fillDeviceTime(ScheduleRow& row, const DeviceTime& time) {
  row.device_us = time.total_us;
  row.aic_utilisation = time.aic_utilisation;
  row.aiv_utilisation = time.aiv_utilisation;
  row.aic = time.aic;
  row.aiv = time.aiv;
  for (const std::string& why : time.unknown)
    if (std::find(row.unknown.begin(), row.unknown.end(), why) == row.unknown.end()) row.unknown.push_back(why);
  double longest = -1;
  for (const SiteTime& s : time.sites) {
    KernelTime k;
    k.kernel = s.kernel;
    k.core = s.core;
    k.tasks = s.tasks;
    k.task_us = s.largest.task;
    k.bound = s.largest.bound;
    k.mte2_us = s.largest.mte2;
    k.mte1_us = s.largest.mte1;
    k.cube_us = s.largest.cube;
    k.fixp_us = s.largest.fixp;
    k.vector_us = s.largest.vector;
    k.mte3_us = s.largest.mte3;
    k.scalar_us = s.largest.scalar;
    k.busy_us = s.busy_us;
    k.start_us = s.first_start_us;
    k.end_us = s.last_end_us;
    k.critical_us = s.critical_us;
    if (time.total_us && s.critical_us > longest) {
      longest = s.critical_us;
      row.bound = s.largest.bound;
    }
    row.kernel_times.push_back(std::move(k));
  }
  for (const CriticalStep& c : time.critical) row.critical_path.push_back({c.kernel, c.tasks, c.us, c.waits});
  for (const TaskBar& b : time.bars)
    row.timeline.push_back({time.sites[static_cast<std::size_t>(b.site)].kernel, b.lane, b.start_us, b.end_us, b.critical});
}

}  // namespace portcheck::perf
