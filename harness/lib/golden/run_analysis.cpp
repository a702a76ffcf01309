#include "golden/run_analysis.h"

#include "compiler/nanobind_trap_hint.h"
#include "golden/run_check.h"
#include "golden/run_text.h"

namespace portcheck {

RunAnalysis analyzeRun(const RunRecord& record) {
  RunAnalysis a;
  GoldenRun& g = a.run;
  const RunResult& r = record.result;
  g.project = record.project;
  g.platform = record.platform;
  g.seed = r.seed;
  g.rtol = r.rtol;
  g.atol = r.atol;
  g.tolerance_source = r.tolerance_source;
  g.seconds = record.seconds;
  g.out_dir = record.out_dir_display;

  bool compared = r.present && r.status == "ok" && !record.timed_out && !record.cancelled;
  if (!compared) {
    for (const auto& check : runFailureChecks()) {
      if (!check->matches(record)) continue;
      a.diagnostics.push_back(check->report(record));
      g.status = "error";
      g.failure = std::string(check->failureClass());
      g.rule = std::string(check->ruleId());
      g.detail = a.diagnostics.back().message;
      break;
    }
    if (g.status.empty()) {  // unreachable while RunFailedCheck is the catch-all; stays honest if not
      g.status = "error";
      g.failure = "run-failed";
      g.detail = record.project + ": the run produced no comparison";
    }
    // The run's own compile can fail on the nanobind 3 trap too: the toolchain's, not the port's.
    addNanobindTrapHints(a.diagnostics, record.log + "\n" + r.exception_message + "\n" + r.traceback);
    return a;
  }

  g.outputs = r.outputs;
  std::size_t failed = 0;
  for (const GoldenOutput& o : r.outputs) {
    failed += !o.passed;
    for (const auto& check : outputChecks())
      if (check->matches(o)) {
        a.diagnostics.push_back(check->report(record, o));
        if (g.rule.empty()) g.rule = std::string(check->ruleId());
      }
  }
  g.status = failed == 0 ? "passed" : "failed";
  g.detail = record.project + ": " + std::to_string(r.outputs.size() - failed) + " of " +
             std::to_string(r.outputs.size()) + " output" + (r.outputs.size() == 1 ? "" : "s") +
             " match the golden on " + record.platform;
  return a;
}

}  // namespace portcheck
