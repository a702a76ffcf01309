#include "golden/checks/run_failed_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool RunFailedCheck::matches(const RunRecord& run) const { return run.result.present && run.result.status != "ok"; }

Diagnostic RunFailedCheck::report(const RunRecord& run) const {
  const RunResult& r = run.result;
  std::string stage = r.status == "compile_error" ? "compiling it for the run failed"
                      : r.phase == "execute"      ? "the runtime raised"
                                                  : "it stopped in phase '" + r.phase + "' (" + r.status + ")";
  std::string message = run.project + ": the run on " + run.platform + " failed: " + stage;
  std::string exception = exceptionText(run, true);
  if (!exception.empty()) message += ": " + exception;
  // A multi-line compile failure (ptoas, codegen) names its reason below the first line.
  std::string clause = compilerErrorClause(mapRunPaths(run, r.exception_message));
  if (!clause.empty() && exception.find(clause) == std::string::npos) message += " " + clause;
  auto [file, line] = tracebackLocation(run);
  Diagnostic d = makeDiagnostic(ruleId(), file, line, 0, std::move(message));
  if (!r.traceback.empty()) {
    RunRecord traceback_only = run;
    traceback_only.log = r.traceback;
    d.notes.push_back({"", 0, 0, "traceback:\n" + runLogTail(traceback_only, 8)});
  }
  return d;
}

}  // namespace portcheck
