#pragma once
// Ctrl-C for a command that runs child processes in their own process groups (process/subprocess.h),
// which the terminal's SIGINT does not reach: while an InterruptFlag lives, SIGINT and SIGTERM set a
// flag instead of ending port-check, the caller passes it as ProcessSpec::cancel so the child's group is
// killed, and reports the interruption. The previous handlers are restored when it goes.
#include <atomic>
#include <csignal>

namespace portcheck {

class InterruptFlag {
 public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>* flag() const;
  bool raised() const { return flag()->load(); }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace portcheck
