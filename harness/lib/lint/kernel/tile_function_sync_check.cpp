#include "lint/kernel/tile_function_sync_check.h"

namespace portcheck {

using namespace kernel;

void TileFunctionSyncCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  auto inTileFunction = [&](int f) { return m.functionOf(f) && m.functionOf(f)->tile_function; };
  for (const Call& c : m.calls) {
    if (!c.object.empty() || !c.reach.inAutoMode() || !inTileFunction(c.function)) continue;
    if (!(c.instruction && c.name == "TSYNC") && c.name != "PtoSetWaitFlag") continue;
    out.push_back(at(ctx, c.pos, c.name + " inside tile function " + m.functions[c.function].name +
                                     " is dropped in AUTO mode: a tile function is a black box to the compiler, so "
                                     "its internal ordering must use set_flag/wait_flag/pipe_barrier"));
  }
  for (const TypeUse& t : m.event_types) {
    if (!t.reach.inAutoMode() || !inTileFunction(t.function)) continue;
    out.push_back(at(ctx, t.pos, "Event<> inside tile function " + m.functions[t.function].name +
                                     " is dropped in AUTO mode; order the pipes with set_flag/wait_flag"));
  }
}

}  // namespace portcheck
