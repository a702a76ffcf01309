#include "lint/kernel/tassign_on_tile_check.h"

#include "kernel/kernel_class.h"

namespace portcheck {

using namespace kernel;

void TassignOnTileCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.reach.inAutoMode() || !bindsTile(m, c)) continue;
    out.push_back(at(ctx, c.pos,
                     "TASSIGN binds tile '" + c.args[0].text +
                         "' to a fixed address; in AUTO mode TASSIGN on a tile is a no-op and the compiler places "
                         "tiles, so whatever aliasing it expressed is lost"));
  }
}

}  // namespace portcheck
