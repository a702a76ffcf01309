#pragma once
// How `port-check tune` ranks configurations (docs/tune.md, "The cost model"). Lexicographic:
//   1. the verdict: the golden passed on the simulator; compiled cleanly (not run); not compiled (the
//      estimate only); the compile failed, the golden failed or timed out; pruned by the estimate;
//   2. less estimated device time of one run (the device-time model, docs/perf-model.md), a known figure
//      before an unknown one; estimates within 2% of each other are a tie (the model's own resolution);
//   then, among ties:
//   2b. fewer GM bytes on the critical path (each dispatch site in waves of one task per core, the
//      sites one after the other; cost/schedule_cost.h), a known figure before an unknown one;
//   3. fewer GM bytes moved in one run;
//   4. fewer tasks dispatched;
//   5. more of the binding SRAM space used (the compiler's figure once compiled, else the estimate's):
//      the porting method's "grow tiles while SRAM is under-used";
//   6. fewer of the compiler's performance hints;
//   7. less simulator wall time, where the golden ran.
#include <cstddef>
#include <string_view>
#include <vector>

#include "tune/estimate_screen.h"

namespace portcheck::tune {

enum class Verdict { GoldenPassed, CompiledCleanly, NotCompiled, Failed, Pruned };

Verdict verdictOf(const Screened& s);
std::string_view verdictName(Verdict v);  // "golden passed", "compiled", "estimate only", "failed", "pruned"

// True when `a` ranks before `b`.
bool ranksBefore(const Screened& a, const Screened& b);

// Sorts best first (stable: ties keep their order).
void rank(std::vector<Screened>& configs);

// Prunes the survivors that use their binding space far below the goal: under a quarter of the best
// survivor's use while no faster by the device-time model, moving no fewer GM bytes (on the critical path and in all) and dispatching no
// fewer tasks than it (a larger tile
// that costs nothing more is there to take). The port's current configuration is kept as the baseline.
// Returns how many it pruned.
std::size_t pruneUnderUsed(std::vector<Screened>& configs);

}  // namespace portcheck::tune
