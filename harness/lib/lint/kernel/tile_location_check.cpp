#include "lint/kernel/tile_location_check.h"

namespace portcheck {

using namespace kernel;

void TileLocationCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction) continue;
    std::vector<Loc> locs;
    for (const Operand& o : c.args) locs.push_back(m.locOf(o));
    if (auto problem = locationProblem(*c.instruction, locs, ctx.platform)) out.push_back(at(ctx, c.pos, *problem));
  }
}

}  // namespace portcheck
