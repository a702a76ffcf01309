#include "golden/checks/kernel_toolchain_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

namespace {

// The simulator compiles every kernel with g++-15 -std=c++23 against the pto-isa CPU headers
// (simpler_setup/toolchain.py); GCC 12 fails on TReduceIdx.hpp's static_assert(false, ...).
bool compilerMissing(const std::string& text) {
  return containsAnyOf(text, {"g++-15 not found", "Please install g++-15", "Compiler not found",
                              "ccec compiler not found", "Unsupported element cmp", "-std=c++23",
                              "'c++23'", "PTO-ISA pin"});
}

std::string whatIsMissing(const RunRecord& run) {
  std::string text = runFailureText(run);
  if (run.result.status == "ptoas_missing")
    return "ptoas was not found (PTOAS_ROOT, PATH), so the compile stops at .pto kernels and there is no kernel "
           "C++ to build";
  if (containsAnyOf(text, {"Unsupported element cmp"}))
    return "the kernel compiler is too old for the pto-isa CPU headers (GCC 12 rejects static_assert(false) in "
           "TReduceIdx.hpp; GCC >= 13 or clang >= 17 is needed)";
  if (containsAnyOf(text, {"c++23"})) return "the kernel compiler does not know -std=c++23";
  if (containsAnyOf(text, {"PTO-ISA"})) return "the pto-isa headers at the runtime's pin are not there";
  return "the kernel compiler g++-15 (C++23) was not found";
}

}  // namespace

bool KernelToolchainCheck::matches(const RunRecord& run) const {
  const RunResult& r = run.result;
  if (!r.present) return false;
  if (r.status == "ptoas_missing") return true;
  return r.status == "run_error" && compilerMissing(runFailureText(run));
}

Diagnostic KernelToolchainCheck::report(const RunRecord& run) const {
  std::string message = run.project + ": the " + run.platform + " simulator cannot build kernels: " + whatIsMissing(run);
  Diagnostic d = makeDiagnostic(ruleId(), run.display_file, 0, 0, std::move(message));
  if (run.result.status != "ptoas_missing") {
    std::string error = firstCompilerError(run.result.exception_message);
    d.notes.push_back({"", 0, 0, mapRunPaths(run, error.empty() ? exceptionText(run, true) : error)});
  }
  return d;
}

}  // namespace portcheck
