#include "lint/kernel/manual_pipe_flag_check.h"

namespace portcheck {

using namespace kernel;

void ManualPipeFlagCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.object.empty() || !c.reach.inAutoMode()) continue;
    if (c.name != "set_flag" && c.name != "wait_flag" && c.name != "pipe_barrier") continue;
    // Inside tile functions synchronisation stays manual (AUTO-R18): the auto compiler treats them as black boxes.
    if (m.functionOf(c.function) && m.functionOf(c.function)->tile_function) continue;
    out.push_back(at(ctx, c.pos,
                     c.name + "(...) in AUTO-mode code: raw pipe flags are not removed in AUTO mode and conflict "
                              "with the synchronisation the compiler inserts"));
  }
}

}  // namespace portcheck
