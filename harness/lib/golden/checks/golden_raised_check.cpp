#include "golden/checks/golden_raised_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool GoldenRaisedCheck::matches(const RunRecord& run) const {
  return run.result.present && (run.result.status == "golden_error" || run.result.status == "input_error");
}

Diagnostic GoldenRaisedCheck::report(const RunRecord& run) const {
  const RunResult& r = run.result;
  std::string function = r.golden_function.empty() ? (r.status == "input_error" ? "generate_inputs" : "the golden function")
                                                    : r.golden_function + "()";
  if (function == "generate_inputs") function += "()";
  std::string message = run.project + ": golden.py raised in " + function +
                        (r.status == "input_error" ? " while making the inputs" : " while computing the reference") +
                        ": " + exceptionText(run, true);
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
