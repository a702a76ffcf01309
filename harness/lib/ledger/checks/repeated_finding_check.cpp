#include "ledger/checks/repeated_finding_check.h"

#include <algorithm>
#include <set>

#include "rules/catalogue.h"

namespace portcheck::ledger {

namespace {

// Lines either side of a finding an edit must come within to count as changing its code, when the
// finding lies in no known function (C++ kernels, module level).
constexpr int kNearLines = 3;

// Whether attempt `a` changed the code `f` (as reported in `a`) lies in.
bool changedCodeOf(const Attempt& a, const Finding& f) {
  if (!a.changes) return false;
  for (const FileChange& c : *a.changes) {
    if (c.file != f.file) continue;
    if (f.line <= 0 || c.status != "modified") return true;
    if (!f.function.empty()) {
      for (const std::string& fn : c.functions)
        if (fn == f.function) return true;
      continue;
    }
    for (const Hunk& h : c.hunks) {
      int first = h.new_start, last = h.new_start + std::max(h.new_lines, 1) - 1;
      if (f.line >= first - kNearLines && f.line <= last + kNearLines) return true;
    }
  }
  return false;
}

std::string joinNumbers(const std::vector<int>& numbers) {
  std::string text;
  for (std::size_t i = 0; i < numbers.size(); ++i)
    text += (i == 0 ? "" : i + 1 == numbers.size() ? " and " : ", ") + std::to_string(numbers[i]);
  return text;
}

}  // namespace

bool followedFinding(const Finding& f) {
  return f.severity >= Severity::Warning && f.source != Stage::Tool && f.source != Stage::Ledger &&
         f.rule.rfind("LOOP", 0) != 0;
}

void RepeatedFindingCheck::check(const LoopContext& ctx, std::vector<Diagnostic>& out) const {
  std::set<std::string> reported;
  for (const Finding& f : ctx.current.findings) {
    if (!followedFinding(f) || f.file.empty()) continue;
    std::string key = f.key();
    if (!reported.insert(key).second) continue;  // the same finding on several lines: once
    // Walk back while the finding is there: each attempt that changed its code and still has it counts.
    std::vector<int> changing;
    const Attempt* later = &ctx.current;
    const Finding* in_later = &f;
    for (auto it = ctx.earlier.rbegin(); it != ctx.earlier.rend(); ++it) {
      const Finding* before = it->finding(key);
      if (!before) break;
      if (changedCodeOf(*later, *in_later)) changing.insert(changing.begin(), later->number);
      later = &*it;
      in_later = before;
    }
    if (static_cast<int>(changing.size()) < ctx.settings.attempts_per_finding) continue;
    std::string where = f.function.empty() ? "" : " in '" + f.function + "'";
    out.push_back(makeDiagnostic(
        id(), f.file, f.line, 0,
        f.rule + where + " is still reported after " + std::to_string(changing.size()) +
            " attempts that changed that code (attempts " + joinNumbers(changing) + "; first reported in attempt " +
            std::to_string(later->number) + "): " + f.message));
  }
}

}  // namespace portcheck::ledger
