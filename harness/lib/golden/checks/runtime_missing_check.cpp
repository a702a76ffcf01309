#include "golden/checks/runtime_missing_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// What a missing or unusable runtime looks like (docs/run-stage.md, pypto-compiler-interface.md §8):
// simpler_setup / simpler not importable, cloudpickle missing, torch older than 2.3 (no uint16), the
// runtime's own build failing or its build tool missing.
bool runtimeMissing(const std::string& text) {
  if (containsAnyOf(text, {"No module named 'simpler", "No module named 'cloudpickle'", "No module named '_task_interface",
                           "cannot import name", "has no attribute 'uint16'", "has no attribute 'uint32'"}))
    return containsAnyOf(text, {"simpler", "cloudpickle", "task_interface", "torch", "uint16", "uint32"});
  return containsAnyOf(text, {"failed for a2a3sim with exit code", "failed for a5sim with exit code",
                              "cmake not found", "Please install cmake"});
}

std::string missingPiece(const std::string& text) {
  if (containsAnyOf(text, {"uint16", "uint32"})) return "torch is older than 2.3 (no torch.uint16/uint32)";
  if (containsAnyOf(text, {"cloudpickle"})) return "cloudpickle is not installed";
  if (containsAnyOf(text, {"'_task_interface'"}))
    return "the PyPTO runtime's native module _task_interface is not built (simpler's Python bindings)";
  if (containsAnyOf(text, {"simpler_setup", "'simpler", "task_interface"}))
    return "the PyPTO runtime (simpler, simpler_setup) is not importable";
  return "the PyPTO runtime could not be built";
}

}  // namespace

bool RuntimeMissingCheck::matches(const RunRecord& run) const {
  if (!run.started) return true;  // the interpreter itself cannot be started
  const RunResult& r = run.result;
  if (!r.present) return false;
  if (r.status == "toolchain_error") return true;
  return r.status == "run_error" && runtimeMissing(runFailureText(run));
}

Diagnostic RuntimeMissingCheck::report(const RunRecord& run) const {
  std::string message;
  if (!run.started)
    message = run.project + ": the run could not be started: " + run.spawn_error;
  else if (run.result.status == "toolchain_error")
    message = run.project + ": PyPTO does not import, so nothing can run on " + run.platform + ": " +
              exceptionText(run, true);
  else
    message = run.project + ": cannot run on " + run.platform + ": " + missingPiece(runFailureText(run)) + " (" +
              exceptionText(run, true) + ")";
  return makeDiagnostic(ruleId(), run.display_file, 0, 0, std::move(message));
}

}  // namespace portcheck
