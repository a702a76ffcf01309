#pragma once
// The run checks (GOLD family): one class per failure class or output verdict, each in its own
// .h/.cpp pair under golden/checks/, registered in golden/run_checks.cpp. A failure check claims a
// run that produced no comparison (the first match in precedence order wins); an output check
// reports one compared output.
#include <memory>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "golden/run_result.h"

namespace portcheck {

class RunFailureCheck {
 public:
  virtual ~RunFailureCheck() = default;
  virtual std::string_view ruleId() const = 0;
  virtual std::string_view failureClass() const = 0;  // kebab-case, e.g. "runtime-not-installed"
  virtual bool matches(const RunRecord& run) const = 0;
  virtual Diagnostic report(const RunRecord& run) const = 0;
};

class OutputCheck {
 public:
  virtual ~OutputCheck() = default;
  virtual std::string_view ruleId() const = 0;
  virtual bool matches(const GoldenOutput& output) const = 0;
  virtual Diagnostic report(const RunRecord& run, const GoldenOutput& output) const = 0;
};

// A finding of the checks against gamed goldens, seen over a contract's runs (docs/contract.md §5):
// the adapter says what it saw, the check for that rule words it.
class GamingCheck {
 public:
  virtual ~GamingCheck() = default;
  virtual std::string_view ruleId() const = 0;
  bool matches(const GoldenGamingFinding& finding) const { return finding.rule == ruleId(); }
  virtual Diagnostic report(const RunRecord& run, const GoldenGamingFinding& finding) const = 0;
};

// In precedence order: timeout, runtime not installed, crash, kernel toolchain missing, kernel
// compile failure, golden raised, golden contract, and last the catch-all run failure.
const std::vector<std::unique_ptr<RunFailureCheck>>& runFailureChecks();
// Output verdicts; several may report one output (e.g. NaN counts beside a mismatch).
const std::vector<std::unique_ptr<OutputCheck>>& outputChecks();
// GOLD020-GOLD023, one per rule.
const std::vector<std::unique_ptr<GamingCheck>>& gamingChecks();

}  // namespace portcheck
