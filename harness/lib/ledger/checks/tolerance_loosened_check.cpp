#include "ledger/checks/tolerance_loosened_check.h"

#include <cstdio>

#include "rules/catalogue.h"

namespace portcheck::ledger {

namespace {

std::string toleranceText(const GoldenOutputFigures& o) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "rtol %g, atol %g", *o.rtol, *o.atol);
  return buf;
}

// `now` allows more than `then` (beyond the rounding of a printed figure).
bool looser(double now, double then) { return now > then * (1 + 1e-9) + 1e-300; }

}  // namespace

void ToleranceLoosenedCheck::check(const LoopContext& ctx, std::vector<Diagnostic>& out) const {
  const Attempt& now = ctx.current;
  if (!now.golden || !now.golden->ran()) return;
  const Attempt* passed = nullptr;
  for (auto it = ctx.earlier.rbegin(); it != ctx.earlier.rend() && !passed; ++it)
    if (it->golden && it->golden->status == "passed") passed = &*it;
  if (!passed) return;
  for (const GoldenOutputFigures& o : now.golden->outputs) {
    if (!o.rtol || !o.atol) continue;
    for (const GoldenOutputFigures& p : passed->golden->outputs) {
      if (p.name != o.name || !p.rtol || !p.atol) continue;
      if (!looser(*o.rtol, *p.rtol) && !looser(*o.atol, *p.atol)) break;
      out.push_back(makeDiagnostic(
          id(), projectAnchor(now), 0, 0,
          "the tolerance of output '" + o.name + "' is " + toleranceText(o) + " in attempt " +
              std::to_string(now.number) + ", looser than " + toleranceText(p) + " in attempt " +
              std::to_string(passed->number) + ", whose golden passed (its change: " + describeChange(*passed) +
              "); the golden now " + (now.golden->status == "passed" ? "passes" : "fails") +
              " with a wider check, not a better kernel"));
      break;
    }
  }
}

}  // namespace portcheck::ledger
