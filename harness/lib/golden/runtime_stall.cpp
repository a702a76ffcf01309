#include "golden/runtime_stall.h"

#include <regex>

namespace portcheck {

namespace {

// PTO2_STALL_DETAIL_* of simpler's pto_runtime_status.h, with what in a port leads to each.
std::string meaningOf(std::string_view sub_class) {
  if (sub_class.rfind("S1", 0) == 0)
    return "a task is on a core and never completes: its kernel hangs (a TPOP waiting for a push that never "
           "comes, a TFREE that releases the wrong slot, a wait on a flag nobody sets)";
  if (sub_class.rfind("S3", 0) == 0)
    return "every core is idle while a task is ready: the runtime stopped dispatching (a runtime fault, not the "
           "port's arithmetic)";
  if (sub_class.rfind("S4", 0) == 0)
    return "only tasks waiting on inputs remain and none will arrive: a dependency cycle or a task that reads a "
           "tensor no task writes";
  if (sub_class.rfind("S5", 0) == 0)
    return "every submitted task is done but the orchestration has not finished: it is stuck before its next "
           "submission (a loop that does not end, a wait in the orchestration)";
  return "the runtime's bookkeeping is inconsistent (accounting or memory corruption)";
}

}  // namespace

std::optional<RuntimeStall> parseRuntimeStall(std::string_view log) {
  static const std::regex line(
      R"(TIMEOUT_EXIT after_idle_iterations=\d+ sub_class=(\S+) completed=(\d+)/(\d+) running=(\d+) ready=(\d+) )"
      R"(waiting=(\d+) orch_done=(\d)(?: stuck_task_id=-?\d+ stuck_core=(-?\d+))?)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(log.begin(), log.end(), m, line)) return std::nullopt;
  auto number = [&](int i) { return std::stoi(m[i].str()); };
  RuntimeStall s;
  s.sub_class = m[1].str();
  s.meaning = meaningOf(s.sub_class);
  s.completed = number(2);
  s.total = number(3);
  s.running = number(4);
  s.ready = number(5);
  s.waiting = number(6);
  s.orch_done = m[7].str() == "1";
  if (m[8].matched && number(8) >= 0) s.stuck_core = number(8);
  return s;
}

std::string describeRuntimeStall(const RuntimeStall& s) {
  std::string text = s.sub_class + ": " + s.meaning + "; " + std::to_string(s.completed) + " of " +
                     std::to_string(s.total) + " tasks completed, " + std::to_string(s.running) + " running, " +
                     std::to_string(s.ready) + " ready, " + std::to_string(s.waiting) + " waiting";
  if (s.stuck_core) text += " (stuck core " + std::to_string(*s.stuck_core) + ")";
  return text;
}

}  // namespace portcheck
