#include "golden/checks/kernel_compile_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool KernelCompileCheck::matches(const RunRecord& run) const {
  return run.result.present && run.result.status == "run_error" &&
         containsAnyOf(runFailureText(run), {"compilation failed with exit code", "compilation failed:"});
}

Diagnostic KernelCompileCheck::report(const RunRecord& run) const {
  const std::string& text = run.result.exception_message;
  std::string what = containsAnyOf(text, {"Orchestration compilation"}) ? "the orchestration" : "a kernel";
  std::string error = mapRunPaths(run, firstCompilerError(text));
  // Point at the generated file when the error names one inside the run's output folder.
  std::string file = run.display_file;
  int line = 0;
  if (!error.empty() && !run.out_dir_display.empty() && error.rfind(run.out_dir_display, 0) == 0) {
    auto colon = error.find(':');
    file = error.substr(0, colon);
    line = std::atoi(error.c_str() + colon + 1);
  }
  std::string message = run.project + ": the " + run.platform + " simulator failed to compile " + what +
                        (error.empty() ? ": " + exceptionText(run, true) : ": " + error);
  Diagnostic d = makeDiagnostic(ruleId(), file, line, 0, std::move(message));
  // pto-isa's Tile layout assertion: the port's tile shape, not the toolchain (DSL111 sees it before a run).
  if (containsAnyOf(text, {"Rows must be 32 bytes align", "Cols must be 32 bytes align"}))
    d.hint = "a tile's aligned dimension is not 32 bytes: a row-major tile's row (columns x element size), or a "
             "[N, 1] column tile's N x element size (FP32 columns need N a multiple of 8, BF16 16); `port-check lint` "
             "reports it as DSL111";
  std::string tail = mapRunPaths(run, text);
  if (tail.size() > 2000) tail = tail.substr(0, 2000) + "\n...";
  d.notes.push_back({"", 0, 0, "compiler output:\n" + tail});
  return d;
}

}  // namespace portcheck
