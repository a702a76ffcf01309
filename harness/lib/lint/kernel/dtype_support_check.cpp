#include "lint/kernel/dtype_support_check.h"

namespace portcheck {

using namespace kernel;

void DtypeSupportCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (!c.instruction) continue;
    std::vector<Loc> locs;
    std::vector<std::string> dtypes;
    for (const Operand& o : c.args) {
      const Symbol* s = m.symbolOf(o);
      bool tile = s && s->kind == SymbolKind::Tile;
      locs.push_back(tile ? s->tile.loc : Loc::Unknown);
      dtypes.push_back(tile ? s->tile.dtype : std::string());
    }
    if (auto problem = dtypeProblem(*c.instruction, locs, dtypes, ctx.platform)) out.push_back(at(ctx, c.pos, *problem));
  }
}

}  // namespace portcheck
