#include "lint/kernel/noop_in_auto_check.h"

namespace portcheck {

using namespace kernel;

void NoopInAutoCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  // Inside tile functions TSYNC/PtoSetWaitFlag/Event<> are a race, not a harmless no-op: AUTO021 reports them.
  auto inTileFunction = [&](int f) { return m.functionOf(f) && m.functionOf(f)->tile_function; };
  for (const Call& c : m.calls) {
    if (!c.object.empty() || !c.reach.inAutoMode()) continue;
    if (inTileFunction(c.function) && c.name != "SYNCALL" && c.name != "TPREFETCH_ASYNC") continue;
    bool pto = c.instruction && (c.name == "TSYNC" || c.name == "SYNCALL" || c.name == "TPREFETCH_ASYNC");
    if (!pto && c.name != "PtoSetWaitFlag") continue;
    out.push_back(at(ctx, c.pos, c.name + " compiles but does nothing in AUTO mode; its presence shows a manual-mode "
                                          "assumption about ordering or placement"));
  }
  for (const TypeUse& t : m.event_types) {
    if (!t.reach.inAutoMode() || inTileFunction(t.function)) continue;
    out.push_back(at(ctx, t.pos, "Event<> tokens compile but do nothing in AUTO mode; the compiler orders the pipes"));
  }
}

}  // namespace portcheck
