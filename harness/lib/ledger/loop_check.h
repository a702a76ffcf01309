#pragma once
// The loop rules (LOOP family): advice on the porting loop itself, read from the ledger rather than
// the source. One class per rule under ledger/checks/, registered in ledger/loop_checks.cpp. A check
// looks at the attempt just made against the ones before it and appends diagnostics built with
// makeDiagnostic(); it keeps no state.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "ledger/attempt.h"
#include "workspace/config.h"

namespace portcheck::ledger {

// Thresholds, from port-check.json "options" (docs/ledger.md#loop-rules).
struct LoopSettings {
  int attempts_per_finding = 2;      // loop.attempts_per_finding: LOOP001
  int attempts_without_progress = 8; // loop.attempts_without_progress: LOOP002
  int max_hunks = 6;                 // loop.max_hunks: LOOP003
};
LoopSettings loopSettings(const Config& config);

struct LoopContext {
  std::span<const Attempt> earlier;     // the attempts before `current`, oldest first
  const FoldedSummary* folded;          // attempts folded out of the ledger, or null
  const Attempt& current;
  const LoopSettings& settings;
};

class LoopCheck {
 public:
  virtual ~LoopCheck() = default;
  virtual std::string_view id() const = 0;
  virtual void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const = 0;
};

// Every loop check, in ID order.
const std::vector<std::unique_ptr<LoopCheck>>& loopChecks();

// Runs every loop check on `current`.
std::vector<Diagnostic> runLoopChecks(const LoopContext& ctx);

// Shared wording: "attempt 4 (incore.py lines 12-14, 30)" and the change of one attempt in short.
std::string describeChange(const Attempt& a);

// Where a finding of the project that is not tied to a line points: pypto_src/golden.py when the
// attempt has it, else the project folder.
std::string projectAnchor(const Attempt& a);

}  // namespace portcheck::ledger
