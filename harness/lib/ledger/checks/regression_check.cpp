#include "ledger/checks/regression_check.h"

#include <set>

#include "ledger/checks/repeated_finding_check.h"
#include "rules/catalogue.h"

namespace portcheck::ledger {

namespace {

std::string brokeBy(const Attempt& broke, const Attempt& current) {
  std::string text = broke.number == current.number ? "now" : "since attempt " + std::to_string(broke.number);
  return text + " (its change: " + describeChange(broke) + ")";
}

void goldenRegression(const LoopContext& ctx, std::vector<Diagnostic>& out) {
  const Attempt& now = ctx.current;
  if (!now.golden || !now.golden->ran() || now.golden->status == "passed") return;
  // The newest pass, then the first run after it that did not pass.
  const Attempt* broke = &now;
  int passed_at = 0;
  for (auto it = ctx.earlier.rbegin(); it != ctx.earlier.rend(); ++it) {
    if (!it->golden || !it->golden->ran()) continue;
    if (it->golden->status == "passed") {
      passed_at = it->number;
      break;
    }
    broke = &*it;
  }
  if (passed_at == 0 && ctx.folded && ctx.folded->last_golden_pass > 0) passed_at = ctx.folded->last_golden_pass;
  if (passed_at == 0) return;
  out.push_back(makeDiagnostic("LOOP004", projectAnchor(now), 0, 0,
                               "the golden passed in attempt " + std::to_string(passed_at) + " and fails " +
                                   brokeBy(*broke, now) + ": " + now.golden->status +
                                   (now.golden->rule.empty() ? "" : " (" + now.golden->rule + ")")));
}

void findingRegressions(const LoopContext& ctx, std::vector<Diagnostic>& out) {
  const Attempt& now = ctx.current;
  std::set<std::string> reported;
  for (const Finding& f : now.findings) {
    if (f.severity != Severity::Error || !followedFinding(f) || f.file.empty()) continue;
    std::string stage = stageOf(f.rule, f.source);
    std::string key = f.key();
    if (!reported.insert(key).second) continue;  // the same finding on several lines: once
    // Back to the newest attempt whose stage ran without this finding: the one after it broke the code.
    const Attempt* broke = &now;
    const Attempt* clean = nullptr;
    for (auto it = ctx.earlier.rbegin(); it != ctx.earlier.rend(); ++it) {
      if (it->hasFinding(key)) {
        broke = &*it;
        continue;
      }
      if (!it->stageRan(stage)) continue;
      clean = &*it;
      break;
    }
    if (!clean) continue;
    // Only code that existed when it was clean: a finding in new code is no regression.
    bool existed = f.function.empty() ? clean->hasFile(f.file) : clean->definesFunction(f.function);
    if (!existed) continue;
    std::string where = f.function.empty() ? "" : " in '" + f.function + "'";
    out.push_back(makeDiagnostic("LOOP004", f.file, f.line, 0,
                                 f.rule + where + " was not reported in attempt " + std::to_string(clean->number) +
                                     " and is " + brokeBy(*broke, now) + ": " + f.message));
  }
}

}  // namespace

void RegressionCheck::check(const LoopContext& ctx, std::vector<Diagnostic>& out) const {
  goldenRegression(ctx, out);
  findingRegressions(ctx, out);
}

}  // namespace portcheck::ledger
