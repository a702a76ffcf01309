#include "golden/checks/output_mismatch_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool OutputMismatchCheck::matches(const GoldenOutput& o) const {
  return !o.passed && o.verdict == "mismatch";
}

namespace {

// What the comparator found wrong, beside the allclose figures (docs/contract.md §4).
std::string comparatorText(const GoldenOutput& o) {
  if (o.comparator == "pass_rate" && o.pass_rate)
    return formatShare(o.close_share.value_or(1.0 - o.mismatch_share)) + " of elements within (rtol " +
           formatNumber(o.rtol) + ", atol " + formatNumber(o.atol) + "), at least " + formatShare(*o.pass_rate) +
           " required";
  if (o.comparator == "max_steps") {
    std::string found;
    for (const auto& [steps, count] : o.steps) {
      if (steps == "0" || count == 0) continue;
      std::string bound = "none allowed";
      for (const auto& [k, n] : o.max_steps)
        if (k == steps) bound = "at most " + std::to_string(n);
      found += (found.empty() ? "" : ", ") + std::to_string(count) + " off by " + steps + " step" +
               (steps == "1" ? "" : "s") + " (" + bound + ")";
    }
    return "elements " + (found.empty() ? std::string("off by more steps than allowed") : found);
  }
  return std::to_string(o.mismatches) + " of " + std::to_string(o.elements) + " elements (" +
         formatShare(o.mismatch_share) + ") out of tolerance (rtol " + formatNumber(o.rtol) + ", atol " +
         formatNumber(o.atol) + ")";
}

}  // namespace

Diagnostic OutputMismatchCheck::report(const RunRecord& run, const GoldenOutput& o) const {
  std::string message = outputSubject(run, o) + " differs from the golden on " + run.platform + ": " +
                        comparatorText(o) + "; max abs err " + formatNumber(o.max_abs_err) + ", max rel err " +
                        formatNumber(o.max_rel_err);
  if (!o.first_mismatch.empty())
    message += "; first mismatch at " + formatIndex(o.first_mismatch) + ": actual " + o.first_actual + ", expected " +
               o.first_expected;
  auto [file, line] = outputLocation(run, o.name);
  Diagnostic d = makeDiagnostic(ruleId(), file, line, 0, std::move(message));
  if (!o.worst_index.empty() && o.worst_index != o.first_mismatch && o.max_abs_err.value_or(0) > 0)
    d.notes.push_back({"", 0, 0, "largest error at " + formatIndex(o.worst_index)});
  // A share near 100% with a modest error points at a systematic fault (a missing scale, a wrong
  // reduction axis); a handful of elements points at boundaries or precision.
  if (o.elements > 0 && o.mismatch_share < 0.01)
    d.notes.push_back({"", 0, 0,
                       "few elements differ: look at tile boundaries and tails, or at the tolerance for this dtype"});
  return d;
}

}  // namespace portcheck
