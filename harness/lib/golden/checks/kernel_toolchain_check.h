#pragma once
// GOLD011: The simulator cannot build kernels: no ptoas (no kernel C++), no g++-15 / C++23 compiler, a compiler too old for the pto-isa CPU headers, or no pto-isa headers.
#include "golden/run_check.h"

namespace portcheck {

class KernelToolchainCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD011"; }
  std::string_view failureClass() const override { return "kernel-toolchain-missing"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
