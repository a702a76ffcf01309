#pragma once
// The simulator runtime's no-progress watchdog line (simpler, scheduler_cold_path.cpp):
//   [STALL thread=1 idle_iterations=N] TIMEOUT_EXIT after_idle_iterations=N sub_class=S1:running-stalled
//   completed=1/2 running=1 ready=0 waiting=0 orch_done=1 stuck_task_id=4294967297 stuck_core=11
// and what its sub-class means (pto_runtime_status.h, PTO2_STALL_DETAIL_*).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace portcheck {

struct RuntimeStall {
  std::string sub_class;   // "S1:running-stalled", "S3:ready-but-all-idle", "S4:dependency-deadlock", ...
  std::string meaning;     // what the runtime means by it, and what in a port causes it
  int completed = 0, total = 0, running = 0, ready = 0, waiting = 0;
  bool orch_done = false;
  std::optional<int> stuck_core;  // the core the stuck task runs on (S1), when reported
};

// The first watchdog line in `log`; nullopt when there is none.
std::optional<RuntimeStall> parseRuntimeStall(std::string_view log);

// One line for a diagnostic note: "S1:running-stalled: a task is on a core and never completes ...;
// 1 of 2 tasks completed, 1 running, 0 ready, 0 waiting (stuck core 11)".
std::string describeRuntimeStall(const RuntimeStall& stall);

}  // namespace portcheck
