#include "golden/checks/run_timeout_check.h"

#include "golden/run_text.h"
#include "golden/runtime_stall.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

bool runtimeReportedTimeout(const RunRecord& run) {
  return run.result.present && run.result.status == "run_error" &&
         containsAnyOf(runFailureText(run), {"timed out", "timeout", "deadlock"});
}

std::string limitText(std::chrono::milliseconds ms) {
  return ms.count() % 1000 == 0 ? std::to_string(ms.count() / 1000) + " s" : std::to_string(ms.count()) + " ms";
}

}  // namespace

bool RunTimeoutCheck::matches(const RunRecord& run) const { return run.timed_out || runtimeReportedTimeout(run); }

Diagnostic RunTimeoutCheck::report(const RunRecord& run) const {
  std::string message =
      run.timed_out
          ? run.project + ": the run on " + run.platform + " did not finish within " + limitText(run.timeout) +
                "; its process group was killed (a deadlock, a livelock or a very slow simulation)"
          : run.project + ": the runtime gave up waiting on " + run.platform + ": " + exceptionText(run, true);
  Diagnostic d = makeDiagnostic(ruleId(), run.display_file, 0, 0, std::move(message));
  if (std::optional<RuntimeStall> stall = parseRuntimeStall(run.log))
    d.notes.push_back({"", 0, 0, "the simulator's watchdog reported " + describeRuntimeStall(*stall)});
  std::string tail = runLogTail(run, 8);
  if (!tail.empty()) d.notes.push_back({"", 0, 0, "last output lines:\n" + tail});
  if (!run.log_file_display.empty()) d.notes.push_back({"", 0, 0, "the run's whole output: " + run.log_file_display});
  return d;
}

}  // namespace portcheck
