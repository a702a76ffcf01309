#include "lint/kernel/tile_array_runtime_index_check.h"

#include <set>

namespace portcheck {

using namespace kernel;

void TileArrayRuntimeIndexCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  std::set<int> reported;  // one finding per array
  for (const Call& c : m.calls) {
    if (!c.instruction || !c.reach.inAutoMode() || c.multibuffered || isLibraryFunction(m, c.function)) continue;
    for (const Operand& o : c.args) {
      const Symbol* s = m.symbolOf(o);
      if (!s || s->kind != SymbolKind::Tile || !s->is_array || !o.subscripted || o.constant_index) continue;
      if (!reported.insert(o.symbol).second) continue;
      out.push_back(at(ctx, o.pos, "tile array '" + s->name + "' indexed at run time ('" + o.text +
                                       "'): hand-made multi-buffering hides the tiles' lifetimes from the AUTO "
                                       "compiler, which allocates and double-buffers tiles itself"));
    }
  }
}

}  // namespace portcheck
