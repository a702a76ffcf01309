#include "ledger/checks/no_golden_progress_check.h"

#include <cstdio>

#include "rules/catalogue.h"

namespace portcheck::ledger {

namespace {

std::string errorFigure(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

void NoGoldenProgressCheck::check(const LoopContext& ctx, std::vector<Diagnostic>& out) const {
  if (!ctx.current.golden || !ctx.current.golden->ran()) return;
  std::vector<const Attempt*> runs;
  for (const Attempt& a : ctx.earlier)
    if (a.golden && a.golden->ran()) runs.push_back(&a);
  runs.push_back(&ctx.current);
  const std::size_t window = static_cast<std::size_t>(ctx.settings.attempts_without_progress);
  if (runs.size() < window) return;
  const std::size_t start = runs.size() - window;
  // The best error up to the window's first run; progress is a pass, or an error below every
  // earlier one, within the window.
  bool have_best = ctx.folded && ctx.folded->best_max_abs_err;
  double best = have_best ? *ctx.folded->best_max_abs_err : 0.0;
  int best_at = 0;
  for (std::size_t i = 0; i <= start; ++i)
    if (auto e = runs[i]->golden->maxAbsErr(); e && (!have_best || *e < best)) {
      have_best = true;
      best = *e;
      best_at = runs[i]->number;
    }
  if (runs[start]->golden->status == "passed") return;
  for (std::size_t i = start + 1; i < runs.size(); ++i) {
    const GoldenOutcome& g = *runs[i]->golden;
    if (g.status == "passed") return;
    auto e = g.maxAbsErr();
    if (e && (!have_best || *e < best)) return;
  }
  std::string message = "the golden has not passed in the last " + std::to_string(window) +
                        " attempts that ran it (attempts " + std::to_string(runs[start]->number) + " to " +
                        std::to_string(ctx.current.number) + ")";
  if (have_best)
    message += ", and its largest error never went below " + errorFigure(best) +
               (best_at > 0 ? " (attempt " + std::to_string(best_at) + ")" : " (an attempt folded out of the ledger)");
  else
    message += ", and no run compared an output";
  out.push_back(makeDiagnostic(id(), projectAnchor(ctx.current), 0, 0, std::move(message)));
}

}  // namespace portcheck::ledger
