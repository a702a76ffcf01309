#include "golden/checks/run_crash_check.h"

#include "golden/run_text.h"
#include "process/subprocess.h"
#include "rules/catalogue.h"

namespace portcheck {

bool RunCrashCheck::matches(const RunRecord& run) const { return run.started && !run.result.present; }

Diagnostic RunCrashCheck::report(const RunRecord& run) const {
  std::string message;
  if (run.signal != 0)
    message = run.project + ": the run process was killed by " + signalDescription(run.signal) + " on " +
              run.platform + " before it wrote its result";
  else if (!run.result_file_exists)
    message = run.project + ": the run process exited with status " + std::to_string(run.exit_code) +
              " without writing its result";
  else
    message = run.project + ": the run result is unreadable: " + run.result_error;
  Diagnostic d = makeDiagnostic(ruleId(), run.display_file, 0, 0, std::move(message));
  std::string tail = runLogTail(run, 8);
  if (!tail.empty()) d.notes.push_back({"", 0, 0, "last output lines:\n" + tail});
  if (!run.log_file_display.empty()) d.notes.push_back({"", 0, 0, "the run's whole output: " + run.log_file_display});
  return d;
}

}  // namespace portcheck
