#pragma once
// The device-time model of one run of a port (docs/perf-model.md): every task the orchestration
// dispatches, in dispatch order, placed on the cores of the platform as the runtime's scheduler places
// them (the first free core of the task's kind; a mixed task takes a whole cluster), once its producers
// are done and the orchestrator has submitted it. Tasks that run at once share the HBM bandwidth, those
// of other sites running beside them included. Gives the estimated µs of the run, of each kernel's
// tasks, the critical path, each kind of core's utilisation, and a timeline.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost/schedule_cost.h"
#include "perf/device_spec.h"
#include "perf/task_time.h"

namespace portcheck::perf {

// One dispatch site's tasks.
struct SiteTime {
  std::string kernel;
  std::string core;              // AIV, AIC or MIX
  std::int64_t tasks = 0;
  PipeTimes largest;             // the largest task's pipes
  double busy_us = 0;            // its tasks' time summed (core-µs)
  double first_start_us = 0, last_end_us = 0;
  double critical_us = 0;        // its tasks' time on the critical path
};

// One task on the timeline.
struct TaskBar {
  int site = -1;
  std::int64_t index = 0;        // the task's number within its site
  std::string lane;              // "AIV 3", "AIC 0", "cluster 2"
  double start_us = 0, end_us = 0;
  bool critical = false;
};

// A stretch of the critical path spent in one kernel's tasks.
struct CriticalStep {
  std::string kernel;
  std::int64_t tasks = 0;
  double us = 0;
  std::string waits;             // what the first of them waited for: "submit", "core", "<producer kernel>"
};

struct DeviceTime {
  std::optional<double> total_us;        // nullopt: some site's work is not static (see `unknown`)
  std::vector<SiteTime> sites;           // as ScheduleCost::kernels
  std::vector<CriticalStep> critical;    // in time order
  double aic_utilisation = 0, aiv_utilisation = 0;  // busy core-time / (cores x total)
  double submit_us = 0;                  // the orchestrator's time to submit every task
  std::vector<TaskBar> bars;             // the timeline (capped; the critical path always kept)
  std::int64_t tasks = 0;
  int aic = 0, aiv = 0;
  std::vector<std::string> unknown;
};

// The most tasks simulated one by one; a larger run is reported unknown.
inline constexpr std::int64_t kSimulatedTaskLimit = 4'000'000;
// The most times the tasks are placed again with the HBM shared by the sites that ran side by side.
inline constexpr int kSharingPasses = 4;
// The most bars kept for the timeline.
inline constexpr std::size_t kTimelineBars = 4000;

DeviceTime deviceTime(const cost::ScheduleCost& cost, const DeviceSpec& spec);

}  // namespace portcheck::perf
