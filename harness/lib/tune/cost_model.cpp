#include "tune/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace portcheck::tune {

namespace {

// A known figure before an unknown one, then the smaller.
int compareFewer(const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b) {
  if (a.has_value() != b.has_value()) return a ? -1 : 1;
  if (!a || *a == *b) return 0;
  return *a < *b ? -1 : 1;
}

// The 2% band a time falls in: bands of a geometric grid of ratio 1.02 (the model's own resolution).
std::int64_t timeBand(double us) {
  return us <= 0 ? std::numeric_limits<std::int64_t>::min()
                 : static_cast<std::int64_t>(std::floor(std::log(us) / std::log(1.02)));
}

// A known time before an unknown one, then the shorter; two times in one 2% band tie. A band, not
// "within 2% of each other": that relation is not transitive (65.7 ties 67.0, 67.0 ties 68.3, 65.7
// does not tie 68.3), so the sort had no consistent order and ranked 67.1 above 65.7.
int compareTime(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return a ? -1 : 1;
  if (!a) return 0;
  const std::int64_t ba = timeBand(*a), bb = timeBand(*b);
  if (ba == bb) return 0;
  return ba < bb ? -1 : 1;
}

double bindingUse(const Screened& s) { return s.compiled && s.actual_use > 0 ? s.actual_use : s.use; }

}  // namespace

Verdict verdictOf(const Screened& s) {
  if (!s.pruned.empty()) return Verdict::Pruned;
  if (s.ran) return s.golden == "passed" ? Verdict::GoldenPassed : Verdict::Failed;
  if (!s.compiled) return Verdict::NotCompiled;
  return s.status == "ok" && s.errors == 0 ? Verdict::CompiledCleanly : Verdict::Failed;
}

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::GoldenPassed: return "golden passed";
    case Verdict::CompiledCleanly: return "compiled";
    case Verdict::NotCompiled: return "estimate only";
    case Verdict::Failed: return "failed";
    case Verdict::Pruned: return "pruned";
  }
  return "";
}

bool ranksBefore(const Screened& a, const Screened& b) {
  const Verdict va = verdictOf(a), vb = verdictOf(b);
  if (va != vb) return va < vb;
  if (va == Verdict::Pruned) return a.use < b.use;  // the nearest miss first
  if (int c = compareTime(a.device_us, b.device_us)) return c < 0;
  if (int c = compareFewer(a.critical_gm_bytes, b.critical_gm_bytes)) return c < 0;
  if (int c = compareFewer(a.gm_bytes, b.gm_bytes)) return c < 0;
  if (int c = compareFewer(a.tasks, b.tasks)) return c < 0;
  if (bindingUse(a) != bindingUse(b)) return bindingUse(a) > bindingUse(b);
  if (a.hints != b.hints) return a.hints < b.hints;
  if (a.ran && b.ran && a.sim_seconds != b.sim_seconds) return a.sim_seconds < b.sim_seconds;
  return false;
}

void rank(std::vector<Screened>& configs) { std::stable_sort(configs.begin(), configs.end(), ranksBefore); }

std::size_t pruneUnderUsed(std::vector<Screened>& configs) {
  const Screened* best = nullptr;
  for (const Screened& s : configs)
    if (s.pruned.empty() && (!best || s.use > best->use)) best = &s;
  if (!best) return 0;
  const Screened top = *best;
  std::size_t pruned = 0;
  for (Screened& s : configs) {
    if (!s.pruned.empty() || s.current || s.use * 4 >= top.use * (1 - 1e-9)) continue;
    if (compareTime(s.device_us, top.device_us) < 0 || compareFewer(s.critical_gm_bytes, top.critical_gm_bytes) < 0 || compareFewer(s.gm_bytes, top.gm_bytes) < 0 ||
        compareFewer(s.tasks, top.tasks) < 0)
      continue;
    char why[160];
    std::snprintf(why, sizeof why, "under-used: %s at %.1f%%, under a quarter of %s's %.1f%% for no less traffic",
                  s.binding.c_str(), 100 * s.use, label(top.config).c_str(), 100 * top.use);
    s.pruned = why;
    ++pruned;
  }
  return pruned;
}

}  // namespace portcheck::tune
