#include "lint/kernel/tile_data_pointer_check.h"

namespace portcheck {

using namespace kernel;

void TileDataPointerCheck::check(const KernelContext& ctx, std::vector<Diagnostic>& out) const {
  const KernelModel& m = ctx.model;
  for (const Call& c : m.calls) {
    if (c.name != "data" || c.object.empty() || !c.args.empty() || !c.reach.inAutoMode()) continue;
    if (isLibraryFunction(m, c.function)) continue;
    const Symbol* s = c.object_symbol >= 0 ? &m.symbols[c.object_symbol] : nullptr;
    if (!s) continue;
    bool tile = s->kind == SymbolKind::Tile ||
                (s->kind == SymbolKind::Other && s->type_text.find("Tile") != std::string::npos &&
                 s->type_text.find("TileDType") == std::string::npos);
    if (!tile) continue;  // GlobalTensor::data() is the GM pointer and fine
    out.push_back(at(ctx, c.pos, "'" + c.object + ".data()' in kernel code: in AUTO mode a tile's data() is a "
                                                  "vector-typed handle, not a pointer (the CPU simulator still "
                                                  "returns T*, so the CPU build does not catch this)"));
  }
}

}  // namespace portcheck
